import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from './helpers/manifest.ts';
import { distDir } from './helpers/paths.ts';
import { baseEnv, readLog, validInput } from './helpers/proc.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-optimizing-');
const TURNED_ON = /optimizing compiler turned on/;

/** Stop as hooks.json starts it (`--no-opt` among its flags, unless `flags` says otherwise). */
function stop(home: string, transcript: string, flags: string[]) {
  const data = join(home, 'data');
  const r = spawnSync(process.execPath, [...flags, join(distDir, 'stop.mjs')], {
    input: validInput('stop', { sessionId: 'opt', cwd: home, transcriptPath: transcript }),
    env: baseEnv(home, { CTXL_HOME: data, CTXL_LOG_LEVEL: 'debug' }),
    cwd: home,
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(r.status).toBe(0);
  return readLog(data).filter((l) => TURNED_ON.test(l.msg)).length;
}

describe('V8 optimizing compiler in a hook started with --no-opt', () => {
  it('is turned back on for a long backlog (over 1 MB), not for a turn of new lines', () => {
    const home = tempDir();
    const transcript = join(home, 't.jsonl');
    // 1.6 MB of real lines: two fixtures one after the other.
    writeFileSync(transcript, readFileSync(fixturePath('d-kimuson__claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl')));
    appendFileSync(transcript, readFileSync(fixturePath('tomjnsn__agentlogs/images.jsonl')));
    const flags = ['--max-semi-space-size=1', '--no-regexp-tier-up', '--no-opt'];
    expect(stop(home, transcript, flags)).toBe(1);
    appendFileSync(transcript, readFileSync(fixturePath('tomjnsn__agentlogs/crud.jsonl')));
    expect(stop(home, transcript, flags)).toBe(1); // 30 KB new: still the one line of the first run
  }, 60_000);

  it('is left alone in a hook that runs with it on', () => {
    const home = tempDir();
    const transcript = join(home, 't.jsonl');
    writeFileSync(transcript, readFileSync(fixturePath('d-kimuson__claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl')));
    appendFileSync(transcript, readFileSync(fixturePath('tomjnsn__agentlogs/images.jsonl')));
    expect(stop(home, transcript, [])).toBe(0);
  }, 60_000);
});

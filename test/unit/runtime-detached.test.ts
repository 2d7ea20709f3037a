// lib/runtime/detached.ts: a detached process started without node:child_process, in a session of
// its own, with the env it was given and stdio on /dev/null, outliving the process that started it;
// child_process under --pending-deprecation; a command that cannot start rejects.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.ts';
import { useProbe } from './helpers/probe.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-detached-');

// The probe starts PROBE_COMMAND detached and says whether it could, and which modules it loaded.
const PROBE = `
import { writeSync } from 'node:fs';
import { spawnDetached } from ${JSON.stringify(join(repoRoot, 'lib', 'runtime', 'detached.ts'))};
spawnDetached(process.env.PROBE_COMMAND, JSON.parse(process.env.PROBE_ARGS), { PROBE_MARK: 'from-parent', PATH: process.env.PATH }).then(
  () => report('started'),
  (error) => report('failed: ' + error.code),
);
function report(outcome) {
  const loaded = (name) => process.moduleLoadList.includes('NativeModule ' + name);
  writeSync(1, JSON.stringify({ outcome, childProcess: loaded('child_process'), net: loaded('net') }));
}
`;
// The detached child: waits a moment (so the probe is gone), then writes its env mark, its session
// id and whether its stdin is /dev/null.
const CHILD = `
const fs = require('node:fs');
setTimeout(() => {
  const session = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[3];
  const stdin = fs.readlinkSync('/proc/self/fd/0');
  fs.writeFileSync(process.argv[1], JSON.stringify({ mark: process.env.PROBE_MARK, session, stdin, home: process.env.HOME ?? null }));
}, 1000);
`;
const probeFile = useProbe('detached', PROBE);

function runProbe(command: string, args: string[], nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, probeFile()], {
    env: { ...process.env, PROBE_COMMAND: command, PROBE_ARGS: JSON.stringify(args) },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { ...r, report: JSON.parse(r.stdout) as { outcome: string; childProcess: boolean; net: boolean } };
}

async function waitForFile(file: string, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (existsSync(file) && readFileSync(file, 'utf8') !== '') return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

const ownSession = () => readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[3];

describe.runIf(process.platform === 'linux')('spawnDetached', () => {
  it('starts a process in its own session with the given env and /dev/null for stdio, without child_process, and does not wait for it', async () => {
    const out = join(tempDir(), 'child.json');
    const r = runProbe(process.execPath, ['-e', CHILD, out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({ outcome: 'started', childProcess: false, net: false });
    expect(existsSync(out)).toBe(false); // the probe has exited; the child is still waiting
    expect(await waitForFile(out)).toBe(true);
    const child = JSON.parse(readFileSync(out, 'utf8')) as { mark: string; session: string; stdin: string; home: string | null };
    expect(child.mark).toBe('from-parent');
    expect(child.home).toBeNull(); // only the env it was given
    expect(child.stdin).toBe('/dev/null');
    expect(child.session).not.toBe(ownSession());
  });

  it('uses child_process under --pending-deprecation, with no warning', async () => {
    const out = join(tempDir(), 'child.json');
    const r = runProbe(process.execPath, ['-e', CHILD, out], ['--pending-deprecation']);
    expect(r.stderr).toBe('');
    expect(r.report).toMatchObject({ outcome: 'started', childProcess: true });
    expect(await waitForFile(out)).toBe(true);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { mark: string }).mark).toBe('from-parent');
  });

  it('rejects when the command cannot be started (by either way)', () => {
    const r = runProbe(join(tempDir(), 'no-such-program'), []);
    expect(r.status).toBe(0);
    expect(r.report.outcome).toBe('failed: ENOENT');
  });
});

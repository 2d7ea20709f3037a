import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFile, TEMP_LEFTOVER_MS } from '../../lib/archive/archive-store.ts';
import { ingestFiles, reindexCommand, transcriptBytes } from '../../lib/cli/archive-commands.ts';
import type { CliEnv } from '../../lib/cli/cli-runtime.ts';
import { readManifest } from '../../lib/index/manifest.ts';
import { openStore } from '../../lib/runtime/store.ts';
import { captureLogger } from './helpers/logger.ts';
import { fixturePath } from './helpers/manifest.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-cli-ingest-');
const SID = '8122657c-fe54-4dc9-89a3-20049e8a84f7'; // the crud.jsonl fixture's session

function setup() {
  const home = tempDir();
  const data = join(home, 'data');
  const project = join(home, 'project');
  mkdirSync(project);
  const transcript = join(home, 'crud.jsonl');
  copyFileSync(fixturePath('tomjnsn__agentlogs/crud.jsonl'), transcript);
  const log = captureLogger();
  const cli: CliEnv = {
    env: { CTXL_HOME: data, HOME: home },
    store: openStore(data, log),
    log,
    now: new Date(),
    out: () => undefined,
    err: () => undefined,
    isTTY: false,
  };
  return { data, project, transcript, cli, log };
}

describe('ctxl ingest (ingestFiles)', () => {
  it('archives a transcript and reports nothing busy', async () => {
    const t = setup();
    const { summary, busy } = await ingestFiles(t.cli, [t.transcript], { cwd: t.project });
    expect(busy).toEqual([]);
    expect(summary.chunksAdded).toBeGreaterThan(0);
    expect(summary.chunksTotal).toBe(summary.chunksAdded);
  });

  it('several transcripts: the index is brought up to date once, at the end, with every chunk of every session', async () => {
    const t = setup();
    const files = [
      t.transcript,
      fixturePath('d-kimuson__claude-code-viewer/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'),
      fixturePath('d-kimuson__claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'),
    ];
    const { summary } = await ingestFiles(t.cli, files, { cwd: t.project });
    expect(summary.sessions).toBe(3);
    const m = readManifest(t.cli.store, t.log);
    // One segment file written in all (`next` numbers the next one): no segment per transcript, no merges.
    expect(m?.segments).toEqual([{ name: expect.any(String), docs: summary.chunksTotal }]);
    expect(m?.next).toBe(2);
    for (const id of readdirSync(join(t.data, 'sessions'))) expect(m?.catalogs[id]).toBe(statSync(catalogFile(t.cli.store, id)).size);
  });

  // Regression: a session whose cursor lock stayed held (a live hook) was reported as ingested,
  // 0 chunks, exit 0, and only a log line said otherwise.
  it('reports a transcript whose session stays locked by a live process as busy, archiving none of it', async () => {
    const t = setup();
    const lockDir = join(t.data, 'sessions', SID, 'cursor.json.lock');
    mkdirSync(lockDir, { recursive: true });
    writeFileSync(join(lockDir, 'owner'), JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), nonce: 'held' }));
    const { summary, busy } = await ingestFiles(t.cli, [t.transcript], { cwd: t.project, lockWaitMs: 150 });
    expect(busy).toEqual([t.transcript]);
    expect(summary).toEqual({ sessions: 0, chunksAdded: 0, chunksTotal: 0 });
    expect(readdirSync(join(t.data, 'sessions', SID))).not.toContain('archived');
    expect(t.log.lines.some((l) => l.level === 'warn' && /lock busy/.test(l.message))).toBe(true);
    // Released, the same ingest archives all of it.
    rmSync(lockDir, { recursive: true });
    const again = await ingestFiles(t.cli, [t.transcript], { cwd: t.project, lockWaitMs: 150 });
    expect(again.busy).toEqual([]);
    expect(again.summary.chunksAdded).toBeGreaterThan(0);
  });
});

describe('transcriptBytes (whether ingest hands chunk files to its writer thread: 2 MB and over)', () => {
  it("counts a transcript's own bytes and its subagents' transcripts", () => {
    const dir = tempDir();
    const main = join(dir, 'abc.jsonl');
    writeFileSync(main, '');
    truncateSync(main, 1024 * 1024);
    expect(transcriptBytes(main)).toBe(1024 * 1024);
    mkdirSync(join(dir, 'abc', 'subagents'), { recursive: true });
    const agent = join(dir, 'abc', 'subagents', 'agent-1.jsonl');
    writeFileSync(agent, '');
    truncateSync(agent, 1536 * 1024);
    expect(transcriptBytes(main)).toBe(2560 * 1024);
    expect(transcriptBytes(join(dir, 'missing.jsonl'))).toBe(0);
  });
});

describe('ctxl reindex', () => {
  it('removes the temporary files killed writers left in chunk folders, not recent ones a live writer may own', async () => {
    const t = setup();
    await ingestFiles(t.cli, [t.transcript], { cwd: t.project });
    const dir = join(t.data, 'sessions', SID, 'archived');
    const before = readdirSync(dir).sort();
    const old = join(dir, '0123456789abcdef.md.4242.7.lx1.tmp');
    const recent = join(dir, 'fedcba9876543210.md.4243.w3.tmp');
    writeFileSync(old, 'half a chunk');
    writeFileSync(recent, 'being written');
    const then = new Date(Date.now() - TEMP_LEFTOVER_MS - 60_000);
    utimesSync(old, then, then);
    const counts = await reindexCommand(t.cli, { cwd: t.project, all: true });
    expect(counts.chunks).toBe(before.length);
    expect(readdirSync(dir).sort()).toEqual([...before, 'fedcba9876543210.md.4243.w3.tmp'].sort());
    expect(t.log.lines.some((l) => /removed 1 temporary file/.test(l.message))).toBe(true);
  });
});

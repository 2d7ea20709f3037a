import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFile, TEMP_LEFTOVER_MS } from '../../lib/archive/archive-store.ts';
import { ingestFiles, transcriptBytes } from '../../lib/cli/archive-commands.ts';
import type { CliEnv } from '../../lib/cli/cli-runtime.ts';
import { reindexCommand } from '../../lib/cli/reindex-command.ts';
import { status } from '../../lib/cli/status.ts';
import { readManifest } from '../../lib/index/manifest.ts';
import { openStore } from '../../lib/runtime/store.ts';
import { readSession, touchSession } from '../../lib/session/session-files.ts';
import { queueOversizeLine } from '../../lib/session/tool-archive.ts';
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

  it('a line too long for a pass that is a call (a Write of a big file) answers none: an open call is still given up on at the next prompt', async () => {
    const t = setup();
    const sid = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e60';
    const base = { sessionId: sid, cwd: t.project, version: '2.1.332', isSidechain: false, timestamp: '2026-11-01T09:00:00.000Z' };
    const call = (uuid: string, id: string, name: string, input: Record<string, unknown>) => ({
      ...base,
      type: 'assistant',
      uuid,
      message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    });
    const entries = [
      { ...base, type: 'user', uuid: 'u-1', message: { role: 'user', content: 'migrate and write the dump' } },
      call('a-1', 'toolu_A', 'Bash', { command: 'npm run zebramigrate', password: 'Tr0ub4dor&3xyzzyPlugh' }),
      call('a-2', 'toolu_W', 'Write', { file_path: '/tmp/dump.sql', content: 'x'.repeat(17 * 2 ** 20) }),
      // Killed before either returned; resumed.
      { ...base, type: 'user', uuid: 'u-2', message: { role: 'user', content: 'the session crashed, continue' } },
    ];
    const file = join(t.project, '..', `${sid}.jsonl`);
    writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    await ingestFiles(t.cli, [file], { cwd: t.project });
    const dir = join(t.data, 'sessions', sid, 'archived');
    const chunks = readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'));
    const lost = chunks.find((c) => c.includes('npm run zebramigrate'));
    expect(lost).toContain('[no result: the conversation went on before this call returned]');
    // Its password field never reached L2 or the cursor in clear.
    expect(lost).not.toContain('Tr0ub4dor');
    expect(readFileSync(join(t.data, 'sessions', sid, 'cursor.json'), 'utf8')).not.toContain('Tr0ub4dor');
  });

  it("dates an ingested session by its transcript's entries, not by the ingest or the file, so the project's live session stays the latest", async () => {
    const t = setup();
    // A session the hooks saw an hour ago, in the same project.
    const live = 'b0b0b0b0-0000-4000-8000-000000000001';
    const hour = new Date(t.cli.now.getTime() - 3_600_000);
    const hooks = { store: t.cli.store, log: t.log, now: () => hour, project: { root: t.project } };
    await touchSession(hooks, { sessionId: live, cwd: t.project, started: true });
    // crud.jsonl runs 2025-10-12 21:35:53 to 21:36:39; its file's time says nothing (a copy, a checkout).
    const old = new Date('2019-01-01T00:00:00.000Z');
    utimesSync(t.transcript, old, old);
    await ingestFiles(t.cli, [t.transcript], { cwd: t.project });
    const record = readSession(t.cli.store, SID, t.log, t.cli.now);
    expect([record?.startedAt, record?.lastSeenAt]).toEqual(['2025-10-12T21:35:53.825Z', '2025-10-12T21:36:39.886Z']);
    expect(status({ env: t.cli.env, cwd: t.project, sessionId: undefined, now: t.cli.now }).sessionId).toBe(live);
    // A line written later widens the span; ingesting a session the hooks saw since leaves their time.
    const lines = readFileSync(t.transcript, 'utf8').trimEnd().split('\n');
    const lastLine = JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
    writeFileSync(t.transcript, `${[...lines, JSON.stringify({ ...lastLine, uuid: 'later-1', timestamp: '2025-10-13T08:00:00.000Z' })].join('\n')}\n`);
    await ingestFiles(t.cli, [t.transcript], { cwd: t.project });
    expect(readSession(t.cli.store, SID, t.log, t.cli.now)?.lastSeenAt).toBe('2025-10-13T08:00:00.000Z');
    await touchSession(hooks, { sessionId: SID, cwd: t.project, prompt: true });
    await ingestFiles(t.cli, [t.transcript], { cwd: t.project });
    expect(readSession(t.cli.store, SID, t.log, t.cli.now)).toMatchObject({ startedAt: '2025-10-12T21:35:53.825Z', lastSeenAt: hour.toISOString() });
  });

  it('--ledgers: the ledger chunks it writes count as added (into an empty store, added equals total)', async () => {
    const t = setup();
    const { summary } = await ingestFiles(t.cli, [t.transcript], { cwd: t.project, ledgers: true });
    const dir = join(t.data, 'sessions', SID, 'archived');
    const ledgers = readdirSync(dir).filter((name) => readFileSync(join(dir, name), 'utf8').includes('\ntype: "ledger"\n'));
    expect(ledgers.length).toBeGreaterThan(0);
    expect(summary.chunksTotal).toBe(readdirSync(dir).length);
    expect(summary.chunksAdded).toBe(summary.chunksTotal);
    const again = await ingestFiles(t.cli, [t.transcript], { cwd: t.project, ledgers: true });
    expect(again.summary).toEqual({ ...summary, chunksAdded: 0 });
  });

  it('a line too long for a pass (a result carried twice, 18 MB) is archived by its job, with its call', async () => {
    const t = setup();
    const sid = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
    const base = { sessionId: sid, cwd: t.project, version: '2.1.332', isSidechain: false, userType: 'external' };
    const logLines: string[] = [];
    for (let i = 0; logLines.length * 60 < 9 * 2 ** 20; i++) logLines.push(`2026-11-01T09:00:00Z worker-${i % 7} processed batch ${i} in ${i % 97} ms`);
    logLines.push('FATAL zebrafinchquartz: the last batch never finished');
    const big = logLines.join('\n');
    const entries = [
      { ...base, type: 'user', uuid: 'u-1', parentUuid: null, timestamp: at(0), message: { role: 'user', content: 'Print the whole worker log.' } },
      {
        ...base,
        type: 'assistant',
        uuid: 'a-1',
        parentUuid: 'u-1',
        timestamp: at(1),
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 'toolu_big_line', name: 'Bash', input: { command: 'cat worker.log' } }],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: 'r-1',
        parentUuid: 'a-1',
        timestamp: at(2),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big_line', content: big }] },
        toolUseResult: { stdout: big, stderr: '', interrupted: false, isImage: false },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a-2',
        parentUuid: 'r-1',
        timestamp: at(3),
        message: { id: 'msg_2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'The log ends in a fatal error.' }] },
      },
      // The next prompt, read in the same pass: the call whose result went to a job is not given up on.
      { ...base, type: 'user', uuid: 'u-2', parentUuid: 'a-2', timestamp: at(4), message: { role: 'user', content: 'thanks, now fix it' } },
    ];
    const file = join(t.project, '..', `${sid}.jsonl`);
    writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    expect(statSync(file).size).toBeGreaterThan(16 * 2 ** 20);

    const { summary } = await ingestFiles(t.cli, [file], { cwd: t.project });
    expect(t.log.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringMatching(/the 1[78]\.\d MB line at byte \d+ is too long to read in a pass; queued for archiving$/),
    ]);
    expect(existsSync(join(t.data, 'jobs')) ? readdirSync(join(t.data, 'jobs')) : []).toEqual([]);
    const dir = join(t.data, 'sessions', sid, 'archived');
    const chunks = readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'));
    const tool = chunks.filter((c) => c.includes('tool: "Bash"'));
    expect(tool.length).toBeGreaterThan(1); // split in parts
    const last = tool.find((c) => c.includes('zebrafinchquartz'));
    expect(last).toBeDefined();
    expect(last).toMatch(/sourceUuids: \["a-1","r-1"\]/);
    expect(chunks.some((c) => c.includes('The log ends in a fatal error.'))).toBe(true);
    expect(chunks.filter((c) => c.includes('[no result'))).toEqual([]);
    expect(summary.chunksTotal).toBe(chunks.length);
    // Again: nothing new, and no job queued a second time.
    const again = await ingestFiles(t.cli, [file], { cwd: t.project });
    expect(again.summary.chunksAdded).toBe(0);
    expect(existsSync(join(t.data, 'jobs')) ? readdirSync(join(t.data, 'jobs')) : []).toEqual([]);
  }, 60_000);

  it('a call on a line too long for a pass (a Write of a 17 MB file): its result, on the next line, is archived with it', async () => {
    const t = setup();
    const sid = '5e2f3a4b-6c7d-4e8f-9a0b-1c2d3e4f5a6b';
    const base = { sessionId: sid, cwd: t.project, version: '2.1.332', isSidechain: false, userType: 'external', timestamp: '2026-11-01T09:00:00.000Z' };
    const target = join(t.project, 'fixtures', 'big.json');
    const content = `[${Array.from({ length: 520_000 }, (_, i) => `{"id":${i},"name":"row ${i}"}`).join(',')}]`;
    expect(content.length).toBeGreaterThan(16 * 2 ** 20);
    const entries = [
      { ...base, type: 'user', uuid: 'u-1', parentUuid: null, message: { role: 'user', content: 'Write the fixture file.' } },
      {
        ...base,
        type: 'assistant',
        uuid: 'a-1',
        parentUuid: 'u-1',
        message: {
          id: 'm1',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 'toolu_write_big', name: 'Write', input: { file_path: target, content } }],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: 'r-1',
        parentUuid: 'a-1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_write_big', content: `File created successfully at: ${target}` }] },
      },
    ];
    const file = join(t.project, '..', `${sid}.jsonl`);
    writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    await ingestFiles(t.cli, [file], { cwd: t.project });
    const dir = join(t.data, 'sessions', sid, 'archived');
    const tool = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .filter((c) => c.includes('type: "tool"'));
    expect(tool).toHaveLength(1);
    expect(tool[0]).toMatch(/tool: "Write"/);
    expect(tool[0]).toContain(JSON.stringify(target));
    expect(tool[0]).toMatch(/sourceUuids: \["a-1","r-1"\]/);
    expect(tool[0]).toContain('File created successfully');
  }, 60_000);

  it("long lines at the same offset of a transcript and of its subagent's get jobs of their own", () => {
    const t = setup();
    const env = { store: t.cli.store, log: t.log, now: () => t.cli.now, project: { root: t.project } };
    const line = { start: 0, end: 17 * 2 ** 20, pending: {} };
    queueOversizeLine(env, SID, { transcript: join(t.project, 'main.jsonl'), ...line }, undefined);
    queueOversizeLine(env, SID, { transcript: join(t.project, SID, 'subagents', 'agent-a1.jsonl'), ...line }, undefined);
    queueOversizeLine(env, SID, { transcript: join(t.project, 'main.jsonl'), ...line }, undefined); // the same line again: no second job
    expect(readdirSync(join(t.data, 'jobs'))).toHaveLength(2);
  });

  it('a transcript that opens with a prompt longer than the identity scan (5 MB pasted) is still a transcript', async () => {
    const t = setup();
    const sid = '4d2e3f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a';
    const base = { sessionId: sid, cwd: t.project, version: '2.1.332', isSidechain: false, userType: 'external', timestamp: '2026-11-01T09:00:00.000Z' };
    const pasted = `here is the log:\n${'2026-11-01 09:00:00 INFO worker idle\n'.repeat(150_000)}what is wrong?`;
    expect(pasted.length).toBeGreaterThan(5_000_000);
    const file = join(t.project, '..', `${sid}.jsonl`);
    writeFileSync(
      file,
      `${[
        { ...base, type: 'user', uuid: 'u-1', parentUuid: null, message: { role: 'user', content: pasted } },
        {
          ...base,
          type: 'assistant',
          uuid: 'a-1',
          parentUuid: 'u-1',
          message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'The worker never wakes.' }] },
        },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n')}\n`,
    );
    const { summary } = await ingestFiles(t.cli, [file], { cwd: t.project });
    expect(summary.sessions).toBe(1);
    expect(summary.chunksAdded).toBeGreaterThan(1);
    expect(readdirSync(join(t.data, 'sessions'))).toEqual([sid]);
  }, 30_000);

  it("a first line over 1 MB named by the file: the session is the id the next lines give, not the file's name", async () => {
    const t = setup();
    const sid = 's-big-first';
    const base = { sessionId: sid, cwd: t.project, version: '2.1.332', isSidechain: false, userType: 'external', timestamp: '2026-11-01T09:00:00.000Z' };
    // The long line names no session (as a line of another kind may not), the next one does.
    const first = {
      type: 'user',
      uuid: 'u-1',
      parentUuid: null,
      cwd: t.project,
      timestamp: base.timestamp,
      message: { role: 'user', content: `paste ${'abcdefgh '.repeat(600_000)}` },
    };
    const next = { ...base, type: 'user', uuid: 'u-2', parentUuid: 'u-1', message: { role: 'user', content: 'and the second prompt' } };
    const file = join(t.project, '..', 'named-by-file.jsonl');
    writeFileSync(file, `${JSON.stringify(first)}\n${JSON.stringify(next)}\n`);
    expect(statSync(file).size).toBeGreaterThan(5_000_000);
    await ingestFiles(t.cli, [file], { cwd: t.project });
    expect(readdirSync(join(t.data, 'sessions'))).toEqual([sid]);
  }, 30_000);

  it('a transcript of long lines only (each over 1 MB) is the session its lines name, read from their start', async () => {
    const t = setup();
    const sid = 's-long-lines';
    const line = (uuid: string) =>
      JSON.stringify({
        type: 'user',
        sessionId: sid,
        cwd: t.project,
        uuid,
        timestamp: '2026-11-01T09:00:00.000Z',
        message: { role: 'user', content: `log ${'word '.repeat(300_000)}` },
      });
    const one = join(t.project, '..', 'one-line.jsonl');
    writeFileSync(one, `${line('u-1')}\n`);
    const two = join(t.project, '..', 'renamed-copy.jsonl');
    writeFileSync(two, `${line('u-2')}\n${line('u-3')}\n`);
    expect((await ingestFiles(t.cli, [one], { cwd: t.project })).summary.sessions).toBe(1);
    await ingestFiles(t.cli, [two], { cwd: t.project });
    expect(readdirSync(join(t.data, 'sessions'))).toEqual([sid]);
  }, 30_000);

  it('messages where no line names a session are the session of the file name (a file of no message is no transcript)', async () => {
    const t = setup();
    const line = (uuid: string, text: string) =>
      JSON.stringify({ type: 'user', uuid, parentUuid: null, cwd: t.project, timestamp: '2026-11-01T09:00:00.000Z', message: { role: 'user', content: text } });
    const file = join(t.project, '..', 'no-ids.jsonl');
    writeFileSync(file, `${line('u-1', 'first prompt')}\n${line('u-2', 'second prompt')}\n`);
    const { summary } = await ingestFiles(t.cli, [file], { cwd: t.project });
    expect(summary).toMatchObject({ sessions: 1, chunksAdded: 2 });
    expect(readdirSync(join(t.data, 'sessions'))).toEqual(['no-ids']);
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

// The four-zone budget through the compiled hooks, run as processes the way Claude Code runs them:
// PostToolUse replaces large Bash/Read/Grep outputs with stubs in the tool's own shape once the
// Working zone passes L0→L1 (the full text in L2 first); Stop advises once per level crossing (with
// hysteresis, reset by a compaction) and at L2→L3 writes the ledger and promotes decisions; PreCompact
// prints its steering text; SessionStart(compact) injects the brief within the Ledger zone.
// Fills are set through the usage of the transcript's assistant lines (see helpers/budget.ts).

import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolPartId } from '../../lib/archive/chunker.ts';
import { chunkHash, sampleHash } from '../../lib/archive/hash.ts';
import { thisProcess } from '../../lib/runtime/lock.ts';
import { openStore } from '../../lib/runtime/store.ts';
import { archiveSpooled, archiveToolCall, claimJobs, INLINE_TEXT_CHARS, jobFile, type ReadJob } from '../../lib/session/tool-archive.ts';
import { type BudgetSession, budgetSession, jsonOut, numberedLines, SYSTEM_TOKENS, textOfSize, tokensAt, WINDOW } from './helpers/budget.ts';
import { captureLogger } from './helpers/logger.ts';
import { distDir } from './helpers/paths.ts';
import { readLog, runCli, runCliAsync, runHookAsync, runHookSync } from './helpers/proc.ts';
import { useTempDirs } from './helpers/tmp.ts';

type Obj = Record<string, unknown>;
const tempDir = useTempDirs('ctxl-budget-');
const session = (options: Parameters<typeof budgetSession>[1] = {}) => budgetSession(tempDir, options);

const bash = (stdout: string, more: Obj = {}) => ({ stdout, stderr: '', interrupted: false, isImage: false, ...more });
const REF = /`\/recall show ([0-9a-f]{16})`/;
const refOf = (text: string) => REF.exec(text)?.[1];
const noProblems = (t: BudgetSession) => expect(readLog(t.data).filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);

/** A TypeScript file of `n` lines with a declaration every 10 lines (an outline to find). */
function sourceFile(n: number): string {
  return Array.from({ length: n }, (_, i) =>
    i % 10 === 0 ? `export function handler${i + 1}(request: Request): Response {` : `  const value${i + 1} = compute(request, ${i + 1}); // keep going`,
  ).join('\n');
}

const VITEST_FAIL = [
  ' FAIL  test/client.test.ts > http client > retries a request after a timeout',
  'AssertionError: expected 1 to be 3',
  '',
  ' Test Files  1 failed | 3 passed (4)',
  '      Tests  1 failed | 23 passed (24)',
  '   Duration  1.21s',
].join('\n');
const FAILING_TEST = 'http client > retries a request after a timeout';

describe('PostToolUse: stubs from L0→L1 on', () => {
  it('below 60% prints nothing, but logs the call (and archives a large output)', () => {
    const t = session();
    t.prompt('Show me the build log.');
    t.fill(40);
    const output = textOfSize(20_000);
    const { id, r, out } = t.post('Bash', { command: 'cat build.log' }, bash(output));
    expect(r.stdout).toBe('');
    expect(out).toBeUndefined();
    expect(t.events().find((e) => e.id === id)).toMatchObject({ tool: 'Bash', outBytes: Buffer.byteLength(output) });
    expect(t.toolParts(id).length).toBeGreaterThan(0); // over archiveToolOutputBytes: in L2 at once
    noProblems(t);
  });

  it("a large output's call is redacted field by field before its head is cut: a key the cut would split, a field named password", () => {
    const t = session();
    t.prompt('Search the docs.');
    t.fill(40);
    const key = `sk-ant-api03-${'Qx7vLp2mZr9tWk4s'.repeat(4)}`;
    // The key starts 14 characters before the head's cut: cut first, its rest was too short for the rule.
    const query = `${'a'.repeat(1_972)} ${key} more words`;
    const { id } = t.post('mcp__docs__search', { query }, [{ type: 'text', text: textOfSize(20_000) }]);
    const parts = t.toolParts(id);
    expect(parts.length).toBeGreaterThan(0);
    for (const part of parts) {
      expect(part.text).toContain(`${'a'.repeat(1_972)} [REDACTED`);
      expect(part.text).not.toContain('sk-ant-api03-Qx7');
      expect(part.keywords.join(' ')).not.toContain('qx7v');
    }
    // A value its field's name calls a secret, cut by the head: the rules alone took it for a word.
    const named = t.post('mcp__db__connect', { query: 'a'.repeat(1_963), password: 'Tr0ub4dor&3xyzzyPlugh' }, [{ type: 'text', text: textOfSize(20_000) }]);
    const namedParts = t.toolParts(named.id);
    expect(namedParts.length).toBeGreaterThan(0);
    for (const part of namedParts) expect(part.text).not.toContain('Tr0ub4dor');
  });

  it('at 65% a 20 KB Bash output becomes a Bash-shaped stub whose ref leads to the full output', () => {
    const t = session();
    t.prompt('Show me the build log.');
    t.fill(65);
    const output = textOfSize(20_000);
    const { id, r, out, stub } = t.post('Bash', { command: 'cat build.log' }, bash(output));
    expect(Object.keys(out ?? {})).toEqual(['hookSpecificOutput']);
    expect(out?.hookSpecificOutput).toMatchObject({ hookEventName: 'PostToolUse' });
    expect(Object.keys(stub ?? {}).sort()).toEqual(['interrupted', 'isImage', 'stderr', 'stdout']);
    expect(stub).toMatchObject({ stderr: '', interrupted: false, isImage: false });
    const text = stub?.stdout as string;
    expect(text.length).toBeLessThan(output.length / 2);
    expect(text).toContain('working zone 65% full');
    expect(text).toContain('$ cat build.log');
    expect(text).toContain(output.split('\n')[0]); // the head
    expect(text).toContain(output.split('\n').at(-1)); // the tail
    expect(r.stdout.endsWith('}')).toBe(true);

    // The ref names the first archived part; the parts, in order, hold the whole output.
    const ref = refOf(text);
    expect(ref).toBeDefined();
    expect(existsSync(join(t.sessionDir, 'archived', `${ref}.md`))).toBe(true);
    const parts = t.toolParts(id);
    expect(parts[0]?.id).toBe(ref);
    expect(parts.map((p) => p.part?.[0] ?? 1)).toEqual(parts.map((_, i) => i + 1));
    expect(text).toContain(`part 1 of ${parts.length}`);
    const body = (chunk: { text: string }) => chunk.text.slice(chunk.text.indexOf('\n\n') + 2);
    expect(parts.map(body).join('\n')).toBe(output);

    // `ctxl show <ref>` prints the first part and names the next.
    const shown = runCli(['show', ref as string], t.env, t.project);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(`part 1 of ${parts.length}`);
    if (parts.length > 1) expect(shown.stdout).toContain(`ctxl show ${parts[1]?.id}`);
    noProblems(t);
  });

  // With 250-character lines the stub (head and tail lines) is over 6,000 characters: its first piece
  // is longer than the output's first part, which holds the same id.
  it.each([
    ['60-character lines', textOfSize(20_000), 0],
    ['250-character lines (a stub longer than the first part)', numberedLines(80, 250, 'wide'), 6_000],
  ])('the stub in the transcript never replaces the full output in L2 when Stop archives the turn: %s', (_name, output, stubOver) => {
    const t = session();
    t.prompt('Show me the build log.');
    t.fill(65);
    const { id, stub } = t.post('Bash', { command: 'cat build.log' }, bash(output)); // the result line holds the stub
    expect(String(stub?.stdout ?? '').length).toBeGreaterThan(stubOver);
    t.say('The build log shows nothing unusual.');
    t.stop();
    const parts = t.toolParts(id);
    expect(parts.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('\n')).toBe(output);
    expect(parts.some((p) => p.text.includes('output shortened in context'))).toBe(false);
    noProblems(t);
  });

  it.each([
    ['a 40 KB output in parts', 65, 40_000, 3],
    ['a 4.4 KB output in one part (stubbed from L1→L2)', 80, 4_400, 1],
  ])('ctxl reindex does not put the stub in place of a damaged part of the full output: it is left as it was, counted (%s)', (_name, fill, size, parts0) => {
    const t = session();
    t.prompt('Show me the build log.');
    t.fill(fill);
    const output = textOfSize(size);
    const { id, stub } = t.post('Bash', { command: 'cat build.log' }, bash(output));
    expect(stub).toBeDefined();
    t.say('The build log shows nothing unusual.');
    t.stop();
    const parts = t.toolParts(id);
    expect(parts.length).toBeGreaterThanOrEqual(parts0);
    const dir = join(t.sessionDir, 'archived');
    const first = join(dir, `${parts[0]?.id}.md`);
    const damaged = readFileSync(first, 'utf8').slice(0, 50);
    writeFileSync(first, damaged);
    const r = runCli(['reindex', '--all', '--json'], t.env, t.project);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ damaged: 1, restored: 0 });
    expect(readFileSync(first, 'utf8')).toBe(damaged);
    expect(readdirSync(dir).filter((n) => !n.endsWith('.md'))).toEqual([]);
  });

  it('a Grep output the client would persist itself (over 20,000 characters) is not stubbed', () => {
    const t = session();
    t.prompt('Find the handlers.');
    t.fill(80);
    const content = numberedLines(400, 60, 'src/api.ts:1:match');
    const { out } = t.post('Grep', { pattern: 'match', output_mode: 'content' }, { mode: 'content', numFiles: 1, filenames: [], content, numLines: 400 });
    expect(out).toBeUndefined();
    noProblems(t);
  });

  it('a 5 KB output is left alone at 65% (under 8 KB) and stubbed at 80% (over 3 KB)', () => {
    const t = session();
    t.prompt('Run the linter.');
    const output = textOfSize(5_000);
    t.fill(65);
    expect(t.post('Bash', { command: 'npx eslint src' }, bash(output)).out).toBeUndefined();
    t.fill(80);
    const { stub, id } = t.post('Bash', { command: 'npx eslint src' }, bash(output));
    expect(stub?.stdout).toContain('working zone 80% full');
    const ref = refOf(stub?.stdout as string);
    expect(t.toolParts(id)[0]?.id).toBe(ref);
    expect(t.toolParts(id)[0]?.text).toContain(output);
  });

  it('an 8 KB output is stubbed at 65%, and one just under 3 KB not even at 80%', () => {
    const t = session();
    t.prompt('Run the linter.');
    t.fill(65);
    expect(t.post('Bash', { command: 'npx eslint .' }, bash(textOfSize(8_300))).stub).toBeDefined();
    t.fill(80);
    const small = 'x'.repeat(3_000);
    expect(t.post('Bash', { command: 'npx eslint lib' }, bash(small)).out).toBeUndefined();
  });

  it('Edit and Write are never stubbed, however large', () => {
    const t = session();
    t.prompt('Start implementing the client.');
    t.fill(85);
    const big = sourceFile(600);
    const file = join(t.project, 'src/client.ts');
    expect(t.post('Write', { file_path: file, content: big }, { type: 'create', filePath: file, content: big, structuredPatch: [] }).out).toBeUndefined();
    const edit = { file_path: file, old_string: 'value2 = compute', new_string: 'value2 = computeFast' };
    const response = {
      filePath: file,
      oldString: edit.old_string,
      newString: edit.new_string,
      originalFile: big,
      structuredPatch: [],
      userModified: false,
      replaceAll: false,
    };
    expect(t.post('Edit', edit, response).out).toBeUndefined();
    expect(t.post('MultiEdit', { file_path: file, edits: [edit] }, { ...response, edits: [edit] }).out).toBeUndefined();
  });

  it("a large Read becomes a stub in Read's shape, with the head and an outline by line number", () => {
    const t = session();
    t.prompt('Read the router.');
    t.fill(70);
    const file = join(t.project, 'src/router.ts');
    const content = sourceFile(400);
    const response = { type: 'text', file: { filePath: file, content, numLines: 400, startLine: 1, totalLines: 400 } };
    const { stub, id } = t.post('Read', { file_path: file }, response);
    expect(Object.keys(stub ?? {}).sort()).toEqual(['file', 'type']);
    expect(stub?.type).toBe('text');
    const f = stub?.file as Obj;
    expect(Object.keys(f).sort()).toEqual(['content', 'filePath', 'numLines', 'startLine', 'totalLines']);
    expect(f).toMatchObject({ filePath: file, startLine: 1, totalLines: 400 });
    const text = f.content as string;
    expect(f.numLines).toBe(text.split('\n').length);
    expect(text.length).toBeLessThan(content.length / 2);
    expect(text.startsWith(content.split('\n').slice(0, 20).join('\n'))).toBe(true);
    expect(text).toContain('391: export function handler391'); // from the outline, with its real line number
    expect(t.toolParts(id)[0]?.id).toBe(refOf(text));
  });

  it('a Read from an offset keeps its real line numbers', () => {
    const t = session();
    t.prompt('Read the router.');
    t.fill(70);
    const file = join(t.project, 'src/router.ts');
    const content = sourceFile(600).split('\n').slice(200, 500).join('\n');
    const response = { type: 'text', file: { filePath: file, content, numLines: 300, startLine: 201, totalLines: 600 } };
    const f = t.post('Read', { file_path: file, offset: 201, limit: 300 }, response).stub?.file as Obj;
    expect(f).toMatchObject({ startLine: 201, totalLines: 600 });
    expect(f.content).toContain('lines 201–220 of 201–500');
    expect(f.content).toContain('491: export function handler491');
  });

  it('Grep in content mode is stubbed (matches per file); a list of files is not', () => {
    const t = session();
    t.prompt('Find the fetch calls.');
    t.fill(70);
    // 200 lines (~14 KB): under the 20,000 characters above which the client persists Grep itself.
    const lines = Array.from({ length: 200 }, (_, i) => `src/module${i % 25}.ts:${i + 1}:  const res = await fetch(url${i}, { method: 'GET' });`);
    const content = lines.join('\n');
    const grep = { pattern: 'fetch\\(', path: 'src', output_mode: 'content', '-n': true };
    const { stub } = t.post('Grep', grep, { mode: 'content', numFiles: 25, filenames: [], content, numLines: 200 });
    expect(Object.keys(stub ?? {}).sort()).toEqual(['content', 'filenames', 'mode', 'numFiles', 'numLines']);
    expect(stub).toMatchObject({ mode: 'content', numFiles: 25, filenames: [] });
    const text = stub?.content as string;
    expect(text.length).toBeLessThan(content.length / 2);
    expect(text).toContain('200 matching lines in 25 files');
    expect(text).toContain('src/module0.ts: 8');
    expect(stub?.numLines).toBe(text.split('\n').length);
    expect(refOf(text)).toBeDefined();

    const filenames = Array.from({ length: 600 }, (_, i) => `src/deeply/nested/folder/module-number-${i}.ts`);
    const list = t.post('Grep', { pattern: 'fetch', output_mode: 'files_with_matches' }, { mode: 'files_with_matches', filenames, numFiles: 600 });
    expect(list.out).toBeUndefined();
  });

  it('an interrupted command and an image are left alone', () => {
    const t = session();
    t.prompt('Tail the server log.');
    t.fill(80);
    expect(t.post('Bash', { command: 'tail -f server.log' }, bash(textOfSize(20_000), { interrupted: true })).out).toBeUndefined();
    expect(t.post('Bash', { command: 'cat shot.png' }, bash(textOfSize(20_000), { isImage: true })).out).toBeUndefined();
  });

  it("a subagent's call is not stubbed (its context is not the session's)", () => {
    const t = session();
    t.prompt('Explore the repository.');
    t.fill(80);
    const r = t.post('Bash', { command: 'git log -200' }, bash(textOfSize(20_000)), { agent_id: 'agent-explore-1', agent_type: 'Explore' });
    expect(r.out).toBeUndefined();
    expect(t.events().find((e) => e.id === r.id)?.agent).toBe('agent-explore-1');
  });

  it('CTXL_STUBS=0 (or "stubs": false in the project file) turns stubs off', () => {
    const t = session({ env: { CTXL_STUBS: '0' } });
    t.prompt('Show me the build log.');
    t.fill(85);
    expect(t.post('Bash', { command: 'cat build.log' }, bash(textOfSize(20_000))).out).toBeUndefined();
    const p = session();
    mkdirSync(join(p.project, '.claude'));
    writeFileSync(join(p.project, '.claude', 'context-lifecycle.json'), JSON.stringify({ stubs: false }));
    p.prompt('Show me the build log.');
    p.fill(85);
    expect(p.post('Bash', { command: 'cat build.log' }, bash(textOfSize(20_000))).out).toBeUndefined();
  });

  it('no stub when L2 cannot hold the output (a file where archived/ should be): exit 0, empty stdout', () => {
    const t = session();
    t.prompt('Show me the build log.');
    t.fill(80);
    mkdirSync(t.sessionDir, { recursive: true });
    writeFileSync(join(t.sessionDir, 'archived'), 'not a folder');
    const { r, id } = t.post('Bash', { command: 'cat build.log' }, bash(textOfSize(20_000)));
    expect(r.stdout).toBe('');
    expect(t.events().some((e) => e.id === id)).toBe(true); // the call is still logged
    expect(readLog(t.data).some((l) => l.level === 'error' || l.level === 'warn')).toBe(true);
  });

  it.skipIf(process.getuid?.() === 0)('no stub when archived/ is read-only: exit 0, empty stdout', () => {
    const t = session();
    t.prompt('Show me the build log.');
    t.fill(80);
    mkdirSync(join(t.sessionDir, 'archived'), { recursive: true });
    chmodSync(join(t.sessionDir, 'archived'), 0o500);
    const { r } = t.post('Bash', { command: 'cat build.log' }, bash(textOfSize(20_000)));
    expect(r.stdout).toBe('');
  });

  it('a 1 MB output still gets its stub within the deadline; the background archive then holds all of it, even if Stop came first', async () => {
    const t = session();
    t.prompt('Dump the table.');
    t.fill(70);
    const output = textOfSize(1024 * 1024);
    const { stub, id } = t.post('Bash', { command: 'psql -c "select * from events"' }, bash(output));
    expect(stub?.stdout).toContain('working zone 70% full');
    expect(String(stub?.stdout).length).toBeLessThan(10_000);
    const ref = refOf(String(stub?.stdout));
    const count = Number(/part 1 of (\d+)/.exec(String(stub?.stdout))?.[1]);
    expect(count).toBeGreaterThan(1);
    expect(count).toBeLessThanOrEqual(200);
    // The turn ends at once: Stop archives the transcript's tool result (the stub) under the same
    // ref, racing the detached job that chunks the spooled output. The fuller text must win.
    t.say('That is a lot of rows.');
    t.stop();
    await t.jobsDone();
    const parts = t.toolParts(id);
    expect(parts).toHaveLength(count);
    expect(parts[0]?.id).toBe(ref);
    expect(parts.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('\n')).toBe(output);
    expect(readLog(t.data).filter((l) => String(l.msg).includes('deadline'))).toEqual([]);
    noProblems(t);
  });

  it('parallel tool calls at 70%: each gets its own stub and its own archived ref', async () => {
    const t = session();
    t.prompt('Show me all six logs.');
    t.say('Reading them.');
    t.fill(70);
    const calls = Array.from({ length: 6 }, (_, i) => ({ id: `toolu_par_${i}`, output: textOfSize(12_000, `log${i}`) }));
    t.say('Six calls at once.'); // the transcript's last usage: 70%
    const runs = await Promise.all(
      calls.map((c, i) =>
        runHookAsync(
          'post-tool-use',
          JSON.stringify({
            session_id: t.sid,
            transcript_path: t.transcript,
            cwd: t.project,
            hook_event_name: 'PostToolUse',
            tool_name: 'Bash',
            tool_input: { command: `cat log${i}.txt` },
            tool_response: bash(c.output),
            tool_use_id: c.id,
          }),
          t.env,
          { cwd: t.project },
        ),
      ),
    );
    const refs = runs.map((r, i) => {
      const stub = (jsonOut(r)?.hookSpecificOutput as Obj | undefined)?.updatedToolOutput as Obj | undefined;
      expect(stub?.stdout).toContain(`$ cat log${i}.txt`);
      const ref = refOf(stub?.stdout as string) as string;
      expect(t.toolParts(calls[i]?.id as string)[0]?.id).toBe(ref);
      return ref;
    });
    expect(new Set(refs).size).toBe(6);
    noProblems(t);
  });

  it('the first turn (no transcript yet) and a transcript without any usage: no stub, exit 0', () => {
    const t = session();
    const missing = join(t.home, 'not-written-yet.jsonl');
    const input = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat build.log' }, tool_response: bash(textOfSize(20_000)) };
    t.useTranscript(missing);
    const first = t.run('post-tool-use', { ...input, tool_use_id: 'toolu_first' });
    expect(jsonOut(first)).toBeUndefined();
    expect(first.stdout).toBe('');
    expect(existsSync(missing)).toBe(false);

    const u = session();
    u.prompt('Show me the build log.'); // a user line only: nothing measured yet
    const r = u.run('post-tool-use', { ...input, tool_use_id: 'toolu_nousage' });
    expect(jsonOut(r)).toBeUndefined();
    noProblems(t);
    noProblems(u);
  });

  it('the window follows the model: a 1M-window model makes the same usage a small fill; CLAUDE_CODE_AUTO_COMPACT_WINDOW narrows it', () => {
    const opus = session({ model: 'claude-opus-5-5' });
    opus.prompt('Show me the build log.');
    opus.fill(80); // 121,600 tokens: 80% of a 200K window's Working zone, ~3% of a 1M one's
    expect(opus.post('Bash', { command: 'cat a.log' }, bash(textOfSize(20_000))).out).toBeUndefined();
    const narrowed = session({ model: 'claude-opus-5-5', env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' } });
    narrowed.prompt('Show me the build log.');
    narrowed.fill(80);
    expect(narrowed.post('Bash', { command: 'cat a.log' }, bash(textOfSize(20_000))).stub?.stdout).toContain('working zone 80% full');
  });

  it("a subagent's larger context (sidechain usage) is not the session's", () => {
    const t = session();
    t.prompt('Explore, then show me the log.');
    t.fill(40);
    t.say('Let me ask an Explore agent first.');
    t.sidechain('Exploring the repository.', tokensAt(95));
    expect(t.post('Bash', { command: 'cat a.log' }, bash(textOfSize(20_000))).out).toBeUndefined();
    t.sidechain('Still exploring.', tokensAt(95));
    expect(t.stop().out).toBeUndefined();
    // 40% plus the unstubbed 20 KB result (~5,000 tokens) after the last main-thread usage.
    expect(t.budgetFile()).toMatchObject({ contextTokens: tokensAt(40) + Math.ceil(textOfSize(20_000).length / 4), level: 0 });
  });

  it("when the transcript cannot be read mid-turn, the last Stop's measure stands, its 200K window included (not the 1M default)", () => {
    const t = session();
    t.prompt('Show me the build log.');
    t.say('Sure.');
    t.stop();
    t.fill(80);
    t.say('Reading it now.');
    t.stop(); // budget.json: 80%, level 2, window 200,000
    expect(t.budgetFile()).toMatchObject({ window: WINDOW, level: 2 });
    t.useTranscript(join(t.home, 'moved-away.jsonl')); // gone (moved, or a path the hook cannot read)
    const r = t.run('post-tool-use', {
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cat build.log' },
      tool_response: bash(textOfSize(20_000)),
      tool_use_id: 'toolu_after_stop',
    });
    const stub = (jsonOut(r)?.hookSpecificOutput as Obj | undefined)?.updatedToolOutput as Obj | undefined;
    // With no tail, the window must come from what Stop saved: the client's default (1M) would make
    // 121,600 tokens a ~3% fill, and nothing would be stubbed.
    expect(stub, 'no stub: the saved measure (80% of a 200K window) was read against a 1M window').toBeDefined();
    expect(stub?.stdout).toContain('working zone 80% full');
  });

  it('a stubMinBytes set below stubMinBytesTight is honoured at L0→L1 (a 2.5 KB one-line output at 65%)', () => {
    const t = session({ env: { CTXL_STUB_MIN_BYTES: '2000' } });
    t.prompt('Print the manifest.');
    t.fill(65);
    const minified = JSON.stringify({ entries: Array.from({ length: 60 }, (_, i) => ({ id: i, name: `entry-${i}` })) }).padEnd(2_500, ' ');
    expect(minified.length).toBe(2_500);
    // Outputs under stubMinBytesTight (3,072) must still be candidates when stubMinBytes is lower.
    const { stub } = t.post('Bash', { command: 'cat manifest.json' }, bash(minified));
    expect(stub, 'no stub: outputs under stubMinBytesTight are never candidates, whatever stubMinBytes says').toBeDefined();
    expect(stub?.stdout).toContain('working zone 65% full');
  });

  it('mid-turn, after a Stop measured the System zone, the fill is read from the transcript tail', () => {
    const t = session();
    t.prompt('Show me the build log.');
    t.say('Sure.');
    t.stop(); // budget.json: System 20K measured
    t.fill(50);
    expect(t.post('Bash', { command: 'cat a.log' }, bash(textOfSize(20_000))).out).toBeUndefined();
    t.fill(66);
    expect(t.post('Bash', { command: 'cat b.log' }, bash(textOfSize(20_000))).stub?.stdout).toContain('working zone 66% full');
  });
});

describe('Stop: advice once per level crossing', () => {
  /** One turn that ends with the Working zone `pct` full. */
  const turn = (t: BudgetSession, pct: number, active = false) => {
    t.prompt('Keep going with the client design.');
    t.fill(pct);
    t.say(`Still designing; the working zone is about ${pct}% full.`);
    return t.stop(active);
  };

  it('announces each upward crossing once, with hysteresis, and again after a compaction', () => {
    const t = session();
    t.prompt("Let's design the HTTP client. Never run the migrations against staging.");
    t.say("We'll use undici rather than axios because it is faster."); // at fill 0: the System zone
    expect(t.stop().out).toBeUndefined();
    expect(t.budgetFile()).toMatchObject({ version: 1, window: WINDOW, level: 0, announced: 0, compactions: 0 });
    expect(t.budgetFile().systemTokens as number).toBeGreaterThan(SYSTEM_TOKENS - 100);

    expect(turn(t, 50).out).toBeUndefined();

    const l1 = turn(t, 62);
    expect(Object.keys(l1.out ?? {})).toEqual(['systemMessage']);
    expect(l1.systemMessage).toContain('L0→L1');
    expect(l1.systemMessage).toContain('working zone 62% full');
    expect(l1.systemMessage).toContain(`${tokensAt(62).toLocaleString('en-US')} of 200,000 tokens`);
    expect(t.budgetFile()).toMatchObject({ version: 1, contextTokens: tokensAt(62), level: 1, announced: 1 });

    expect(turn(t, 63).out).toBeUndefined(); // already announced

    const l2 = turn(t, 77);
    expect(l2.systemMessage).toContain('L1→L2');
    expect(l2.systemMessage).toMatch(/\/compact keep decisions D-[0-9a-f]{8}/);
    expect(l2.out?.hookSpecificOutput).toMatchObject({ hookEventName: 'Stop' });
    expect(l2.context).toContain('working zone 77% full');

    expect(turn(t, 74).out).toBeUndefined(); // hovering: within 5 points of 75
    expect(turn(t, 77).out).toBeUndefined();
    expect(turn(t, 68).out).toBeUndefined(); // fell clear of 75 (re-arms L1→L2), still L1
    const again = turn(t, 77);
    expect(again.systemMessage).toContain('L1→L2');
    expect(again.context).toBeDefined();

    // L2→L3: the running phase's ledger now, and its decision promoted to the project's log.
    expect(t.ledgers()).toEqual([]);
    expect(t.decisions()).toEqual([]);
    const l3 = turn(t, 92);
    expect(l3.systemMessage).toContain('L2→L3');
    expect(l3.systemMessage).toContain('the phase ledger is written');
    expect(l3.context).toContain('A compaction is near');
    expect(t.ledgers()).toEqual(['phase-2-design.md']);
    const l3Path = /the phase ledger is written \(([^)]+)\)/.exec(l3.systemMessage ?? '')?.[1] as string;
    expect(l3Path).toBe(`docs/memory/sessions/${t.sid}/phase-2-design.md`);
    expect(existsSync(join(t.project, l3Path))).toBe(true);
    expect(existsSync(join(t.project, 'docs', 'memory', 'decisions', `${t.decisions()[0]?.id}.md`))).toBe(true);
    const ledger = readFileSync(join(t.sessionDir, 'ledgers', 'phase-2-design.md'), 'utf8');
    expect(ledger).toContain('undici');
    expect(ledger).toMatch(/Never run the migrations against staging/);
    const decisions = t.decisions();
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ phase: 'design', chosen: 'undici', rejected: ['axios'] });
    expect(l3.systemMessage).toContain(decisions[0]?.id as string);
    expect(t.budgetFile()).toMatchObject({ version: 1, level: 3, announced: 3 });
    expect(turn(t, 95).out).toBeUndefined();

    // Claude Code compacts: the window empties and the announcements start over.
    t.compact(30_000);
    expect(t.stop().out).toBeUndefined();
    expect(t.budgetFile()).toMatchObject({ version: 1, compactions: 1, announced: 0, level: 0 });
    expect(turn(t, 40).out).toBeUndefined();
    expect(turn(t, 62).systemMessage).toContain('L0→L1');
    // Claude is already continuing for a Stop hook: the user hears it, Claude gets no extra turn.
    const active = turn(t, 80, true);
    expect(active.systemMessage).toContain('L1→L2');
    expect(active.out?.hookSpecificOutput).toBeUndefined();
    expect(t.budgetFile()).toMatchObject({ version: 1, compactions: 1, announced: 2, level: 2 });
    noProblems(t);
  });

  it('hovering around 60% is announced once; falling 5 points under re-arms it', () => {
    const t = session();
    t.prompt("Let's design the cache.");
    t.say('Fine.');
    t.stop();
    expect(turn(t, 61).systemMessage).toContain('L0→L1');
    expect(turn(t, 57).out).toBeUndefined();
    expect(turn(t, 61).out).toBeUndefined();
    expect(turn(t, 59).out).toBeUndefined();
    expect(turn(t, 64).out).toBeUndefined();
    expect(turn(t, 52).out).toBeUndefined(); // under 55: re-armed
    expect(turn(t, 61).systemMessage).toContain('L0→L1');
  });

  it('a compaction between two Stops resets the announcements even when the fill is already high again', () => {
    const t = session();
    t.prompt("Let's design the cache.");
    t.say('Fine.');
    t.stop();
    expect(turn(t, 80).systemMessage).toContain('L1→L2');
    t.compact(30_000);
    const after = turn(t, 80); // compacted and refilled within one turn
    expect(after.systemMessage).toContain('L1→L2');
    expect(t.budgetFile()).toMatchObject({ compactions: 1, announced: 2 });
  });

  it('what hooks inject counts in the Ledger zone, not in the Working zone', () => {
    const t = session();
    t.prompt("Let's design the cache.");
    t.say('Fine.'); // System 20K measured
    t.inject('x'.repeat(40_000)); // 10,000 tokens injected (e.g. a SessionStart brief)
    t.prompt('Go on.');
    t.fill(62, 10_000); // a 62% Working zone, plus the 10K in the Ledger zone
    t.say('Designing.');
    const r = t.stop();
    expect(r.systemMessage).toContain('working zone 62% full');
    expect(t.budgetFile()).toMatchObject({ ledgerTokens: 10_000, contextTokens: tokensAt(62) + 10_000 });
  });

  it('stop_hook_active at a jump to L2→L3: a systemMessage only, the ledger still written', () => {
    const t = session();
    t.prompt("Let's design the cache. Never commit to main.");
    t.say("I'll use an LRU map instead of Redis because the client runs in the browser.");
    t.stop();
    const r = turn(t, 93, true);
    expect(Object.keys(r.out ?? {})).toEqual(['systemMessage']);
    expect(r.systemMessage).toContain('L2→L3');
    expect(t.ledgers()).toEqual(['phase-2-design.md']);
    expect(t.decisions().map((d) => d.chosen)).toEqual(['an LRU map']);
  });

  it('CTXL_ADVICE=0: Stop says nothing, yet the state advances and L2→L3 still writes the ledger', () => {
    const t = session({ env: { CTXL_ADVICE: '0' } });
    t.prompt("Let's design the cache. Never commit to main.");
    t.say("I'll use an LRU map instead of Redis because the client runs in the browser.");
    t.stop();
    expect(turn(t, 77).out).toBeUndefined();
    expect(t.budgetFile()).toMatchObject({ level: 2, announced: 2 });
    expect(turn(t, 91).out).toBeUndefined();
    expect(t.ledgers()).toEqual(['phase-2-design.md']);
  });

  it('a damaged or unknown-version budget.json is measured afresh', () => {
    for (const bad of ['{"version": 1, "t":', '{"version": 2, "announced": 3}']) {
      const t = session();
      t.prompt("Let's design the cache.");
      t.say('Fine.');
      t.stop();
      writeFileSync(join(t.sessionDir, 'budget.json'), bad);
      expect(turn(t, 62).systemMessage).toContain('L0→L1');
      expect(t.budgetFile()).toMatchObject({ version: 1, announced: 1 });
    }
  });
});

/** planning → design → implementation → testing, with a constraint, a decision, a value edit and a failing test. */
function walk(t: BudgetSession, extra = false): void {
  t.prompt("Let's plan the HTTP client rewrite first. Never run the migrations against staging.");
  t.post(
    'Read',
    { file_path: join(t.project, 'src/http.ts') },
    { type: 'text', file: { filePath: join(t.project, 'src/http.ts'), content: 'export {}', numLines: 1, startLine: 1, totalLines: 1 } },
  );
  t.say('Plan: read the client, design the new transport, implement it and test the retries.');
  t.stop();

  t.fill(10);
  t.prompt("Now let's design the new transport.");
  t.say("We'll use undici rather than axios because it is faster.");
  if (extra) {
    // Long decisions: with the values below, the brief outgrows a 1,000-token Ledger zone.
    const why = 'because the upstream gateway rate-limits bursts per tenant and the billing service retries on its own side as well';
    for (const [a, b] of [
      ['exponential backoff', 'a fixed delay'],
      ['a retry budget per host', 'a global retry budget'],
      ['a circuit breaker per endpoint', 'one breaker for the whole client'],
      ['jittered timeouts', 'identical timeouts on every request'],
      ['idempotency keys on every POST', 'retrying only GET requests'],
    ])
      t.say(`We'll use ${a} rather than ${b} ${why}.`);
  }
  t.stop();

  t.fill(20);
  t.prompt('Good, start implementing it.');
  const edit = (file: string, before: string, after: string) =>
    t.post(
      'Edit',
      { file_path: join(t.project, file), old_string: before, new_string: after },
      { filePath: join(t.project, file), oldString: before, newString: after },
    );
  edit('src/config.ts', 'requestTimeoutMs: 30000', 'requestTimeoutMs: 45000');
  edit('src/client.ts', "import axios from 'axios';", "import { request } from 'undici';");
  if (extra) {
    // Twelve long value changes: the brief's "Exact values set" alone outgrows a 1,000-token Ledger zone.
    const line = (i: number, v: number) => `export const maxRetriesForTheUpstreamEndpointNumber${i}OfTheBillingAndInvoicingService = ${v}; // per host`;
    for (let i = 0; i < 12; i++) edit(`src/limits/endpoint-${i}.ts`, line(i, i), line(i, i + 10));
  }
  t.post('Bash', { command: 'npx tsc --noEmit' }, bash(''));
  t.say('Next steps: write the tests for the retries.');
  t.stop();

  t.fill(30);
  t.prompt("Let's write the tests now.");
  t.post(
    'Write',
    { file_path: join(t.project, 'test/client.test.ts'), content: 'test' },
    { type: 'create', filePath: join(t.project, 'test/client.test.ts'), content: 'test' },
  );
  t.fail('npx vitest run', VITEST_FAIL);
  t.say('One test fails: the retry after a timeout. I will look at the backoff next.');
  t.stop();
}

describe('PreCompact: steering text', () => {
  it('prints plain text with the phase, the decision and constraint ids and the failing test; the same twice', () => {
    const t = session();
    walk(t);
    const first = t.preCompact();
    expect(first.status).toBe(0);
    expect(first.stdout).not.toBe('');
    expect(first.stdout.trimStart().startsWith('{')).toBe(false);
    expect(first.stdout).toContain('in the testing phase');
    const decision = t.decisions().find((d) => d.chosen === 'undici');
    expect(decision).toBeDefined();
    expect(first.stdout).toContain(`[${decision?.id}] We'll use undici rather than axios`);
    expect(first.stdout).toMatch(/\[C-[0-9a-f]{8}\] Never run the migrations against staging/);
    expect(first.stdout).toContain(FAILING_TEST);
    expect(first.stdout).toContain('requestTimeoutMs: 30000 → requestTimeoutMs: 45000');

    const second = t.preCompact();
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const manual = t.preCompact('manual');
    expect(manual.stdout).toBe(first.stdout);
    noProblems(t);
  });

  it('a new turn since the last PreCompact gives a new text (the cache follows the transcript)', () => {
    const t = session();
    t.prompt("Let's design the cache. Never commit to main.");
    t.say("I'll use an LRU map instead of Redis because the client runs in the browser.");
    t.stop();
    const first = t.preCompact().stdout;
    expect(first).toContain('LRU map');
    t.prompt('And the expiry?');
    t.say("We'll use a 30s TTL rather than no expiry because stale prices are worse than a refetch.");
    t.stop();
    const second = t.preCompact().stdout;
    expect(second).toContain('30s TTL');
    expect(second).toContain('LRU map');
  });

  it('a failing test in an implementation session is kept too', () => {
    const t = session();
    t.prompt('Start implementing the retry logic.');
    for (const f of ['src/retry.ts', 'src/client.ts', 'src/retry.ts'])
      t.post('Edit', { file_path: join(t.project, f), old_string: 'a', new_string: 'b' }, { filePath: join(t.project, f) });
    t.fail('npx vitest run', VITEST_FAIL);
    t.say('The retry test fails; fixing the backoff.');
    t.stop();
    const r = t.preCompact();
    expect(r.stdout).toMatch(/in the (implementation|testing) phase/);
    expect(r.stdout).toContain(FAILING_TEST);
  });

  it('a session that established nothing prints nothing', () => {
    const t = session();
    t.prompt('What does the --frozen-lockfile flag do?');
    t.say('It makes the install fail when the lockfile would change.');
    t.stop();
    const r = t.preCompact();
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('SessionStart(compact): the brief', () => {
  it('brings back the decision and its rejected alternative, the constraint, the changed value and the failing test', () => {
    const t = session();
    walk(t);
    t.preCompact();
    const brief = t.sessionStart('compact');
    t.compact(25_000); // the client writes the boundary after SessionStart(compact)
    expect(brief).toBeDefined();
    const text = brief as string;
    expect(text.length).toBeLessThanOrEqual(9_500);
    expect(text).toMatch(/^\[context-lifecycle\] phase: testing/);
    expect(text).toContain('Phase: **testing**');
    expect(text).toMatch(/\[D-[0-9a-f]{8}\] We'll use undici rather than axios because it is faster/);
    expect(text).toMatch(/\[C-[0-9a-f]{8}\] Never run the migrations against staging/);
    expect(text).toContain('requestTimeoutMs: 30000 → requestTimeoutMs: 45000');
    expect(text).toContain(FAILING_TEST);
    noProblems(t);
  });

  it('with a 10K window (Ledger zone ~1,000 tokens) the brief is shorter, keeps its shape and the failing test', () => {
    const t = session();
    walk(t, true);
    const full = t.sessionStart('compact') as string;
    const small = t.sessionStart('compact', { CTXL_WINDOW_TOKENS: '10000' }) as string;
    expect(full.length).toBeGreaterThan(4_000);
    const status = small.split('\n')[0] as string;
    expect(status).toMatch(/^\[context-lifecycle\] phase: testing/);
    expect(small.length).toBeLessThanOrEqual(status.length + 2 + 1_000 * 4);
    expect(small.length).toBeLessThan(full.length);
    expect(small).toContain('## context-lifecycle: what the compaction summary may have lost');
    expect(small).toContain('Phase: **testing**');
    expect(small).toContain(FAILING_TEST); // testing keeps its failures first
    expect(small).toMatch(/`\/recall <words>` finds it/); // the tail is never cut
  });

  it('with the status line off (CTXL_SESSION_START_STATUS=0) the brief still fits the Ledger zone of a 10K window', () => {
    const t = session();
    walk(t, true);
    const small = t.sessionStart('compact', { CTXL_WINDOW_TOKENS: '10000', CTXL_SESSION_START_STATUS: '0' }) as string;
    expect(small).toContain('## context-lifecycle: what the compaction summary may have lost');
    // Without the status line the window must still be worked out: else the cap is 9,500 characters.
    expect(small.length, 'the brief is not cut to the Ledger zone (1,000 tokens = 4,000 characters)').toBeLessThanOrEqual(1_000 * 4);
  });

  it('a session with many long facts: the brief stays under 9,500 characters, status line included', () => {
    const t = session();
    const long = (what: string, i: number) => `${what} ${i}: ${'because the upstream gateway and the billing service disagree about retries '.repeat(5)}`;
    t.prompt(
      `Let's design the gateway. ${Array.from({ length: 14 }, (_, i) => `Never deploy region ${i} on a Friday, ${'the on-call rota is thin there '.repeat(3)}.`).join(' ')}`,
    );
    for (let i = 0; i < 14; i++) t.say(`We'll use transport ${i} rather than transport ${i + 100} ${long('reason', i)}`);
    t.stop();
    const steering = t.preCompact().stdout;
    expect(steering.length).toBeLessThanOrEqual(3_000);
    expect(steering).toContain("We'll use transport 13 rather than transport 113"); // the newest decision
    const text = t.sessionStart('compact') as string;
    expect(text.length).toBeLessThanOrEqual(9_500);
    expect(text).toContain('Phase: **design**');
    expect(text).toMatch(/`\/recall <words>` finds it/);
  });

  it('with nothing established, a short brief without sections', () => {
    const t = session();
    t.prompt('What does the --frozen-lockfile flag do?');
    t.say('It makes the install fail when the lockfile would change.');
    t.stop();
    const text = t.sessionStart('compact') as string;
    expect(text).toMatch(/^\[context-lifecycle\] phase: unknown/);
    expect(text.length).toBeLessThan(1_000);
    expect(text).not.toMatch(/^(Decisions|The user's constraints|Exact values set|Failing tests):$/m);
  });
});

describe('stdout discipline', () => {
  it('every budget hook prints one JSON object or nothing (PreCompact: plain text), on a session of all of the above', () => {
    const t = session();
    walk(t);
    t.fill(70);
    const r = t.post('Bash', { command: 'cat huge.log' }, bash(numberedLines(2_000)));
    expect(r.stub).toBeDefined();
    expect(r.r.stdout.split('\n')).toHaveLength(1);
    t.say('Done reading.');
    const stop = t.stop();
    expect(stop.systemMessage).toContain('L0→L1');
    expect(t.preCompact().stdout).toContain('testing phase');
  });
});

describe('a large Read is archived from its file by a detached job', () => {
  const read = (file: string, content: string) => {
    const n = content.split('\n').length;
    return { type: 'text', file: { filePath: file, content, numLines: n, startLine: 1, totalLines: n } };
  };

  it('the job reads the same lines again and archives them whole; the hook copies nothing of them', async () => {
    const t = session();
    t.prompt('Read the generated module.');
    t.fill(70);
    const file = join(t.project, 'generated.ts');
    const content = numberedLines(3_000, 60, 'const generatedValue =');
    writeFileSync(file, content);
    const { stub, id } = t.post('Read', { file_path: file }, read(file, content));
    expect(String((stub?.file as Obj | undefined)?.content)).toContain('[context-lifecycle] Read');
    // The job file names the file and a hash: no text of it.
    const jobs = readdirSync(join(t.data, 'jobs'));
    for (const name of jobs) expect(readFileSync(join(t.data, 'jobs', name), 'utf8')).not.toContain('const generatedValue');
    await t.jobsDone();
    const parts = t.toolParts(id);
    expect(parts.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('\n')).toBe(content);
    noProblems(t);
  });

  it('a file edited before the job ran is archived as it is then, and says so', async () => {
    const t = session();
    t.prompt('Read the generated module.');
    t.fill(70);
    const file = join(t.project, 'generated.ts');
    const content = numberedLines(3_000, 60, 'const generatedValue =');
    writeFileSync(file, content);
    // Changed on disk before the hook (and so before its job) runs: what the tool returned is gone.
    writeFileSync(file, content.replace('const generatedValue', 'const editedValue'));
    const { id } = t.post('Read', { file_path: file }, read(file, content));
    await t.jobsDone();
    const parts = t.toolParts(id);
    expect(parts[0]?.text).toContain('The file changed between the Read and its archiving');
    expect(parts.map((p) => p.text).join('\n')).toContain('const editedValue');
    expect(readLog(t.data).some((l) => String(l.msg).includes('changed since Read'))).toBe(true);
  });
});

describe('a Read job checks its file by stamp and sample when the file predates the call', () => {
  const setup = () => {
    const t = session();
    const store = openStore(t.data, captureLogger());
    const log = captureLogger();
    const env = { store, log, now: () => new Date(), project: { root: t.project }, timeLeft: () => 600 };
    const file = join(t.project, 'generated.ts');
    const content = numberedLines(3_000, 60, 'const generatedValue =');
    writeFileSync(file, content);
    // Whole seconds, so that a test can put the very same time back.
    const then = Math.floor(Date.now() / 1000) - 60;
    utimesSync(file, then, then);
    // A call that began well after the file last changed (its change time cannot be set back, so
    // the call is placed after it rather than the file before it).
    const callAfterFile = () => statSync(file).ctimeMs + 2_500;
    const n = content.split('\n').length;
    const call = { toolUseId: `toolu_${randomUUID().slice(0, 8)}`, name: 'Read', input: { file_path: file }, isError: false };
    const response = { type: 'text', file: { filePath: file, content, numLines: n, startLine: 1, totalLines: n } };
    // The job is read from its file, not started: each case runs it when it chooses.
    const spool = async (text: string, startedAt: number | undefined) => {
      const r = await archiveToolCall(
        env,
        t.sid,
        { ...call, response: { ...response, file: { ...response.file, content: text } } },
        {
          minBytes: 0,
          cliPath: join(t.data, 'no-such-cli.mjs'),
          spoolAbove: INLINE_TEXT_CHARS,
          ...(startedAt === undefined ? {} : { startedAt }),
        },
      );
      expect(r.spooled).toBe(true);
      return JSON.parse(readFileSync(jobFile(store, t.sid, call.toolUseId), 'utf8')) as ReadJob;
    };
    const run = async (job: ReadJob) => {
      await archiveSpooled(env, job);
      const dir = join(t.data, 'sessions', t.sid, 'archived');
      return readdirSync(dir)
        .sort()
        .map((name) => readFileSync(join(dir, name), 'utf8'))
        .join('\n');
    };
    return { t, env, log, file, content, spool, run, callAfterFile, then };
  };

  it('a file untouched since before the call: stamped, not hashed whole, and archived as the same text', async () => {
    const c = setup();
    const job = await c.spool(c.content, c.callAfterFile());
    expect(job.stat).toEqual({ size: Buffer.byteLength(c.content), mtimeMs: expect.any(Number), ctimeMs: expect.any(Number) });
    expect(job.hash).toBe(sampleHash(c.content));
    const archived = await c.run(job);
    expect(archived).not.toContain('The file changed');
    expect(c.log.lines.some((l) => l.message.includes('changed since Read'))).toBe(false);
  });

  it('a file modified after the hook, at the same size, fails the stamp', async () => {
    const c = setup();
    const job = await c.spool(c.content, c.callAfterFile());
    writeFileSync(c.file, c.content.replace('const generatedValue = 1', 'const generatedValue = 9'));
    expect(Buffer.byteLength(readFileSync(c.file))).toBe(job.stat?.size);
    expect(await c.run(job)).toContain('The file changed between the Read and its archiving');
  });

  it('so does one rewritten with its old modification time put back (cp -p, touch -r)', async () => {
    const c = setup();
    const job = await c.spool(c.content, c.callAfterFile());
    // Change times tick with the kernel's coarse clock (up to 10 ms): a rewrite in the same tick as
    // the stamp would keep it. In a session the two are seconds apart.
    await new Promise((r) => setTimeout(r, 30));
    writeFileSync(c.file, c.content.replace('const generatedValue = 1', 'const generatedValue = 9'));
    utimesSync(c.file, c.then, c.then);
    expect(statSync(c.file).mtimeMs).toBe(job.stat?.mtimeMs);
    expect(await c.run(job)).toContain('The file changed between the Read and its archiving');
  });

  it('a job stamped before change times were kept is checked by size and mtime', async () => {
    const c = setup();
    const job = await c.spool(c.content, c.callAfterFile());
    const { ctimeMs: _ctime, ...older } = job.stat ?? { size: 0, mtimeMs: 0 };
    expect(await c.run({ ...job, stat: older })).not.toContain('The file changed');
  });

  it("a Read whose text is not the file's lines (the tool cut them) fails the sample", async () => {
    const c = setup();
    expect(c.content.length).toBeGreaterThan(150_000);
    const job = await c.spool(c.content.slice(0, 150_000), c.callAfterFile());
    expect(await c.run(job)).toContain('The file changed between the Read and its archiving');
  });

  it('a file modified while the call ran, or a call of unknown start, is hashed whole as before', async () => {
    const c = setup();
    const now = new Date();
    utimesSync(c.file, now, now);
    const recent = await c.spool(c.content, Date.now() - 40);
    expect(recent.stat).toBeUndefined();
    expect(recent.hash).toBe(chunkHash(c.content));
    const unknown = await c.spool(c.content, undefined);
    expect(unknown.stat).toBeUndefined();
    expect(await c.run(unknown)).not.toContain('The file changed');
  });
});

describe('sampleHash', () => {
  it('reads every character of a text up to 4 K, and the length of a longer one', () => {
    const text = 'a'.repeat(4_096);
    expect(sampleHash(text)).not.toBe(sampleHash(`${text.slice(0, 3_000)}b${text.slice(3_001)}`));
    expect(sampleHash(`${text}a`)).not.toBe(sampleHash(text));
    expect(sampleHash(text)).toBe(sampleHash('a'.repeat(4_096)));
    expect(sampleHash('x'.repeat(1_000_000))).not.toBe(sampleHash('x'.repeat(1_000_001)));
  });
});

describe('archive jobs of stubbed outputs', () => {
  const jobOf = (t: BudgetSession, toolUseId: string, text: string, attempts?: number) => ({
    version: 1,
    kind: 'tool-text',
    sessionId: t.sid,
    projectRoot: t.project,
    phase: 'unknown',
    call: { toolUseId, name: 'Read', input: { file_path: join(t.project, 'big.ts') }, isError: false },
    text,
    ...(attempts === undefined ? {} : { attempts }),
  });
  const age = (file: string, ms: number) => {
    const then = new Date(Date.now() - ms);
    utimesSync(file, then, then);
  };
  /** A tool call and its result as the client writes them to the transcript (PostToolUse not run). */
  const callInTranscript = (t: BudgetSession, id: string, name: string, input: Obj, content: string, toolUseResult?: unknown) => {
    const useUuid = randomUUID();
    const resultUuid = randomUUID();
    const base = {
      isSidechain: false,
      userType: 'external',
      cwd: t.project,
      sessionId: t.sid,
      version: '2.1.332',
      gitBranch: 'main',
      timestamp: new Date().toISOString(),
    };
    t.lines.push(
      {
        ...base,
        parentUuid: null,
        uuid: useUuid,
        type: 'assistant',
        message: { id: `msg_${id}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id, name, input }] },
      },
      {
        ...base,
        parentUuid: useUuid,
        uuid: resultUuid,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
        ...(toolUseResult === undefined ? {} : { toolUseResult }),
      },
    );
    t.write();
    return { id, useUuid, resultUuid };
  };
  /** A Read whose transcript result is the 2 KB preview the client keeps; PostToolUse not run. */
  const previewInTranscript = (t: BudgetSession, id: string) =>
    callInTranscript(t, id, 'Read', { file_path: join(t.project, 'big.ts') }, `preview ${'x'.repeat(2_000)}`);
  const writeJob = (t: BudgetSession, id: string, text: string) => {
    const jobs = join(t.data, 'jobs');
    mkdirSync(jobs, { recursive: true });
    const file = join(jobs, `${t.sid}-${id}.json`);
    writeFileSync(file, JSON.stringify(jobOf(t, id, text)));
    return file;
  };
  const waitFor = async (check: () => boolean, ms = 10_000) => {
    const until = Date.now() + ms;
    while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    return check();
  };

  it('a job whose process died is started again by the next Stop, and its ref then resolves', async () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const jobs = join(t.data, 'jobs');
    mkdirSync(jobs, { recursive: true });
    const file = join(jobs, `${t.sid}-toolu_dead_job_1.json`);
    const text = numberedLines(300, 60, 'spooled');
    writeFileSync(file, JSON.stringify(jobOf(t, 'toolu_dead_job_1', text)));
    // Fresh: a job that may still be running is left alone.
    t.say('Still reading.');
    t.stop();
    expect(existsSync(file)).toBe(true);
    age(file, 5 * 60_000);
    t.say('Done reading.');
    t.stop();
    expect(await waitFor(() => !existsSync(file))).toBe(true);
    expect(
      t
        .toolParts('toolu_dead_job_1')
        .map((p) => p.text.slice(p.text.indexOf('\n\n') + 2))
        .join('\n'),
    ).toBe(text);
  });

  // The race a live session runs: PostToolUse hands a large output to its job, the client writes a
  // preview of it to the transcript, and Stop or PreCompact (an auto-compaction) archives that
  // preview as part 1 while the job writes the full parts.
  it('a job that runs after the transcript pass archived the preview: the full output wins, every part carries the uuids', async () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    const { id, useUuid, resultUuid } = previewInTranscript(t, 'toolu_race_1');
    t.stop(); // part 1 = the preview, with both uuids
    const file = writeJob(t, id, numberedLines(2_000, 60, 'racing'));
    const r = runCli(['run-job', file], t.env, t.project);
    expect(r.status, r.stderr).toBe(0);
    const parts = t.toolParts(id);
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('\n')).toBe(numberedLines(2_000, 60, 'racing'));
    // The result line's time, not the job's clock (a job may run days later, at a SessionStart).
    const when = (t.lines.find((l) => (l as Obj).uuid === resultUuid) as Obj).timestamp;
    for (const p of parts) {
      expect(p.sourceUuids, `part ${p.part?.[0]}`).toEqual([useUuid, resultUuid]);
      expect(p.timestamp, `part ${p.part?.[0]}`).toBe(when);
    }
  });

  // A Read's result in the transcript is the file's lines numbered ("    12→…"): longer than the
  // file's text, so split in more parts than the job's. Stop at the end of a turn often archives it
  // before the job PostToolUse started has written anything.
  const numbered = (text: string) =>
    text
      .split('\n')
      .map((line, k) => `${String(k + 1).padStart(6)}→${line}`)
      .join('\n');

  it('a Read the transcript pass archived before its job ran is archived once: the pass takes the file text, split as the job splits it', () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    const text = numberedLines(2_000, 60, 'wholeread');
    const n = text.split('\n').length;
    const file = { filePath: join(t.project, 'big.ts'), content: text, numLines: n, startLine: 1, totalLines: n };
    const { id, useUuid, resultUuid } = callInTranscript(t, 'toolu_long_copy', 'Read', { file_path: file.filePath }, numbered(text), { type: 'text', file });
    t.stop();
    const before = t.toolParts(id);
    expect(before.length).toBeGreaterThan(10);
    expect(before[0]?.text).not.toContain('→'); // the file's text, not the numbered lines
    const job = writeJob(t, id, text);
    const r = runCli(['run-job', job], t.env, t.project);
    expect(r.status, r.stderr).toBe(0);
    const after = t.toolParts(id);
    expect(after.map((p) => [p.id, p.part, p.text])).toEqual(before.map((p) => [p.id, p.part, p.text]));
    for (const p of after) expect(p.sourceUuids).toEqual([useUuid, resultUuid]);
    // Every row once.
    expect(after.filter((p) => p.text.includes('wholeread line 001999 ')).length).toBe(1);
    expect(after.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('\n')).toBe(text);
  });

  it('a Read with secrets: the pass and the job redact before they split, so their parts meet and nothing is in clear', () => {
    const t = session();
    t.prompt('Read the settings dump.');
    t.fill(30);
    // Redaction changes lengths ("password: …" grows, a long key shrinks): split first, the job's
    // cuts moved and its parts no longer met the pass's.
    const rows = numberedLines(3_000, 60, 'settingsrow').split('\n');
    for (let i = 40; i < rows.length; i += 97) rows[i] = `password: Xk9mQ2pN${i}x`;
    for (let i = 90; i < rows.length; i += 331) rows[i] = `OPENAI_API_KEY=sk-proj-${'Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7'.repeat(3)}${i}`;
    const text = rows.join('\n');
    const path = join(t.project, 'settings.txt');
    writeFileSync(path, text);
    const n = rows.length;
    const file = { filePath: path, content: text, numLines: n, startLine: 1, totalLines: n };
    const { id } = callInTranscript(t, 'toolu_secret_read', 'Read', { file_path: path }, numbered(text), { type: 'text', file });
    t.stop();
    const before = t.toolParts(id);
    const jobs = join(t.data, 'jobs');
    mkdirSync(jobs, { recursive: true });
    const job = join(jobs, `${t.sid}-${id}.json`);
    const call = { toolUseId: id, name: 'Read', input: { file_path: path }, isError: false };
    writeFileSync(
      job,
      JSON.stringify({
        version: 1,
        kind: 'tool-read',
        sessionId: t.sid,
        projectRoot: t.project,
        phase: 'unknown',
        call,
        file: path,
        startLine: 1,
        lines: n,
        hash: chunkHash(text),
      }),
    );
    expect(runCli(['run-job', job], t.env, t.project).status).toBe(0);
    const after = t.toolParts(id);
    expect(after.map((p) => [p.id, p.part, p.text])).toEqual(before.map((p) => [p.id, p.part, p.text]));
    const all = after.map((p) => p.text).join('\n');
    expect(all).not.toContain('Xk9mQ2pN');
    expect(all).not.toContain('Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7');
    expect(after.filter((p) => p.text.includes('settingsrow line 002999 ')).length).toBe(1);
  });

  it('a private region that a part cut crosses is removed whole from the output PostToolUse archives', () => {
    const t = session();
    t.prompt('Print the notes.');
    t.fill(30);
    const secretRows = Array.from({ length: 80 }, (_, i) => `keepoutword ${i} `.padEnd(60, 'p'));
    const rows = [...numberedLines(80, 60, 'openrow').split('\n'), '<private>', ...secretRows, '</private>', ...numberedLines(400, 60, 'laterrow').split('\n')];
    const output = rows.join('\n'); // ~34 KB: archived by the hook itself, cut at 6,000 characters
    const { id } = t.post('Bash', { command: 'cat notes.txt' }, bash(output));
    const parts = t.toolParts(id);
    expect(parts.length).toBeGreaterThan(3);
    const all = parts.map((p) => p.text).join('\n');
    expect(all).not.toContain('keepoutword');
    expect(all).toContain('laterrow line 000400');
  });

  it('a job that ran before the transcript pass keeps its text whole: the numbered copy adds nothing past its last part', () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    const text = numberedLines(2_000, 60, 'firstjob');
    const id = 'toolu_job_first';
    const job = writeJob(t, id, text);
    expect(runCli(['run-job', job], t.env, t.project).status).toBe(0);
    const jobParts = t.toolParts(id).length;
    // A transcript of an older client: no structured result, only the numbered lines.
    const { useUuid, resultUuid } = callInTranscript(t, id, 'Read', { file_path: join(t.project, 'big.ts') }, numbered(text));
    t.stop();
    const parts = t.toolParts(id);
    expect(parts).toHaveLength(jobParts);
    expect(parts.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('\n')).toBe(text);
    for (const p of parts) expect(p.sourceUuids).toEqual([useUuid, resultUuid]);
  });

  it("a subagent's large output archived by PostToolUse takes its entry's time and subagent mark from the next pass", () => {
    const t = session();
    t.prompt('Explore the repo.');
    t.fill(30);
    const output = textOfSize(30_000, 'subagentfind');
    const { id } = t.post('Bash', { command: 'find . -name "*.ts"' }, bash(output), { agent_id: 'a0sub', agent_type: 'Explore' });
    expect(t.toolParts(id).length).toBeGreaterThan(1); // archived by the hook, before the pass
    // The two lines the client wrote for it are the subagent's, and older than the hook's clock.
    const when = '2025-09-03T00:55:20.000Z';
    for (const line of t.lines.slice(-2)) Object.assign(line, { isSidechain: true, timestamp: when });
    t.stop();
    const parts = t.toolParts(id);
    for (const p of parts) {
      expect(p.sidechain, `part ${p.part?.[0]}`).toBe(true);
      expect(p.timestamp, `part ${p.part?.[0]}`).toBe(when);
      expect(p.sourceUuids).toHaveLength(2);
    }
  });

  it('a job waits while a transcript pass holds the session, then writes', async () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    const { id } = previewInTranscript(t, 'toolu_race_2');
    const file = writeJob(t, id, numberedLines(500, 60, 'waiting'));
    const store = openStore(t.data, captureLogger());
    let job: Promise<unknown> | undefined;
    await store.withLock(join(t.sessionDir, 'cursor.json'), async () => {
      job = runCliAsync(['run-job', file], t.env, t.project);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the job alone takes a fraction of this
      expect(t.toolParts(id), 'parts written while the session was locked').toEqual([]);
    });
    await job;
    await t.jobsDone();
    expect(t.toolParts(id).length).toBeGreaterThan(2);
  });

  // A Bash output over 30,000 characters is persisted by the client to a file that PostToolUse
  // archives part by part. Stopped part-way (its deadline, or killed), the hook must leave a job:
  // the transcript holds only the client's preview, so nothing else would ever archive the rest.
  const persistedCall = (t: BudgetSession, bytes: number, extraEnv: Record<string, string> = {}) => {
    const output = textOfSize(bytes, 'persisted');
    const file = join(t.project, 'tool-results', `${randomUUID()}.txt`);
    mkdirSync(join(t.project, 'tool-results'), { recursive: true });
    writeFileSync(file, output);
    const response = bash(output.slice(0, 30_000), { persistedOutputPath: file, persistedOutputSize: output.length });
    const { id, out } = t.post('Bash', { command: 'dump-events --all' }, response, {}, extraEnv);
    // The transcript's result line carries the tool's result, its persisted path included.
    Object.assign(t.lines.at(-1) as Obj, { toolUseResult: response });
    t.write();
    return { id, out, output, job: jobFile(openStore(t.data, captureLogger()), t.sid, id) };
  };
  // A file's parts are cut after a newline, which each part keeps.
  const joined = (parts: ReadonlyArray<{ text: string }>) => parts.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('');

  it('a persisted output archived within the hook: every part written, its job removed', () => {
    const t = session();
    t.prompt('Dump the events.');
    t.fill(30);
    const { id, out, output, job } = persistedCall(t, 200 * 1024);
    expect(out).toBeUndefined();
    const parts = t.toolParts(id);
    expect(parts.length).toBe(parts[0]?.part?.[1]);
    expect(joined(parts)).toBe(output);
    expect(existsSync(job)).toBe(false);
  });

  it('a persisted output the hook could not finish archiving is left as a job, and the next Stop completes it', async () => {
    const t = session();
    t.prompt('Dump the events.');
    t.fill(30);
    // Deadlines shorter than archiving 3 MB takes, until one stops the hook part-way (how far it
    // gets depends on the machine).
    let partial: ReturnType<typeof persistedCall> | undefined;
    for (const ms of [150, 100, 220, 70, 320]) {
      const call = persistedCall(t, 3 * 1024 * 1024, { CTXL_DEADLINE_MS: String(ms) });
      const parts = t.toolParts(call.id);
      if (parts.length > 0 && parts.length < (parts[0]?.part?.[1] ?? 0)) {
        partial = call;
        break;
      }
    }
    if (partial === undefined) throw new Error('no deadline stopped the hook part-way');
    expect(existsSync(partial.job)).toBe(true); // never some parts without the job that completes them
    // The job names the hook as its owner; the hook is gone, so the Stop right after starts it.
    t.say('Dumped.');
    t.stop();
    await t.jobsDone();
    const all = t.toolParts(partial.id);
    expect(all.length).toBe(all[0]?.part?.[1]);
    expect(joined(all)).toBe(partial.output);
  });

  /** A Bash call whose output the client persisted, in the transcript only (its PostToolUse never ran). */
  const persistedInTranscript = (t: BudgetSession, id: string, bytes: number, planted = '') => {
    // A word planted ~4,200 characters in: in the first part of the output, past the preview.
    const lines = textOfSize(bytes, 'kept').split('\n');
    if (planted !== '') lines[70] = `${lines[70]} ${planted}`;
    const output = lines.join('\n');
    const file = join(t.project, 'tool-results', `${id}.txt`);
    mkdirSync(join(t.project, 'tool-results'), { recursive: true });
    writeFileSync(file, output);
    const preview = `<persisted-output>\nOutput too large (${Math.round(bytes / 1024)}KB). Full output saved to: ${file}\n\nPreview (first 2KB):\n${output.slice(0, 2_000)}\n...\n</persisted-output>`;
    callInTranscript(
      t,
      id,
      'Bash',
      { command: 'dump-all' },
      preview,
      bash(output.slice(0, 30_000), { persistedOutputPath: file, persistedOutputSize: output.length }),
    );
    return { output, file };
  };

  it("a persisted output known only from the transcript (its PostToolUse never ran) is archived whole from the client's file", async () => {
    const t = session();
    t.prompt('Dump everything.');
    t.fill(30);
    const { output } = persistedInTranscript(t, 'toolu_persisted_1', 200 * 1024);
    t.say('Dumped.');
    t.stop(); // queues the job and starts it at once
    await t.jobsDone();
    const parts = t.toolParts('toolu_persisted_1');
    expect(parts.length).toBe(parts[0]?.part?.[1]);
    expect(parts.length).toBeGreaterThan(1);
    expect(joined(parts)).toBe(output);
    expect(parts[0]?.sourceUuids).toHaveLength(2); // the call's and its result's lines
    // Another Stop queues nothing: L2 holds it whole.
    t.say('Next.');
    t.stop();
    expect(existsSync(join(t.data, 'jobs')) ? readdirSync(join(t.data, 'jobs')) : []).toEqual([]);
    noProblems(t);
  });

  it('a persisted output PostToolUse archived whole is not queued again; one whose file is gone is left as the preview', () => {
    const t = session();
    t.prompt('Dump everything.');
    t.fill(30);
    const { id } = persistedCall(t, 100 * 1024);
    const gone = persistedInTranscript(t, 'toolu_persisted_gone', 100 * 1024);
    rmSync(gone.file);
    t.say('Dumped.');
    t.stop();
    expect(existsSync(join(t.data, 'jobs')) ? readdirSync(join(t.data, 'jobs')) : []).toEqual([]);
    expect(t.toolParts(id).length).toBe(t.toolParts(id)[0]?.part?.[1]);
    expect(t.toolParts('toolu_persisted_gone')).toHaveLength(1); // the preview, as the transcript has it
  });

  it('ctxl ingest archives a persisted output whole from its file, and leaves no job', () => {
    const t = session();
    t.prompt('Dump everything.');
    t.fill(30);
    const { output } = persistedInTranscript(t, 'toolu_persisted_2', 150 * 1024, 'zanzibarpelican');
    t.say('Dumped.');
    t.write();
    const r = runCli(['ingest', t.transcript, '--json'], t.env, t.project);
    expect(r.status).toBe(0);
    const parts = t.toolParts('toolu_persisted_2');
    expect(parts.length).toBe(parts[0]?.part?.[1]);
    expect(joined(parts)).toBe(output);
    expect(existsSync(join(t.data, 'jobs')) ? readdirSync(join(t.data, 'jobs')) : []).toEqual([]);
    expect(JSON.parse(r.stdout).chunksTotal).toBeGreaterThan(parts.length);
    // The index holds part 1 as the job rewrote it (the full text), not the preview the pass wrote.
    const found = runCli(['recall', '--json', '--', 'zanzibarpelican'], t.env, t.project);
    expect((JSON.parse(found.stdout) as { results: Array<{ ref: string }> }).results.map((x) => x.ref)).toEqual([parts[0]?.id]);
  });

  it('show of a ref whose job has not run yet says so, for any of its parts, and says when the job died', () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const file = writeJob(t, 'toolu_waiting_1', numberedLines(300, 60, 'spooled'));
    const show = (index: number) => runCli(['show', toolPartId(chunkHash, t.sid, 'toolu_waiting_1', index)], t.env, t.project);
    for (const index of [0, 4]) expect(show(index).stderr).toContain('still being archived. Try again in a few seconds.');
    age(file, 5 * 60_000);
    expect(show(4).stderr).toContain(
      `archiving this large output was interrupted. It starts again at the end of the next turn of its session, or now with \`ctxl run-job ${file}\``,
    );
    expect(runCli(['show', 'ffffffffffffffff'], t.env, t.project).stderr).toContain('Refs come from');
  });

  /** A pid that ran on this machine and is gone. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;
  /** A job file whose owner, a process of this machine, is gone (its owner first, as the code writes it). */
  const orphanJob = (file: string, job: object) => writeFileSync(file, JSON.stringify({ owner: { ...thisProcess(), pid: deadPid() }, ...job }));
  const sessionEnd = (t: BudgetSession) =>
    runHookSync(
      'session-end',
      JSON.stringify({ session_id: t.sid, transcript_path: t.transcript, cwd: t.project, hook_event_name: 'SessionEnd', reason: 'other' }),
      t.env,
      {
        cwd: t.project,
      },
    );

  it('a job whose process is gone starts again at once; one whose process runs is left to it, however old', async () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const text = numberedLines(300, 60, 'owned');
    const running = writeJob(t, 'toolu_owned_live', text);
    writeFileSync(running, JSON.stringify({ ...jobOf(t, 'toolu_owned_live', text), owner: thisProcess() })); // this test runner: alive
    age(running, 5 * 60_000);
    const dead = writeJob(t, 'toolu_owned_dead', text);
    orphanJob(dead, jobOf(t, 'toolu_owned_dead', text));
    t.say('Still reading.');
    t.stop();
    expect(await waitFor(() => !existsSync(dead))).toBe(true);
    expect(t.toolParts('toolu_owned_dead').length).toBeGreaterThan(0);
    expect(existsSync(running)).toBe(true);
    expect(t.toolParts('toolu_owned_live')).toEqual([]);
  });

  it('a big text job whose process died a moment ago is started by SessionEnd (its owner read from the head of the file)', async () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const text = numberedLines(3_000, 60, 'spooled'); // ~190 KB: over what is read whole while fresh
    const file = writeJob(t, 'toolu_big_dead', text);
    orphanJob(file, jobOf(t, 'toolu_big_dead', text));
    const r = sessionEnd(t);
    expect(r.status).toBe(0);
    expect(await waitFor(() => !existsSync(file))).toBe(true);
    expect(t.toolParts('toolu_big_dead').length).toBeGreaterThan(1);
  });

  it('ctxl ingest runs a job whose earlier run died, not only the ones its pass queued', () => {
    const t = session();
    t.prompt('Dump everything.');
    t.fill(30);
    const { output, file: kept } = persistedInTranscript(t, 'toolu_ingest_retry', 120 * 1024);
    t.say('Dumped.');
    t.write();
    // Claimed by an earlier ingest (or run-job) that died: no longer queued, its owner gone.
    const job = jobFile(openStore(t.data, captureLogger()), t.sid, 'toolu_ingest_retry');
    mkdirSync(join(t.data, 'jobs'), { recursive: true });
    const call = { toolUseId: 'toolu_ingest_retry', name: 'Bash', input: { command: 'dump-all' }, isError: false };
    const head = { version: 1, kind: 'tool-output', sessionId: t.sid, projectRoot: t.project, phase: 'unknown', call, file: kept, attempts: 1 };
    orphanJob(job, head);
    const r = runCli(['ingest', t.transcript, '--json', '--cwd', t.project], t.env, t.project);
    expect(r.status).toBe(0);
    expect(existsSync(job)).toBe(false);
    const parts = t.toolParts('toolu_ingest_retry');
    expect(parts.length).toBe(parts[0]?.part?.[1]);
    expect(joined(parts)).toBe(output);
  });

  it('SessionEnd starts the jobs no later Stop would: one whose process is gone', async () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const text = numberedLines(300, 60, 'ended');
    const file = writeJob(t, 'toolu_at_end', text);
    orphanJob(file, jobOf(t, 'toolu_at_end', text));
    const r = sessionEnd(t);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(await waitFor(() => !existsSync(file))).toBe(true);
    expect(
      t
        .toolParts('toolu_at_end')
        .map((p) => p.text.slice(p.text.indexOf('\n\n') + 2))
        .join('\n'),
    ).toBe(text);
  });

  it('SessionStart of another session starts the jobs a session left when it never came back; a running one is left alone', async () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const text = numberedLines(300, 60, 'abandoned');
    const dead = writeJob(t, 'toolu_abandoned', text);
    orphanJob(dead, jobOf(t, 'toolu_abandoned', text));
    const running = writeJob(t, 'toolu_still_running', numberedLines(300, 60, 'running'));
    writeFileSync(running, JSON.stringify({ owner: thisProcess(), ...jobOf(t, 'toolu_still_running', numberedLines(300, 60, 'running')) }));
    const other = '7f3c2a10-5b6d-4e8f-9a01-b2c3d4e5f601';
    const r = runHookSync(
      'session-start',
      JSON.stringify({ session_id: other, transcript_path: join(t.project, 'none.jsonl'), cwd: t.project, hook_event_name: 'SessionStart', source: 'startup' }),
      t.env,
      { cwd: t.project },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(await waitFor(() => !existsSync(dead))).toBe(true);
    expect(
      t
        .toolParts('toolu_abandoned')
        .map((p) => p.text.slice(p.text.indexOf('\n\n') + 2))
        .join('\n'),
    ).toBe(text);
    // Its owner (this test process) is alive: not this sweep's to run.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(running)).toBe(true);
    expect(t.toolParts('toolu_still_running')).toEqual([]);
  });

  it('Stop queues a transcript line too long for its pass, and the job it starts archives it with its call', async () => {
    const t = session();
    t.prompt('Print the whole worker log.');
    t.fill(30);
    const base = { sessionId: t.sid, cwd: t.project, version: '2.1.332', isSidechain: false, userType: 'external', timestamp: new Date().toISOString() };
    const logLines: string[] = [];
    for (let i = 0; logLines.length * 60 < 9 * 2 ** 20; i++) logLines.push(`2026-11-01T09:00:00Z worker-${i % 7} processed batch ${i} in ${i % 97} ms`);
    logLines.push('FATAL kestrelmarble: the last batch never finished');
    const big = logLines.join('\n');
    t.lines.push(
      {
        ...base,
        type: 'assistant',
        uuid: 'a-big-1',
        parentUuid: null,
        message: {
          id: 'msg_big',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 'toolu_big_line', name: 'Bash', input: { command: 'cat worker.log' } }],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: 'r-big-1',
        parentUuid: 'a-big-1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big_line', content: big }] },
        toolUseResult: { stdout: big, stderr: '', interrupted: false, isImage: false },
      },
    );
    t.say('The log ends in a fatal error.');
    const r = t.stop();
    expect(r.out).toBeUndefined();
    // Queued by the pass, started by the same Stop, removed by the job when done.
    const lineJobs = () => readdirSync(join(t.data, 'jobs')).filter((n) => n.startsWith(`${t.sid}-line-`));
    expect(await waitFor(() => lineJobs().length === 0, 30_000)).toBe(true);
    expect(readFileSync(join(t.data, 'logs', 'ctxl.log'), 'utf8')).toMatch(/MB line at byte \d+ is too long to read in a pass; queued for archiving/);
    const dir = join(t.sessionDir, 'archived');
    const hit = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .find((c) => c.includes('kestrelmarble'));
    expect(hit).toMatch(/sourceUuids: \["a-big-1","r-big-1"\]/);
  }, 60_000);

  it('a job file that is not JSON is set aside once it is a minute old, so SessionStart stops starting run-jobs for it', async () => {
    const t = session();
    t.prompt('Hello.');
    t.stop();
    const jobs = join(t.data, 'jobs');
    mkdirSync(jobs, { recursive: true });
    const file = join(jobs, `${t.sid}-toolu_torn.json`);
    writeFileSync(file, '{"version":1,"kind":"tool-te');
    age(file, 5 * 60_000);
    const start = () =>
      runHookSync(
        'session-start',
        JSON.stringify({ session_id: t.sid, transcript_path: t.transcript, cwd: t.project, hook_event_name: 'SessionStart', source: 'resume' }),
        { ...t.env, CTXL_LOG_LEVEL: 'info' },
        { cwd: t.project },
      );
    expect(start().status).toBe(0);
    expect(await waitFor(() => !existsSync(file))).toBe(true);
    expect(readdirSync(jobs).filter((n) => n.startsWith(`${t.sid}-toolu_torn.json.bad-`))).toHaveLength(1);
    const log = () => readFileSync(join(t.data, 'logs', 'ctxl.log'), 'utf8');
    const started = () =>
      log()
        .split('\n')
        .filter((l) => l.includes('started ctxl run-jobs')).length;
    const before = started();
    expect(start().status).toBe(0);
    expect(started()).toBe(before);
  });

  it("a long line's job that reads on to its calls' results keeps the full output PostToolUse archived, not the transcript's stub", async () => {
    const t = session();
    t.prompt('Write the fixture, then run the tests.');
    t.fill(65);
    const output = textOfSize(40_000);
    const { id, stub } = t.post('Bash', { command: 'npm test' }, bash(output));
    expect(stub).toBeDefined();
    // The same assistant message also wrote a big file: its line is now over 16 MB.
    const useLine = t.lines.find((l) => JSON.stringify(l).includes(`"id":"${id}"`)) as { message: { content: unknown[] } };
    const content = 'x'.repeat(17 * 2 ** 20);
    useLine.message.content.unshift({ type: 'tool_use', id: 'toolu_big_write', name: 'Write', input: { file_path: join(t.project, 'big.txt'), content } });
    t.lines.push({
      ...(t.lines.at(-1) as object),
      uuid: 'r-big-write',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big_write', content: 'File created successfully' }] },
    });
    t.say('Both done.');
    t.stop();
    const lineJobs = () => readdirSync(join(t.data, 'jobs')).filter((n) => n.startsWith(`${t.sid}-line-`));
    expect(await waitFor(() => lineJobs().length === 0, 30_000)).toBe(true);
    const parts = t.toolParts(id);
    expect(parts.map((p) => p.text.slice(p.text.indexOf('\n\n') + 2)).join('\n')).toBe(output);
    expect(parts[0]?.tool).toBe('Bash');
    // The call's uuid first, then the result's: transcript order.
    const resultLine = t.lines.find((l) => JSON.stringify(l).includes(`"tool_use_id":"${id}"`)) as { uuid: string };
    for (const p of parts) expect(p.sourceUuids).toEqual([(useLine as unknown as { uuid: string }).uuid, resultLine.uuid]);
    const write = t.toolParts('toolu_big_write');
    expect(write[0]?.tool).toBe('Write');
  }, 60_000);

  it('SessionStart starts nothing when no job waits', () => {
    const t = session();
    t.prompt('Hello.');
    t.stop();
    mkdirSync(join(t.data, 'jobs'), { recursive: true });
    writeFileSync(join(t.data, 'jobs', 'x-toolu_1.json.bad-2026-01-01T00-00-00-000Z'), '{}');
    const r = runHookSync(
      'session-start',
      JSON.stringify({ session_id: t.sid, transcript_path: t.transcript, cwd: t.project, hook_event_name: 'SessionStart', source: 'resume' }),
      { ...t.env, CTXL_LOG_LEVEL: 'debug' },
      { cwd: t.project },
    );
    expect(r.status, r.stderr).toBe(0);
    const log = join(t.data, 'logs', 'ctxl.log');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').not.toContain('run-jobs');
  });

  it("a job whose process died before it began (the job still its starter's) starts again ten seconds on, not a minute", async () => {
    const t = session();
    t.prompt('Read the generated module.');
    t.fill(70);
    t.say('Reading it.'); // the usage line that puts the Working zone at 70%
    const file = join(t.project, 'generated.ts');
    const content = numberedLines(3_000, 60, 'const generatedValue =');
    writeFileSync(file, content);
    // The hook from a copy of dist/ without cli.mjs: the job's process it starts dies at once.
    const dist = join(t.project, '.dist-without-cli');
    mkdirSync(join(dist, 'programs'), { recursive: true });
    writeFileSync(join(dist, 'post-tool-use.mjs'), readFileSync(join(distDir, 'post-tool-use.mjs')));
    for (const name of readdirSync(join(distDir, 'programs')).filter((n) => n.startsWith('post-tool-use-') && !n.startsWith('post-tool-use-failure')))
      writeFileSync(join(dist, 'programs', name), readFileSync(join(distDir, 'programs', name)));
    const input = {
      session_id: t.sid,
      transcript_path: t.transcript,
      cwd: t.project,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: file },
      tool_response: { type: 'text', file: { filePath: file, content, numLines: 3_000, startLine: 1, totalLines: 3_000 } },
      tool_use_id: 'toolu_never_began',
    };
    const r = spawnSync(process.execPath, [join(dist, 'post-tool-use.mjs')], { input: JSON.stringify(input), env: t.env, cwd: t.project, encoding: 'utf8' });
    expect(r.stdout).toContain('updatedToolOutput');
    const job = jobFile(openStore(t.data, captureLogger()), t.sid, 'toolu_never_began');
    expect(JSON.parse(readFileSync(job, 'utf8'))).toMatchObject({ owner: { pid: r.pid }, handoff: true });
    // Just started: its process may still be starting, so the job is not claimed (no attempt counted).
    t.say('Still reading.');
    t.stop();
    const after = JSON.parse(readFileSync(job, 'utf8')) as { owner: { pid: number }; attempts?: number; handoff?: true };
    expect([after.owner.pid, after.attempts, after.handoff]).toEqual([r.pid, undefined, true]);
    age(job, 11_000);
    t.say('Done reading.');
    t.stop();
    expect(await waitFor(() => !existsSync(job))).toBe(true);
    expect(
      t
        .toolParts('toolu_never_began')
        .map((p) => p.text.slice(p.text.indexOf('\n\n') + 2))
        .join('\n'),
    ).toBe(content);
  });

  it('a run that died after it archived more parts does not count towards setting its job aside; one that added none does', () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const store = openStore(t.data, captureLogger());
    const env = { store, log: captureLogger(), now: () => new Date(), project: { root: t.project } };
    const dir = join(t.data, 'sessions', t.sid, 'archived');
    mkdirSync(dir, { recursive: true });
    const part = (id: string, k: number) => writeFileSync(join(dir, `${toolPartId(chunkHash, t.sid, id, k)}.md`), 'part');
    const jobs = join(t.data, 'jobs');
    mkdirSync(jobs, { recursive: true });
    // Three starts so far; two parts on disk when the last began, five now: it made progress.
    const moving = join(jobs, `${t.sid}-toolu_moving.json`);
    writeFileSync(moving, JSON.stringify({ ...jobOf(t, 'toolu_moving', 'x', 3), parts: 2 }));
    for (let k = 0; k < 5; k++) part('toolu_moving', k);
    // Three starts, two parts then and now: stuck.
    const stuck = join(jobs, `${t.sid}-toolu_stuck.json`);
    writeFileSync(stuck, JSON.stringify({ ...jobOf(t, 'toolu_stuck', 'x', 3), parts: 2 }));
    for (let k = 0; k < 2; k++) part('toolu_stuck', k);
    for (const f of [moving, stuck]) age(f, 5 * 60_000);
    const claimed = claimJobs(env, t.sid);
    expect(claimed.map((c) => [c.job.call.toolUseId, c.job.attempts, c.job.parts])).toEqual([['toolu_moving', 1, 5]]);
    expect(claimed[0]?.job).toMatchObject({ owner: thisProcess(), handoff: true });
    expect(existsSync(stuck)).toBe(false);
    expect(readdirSync(jobs).some((n) => n.startsWith(`${t.sid}-toolu_stuck.json.bad-`))).toBe(true);
  });

  it('a job that failed three times is set aside, not retried forever', () => {
    const t = session();
    t.prompt('Read the big module.');
    t.fill(30);
    t.stop();
    const jobs = join(t.data, 'jobs');
    mkdirSync(jobs, { recursive: true });
    const file = join(jobs, `${t.sid}-toolu_bad_job_1.json`);
    writeFileSync(file, JSON.stringify(jobOf(t, 'toolu_bad_job_1', 'x', 3)));
    age(file, 5 * 60_000);
    t.say('Next.');
    t.stop();
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(jobs).some((n) => n.startsWith(`${t.sid}-toolu_bad_job_1.json.bad-`))).toBe(true);
    expect(readLog(t.data).some((l) => l.msg.includes('failed 3 times; set aside'))).toBe(true);
    // ctxl doctor says so.
    const report = JSON.parse(runCli(['doctor', '--json'], t.env, t.project).stdout) as { problems: Array<{ code: string; message: string }> };
    expect(report.problems.find((p) => p.code === 'jobs-failed')?.message).toMatch(/^1 archive job\(s\) were set aside \(three starts that archived nothing/);
  });
});

describe('/recall stats and ctxl status show the zones', () => {
  it('after a Stop at 80%, /recall stats lists the four zones with the level, and ctxl status --json has them', () => {
    const t = session();
    t.prompt('Start.');
    t.say('Started.'); // the first request (20K tokens): System is measured from it
    t.stop();
    t.prompt('Where are we?');
    t.fill(80);
    t.say('Here.');
    t.stop();
    const out = jsonOut(t.run('user-prompt-expansion', { hook_event_name: 'UserPromptExpansion', command_name: 'recall', command_args: 'stats' }));
    const text = String((out?.hookSpecificOutput as Obj | undefined)?.additionalContext);
    expect(text).toContain('Context budget (as of the last turn):');
    expect(text).toMatch(/Working +[\d,]+ of 127,000 tokens \(80%\) · level L1→L2/);
    const status = runCli(['status', '--json', '--session', t.sid, '--cwd', t.project], t.env, t.project);
    expect(status.status).toBe(0);
    const report = JSON.parse(status.stdout) as { budget: { level: number; levelName: string; zones: { working: { size: number } } } };
    expect(report.budget).toMatchObject({ level: 2, levelName: 'L1→L2', zones: { working: { size: 127_000 } } });
  });

  it('/context-status gets the same status as context, from the hook (both command names)', () => {
    const t = session();
    t.prompt('Start.');
    t.say('Started.');
    t.stop();
    t.prompt('Where are we?');
    t.fill(80);
    t.say('Here.');
    t.stop();
    const expected = runCli(['status', '--session', t.sid, '--cwd', t.project], t.env, t.project);
    expect(expected.status).toBe(0);
    for (const name of ['context-status', 'context-lifecycle:context-status']) {
      const out = jsonOut(t.run('user-prompt-expansion', { hook_event_name: 'UserPromptExpansion', command_name: name, command_args: '' }));
      const text = String((out?.hookSpecificOutput as Obj | undefined)?.additionalContext);
      expect(text).toContain(`context-lifecycle · session ${t.sid}`);
      expect(text).toMatch(/Working +[\d,]+ of 127,000 tokens \(80%\)/);
      expect(text).toBe(expected.stdout.trimEnd());
    }
    // Any other command is not ours: nothing on stdout.
    const other = t.run('user-prompt-expansion', { hook_event_name: 'UserPromptExpansion', command_name: 'context-statuses', command_args: '' });
    expect(other.stdout).toBe('');
  });
});

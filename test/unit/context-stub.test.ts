// lib/context/stub.ts: L1 stubs in each tool's own output shape (reference §11.1: Claude Code silently
// ignores a replacement that does not match the tool's output schema, so the key sets are exact).
// Bash: head, tail, failing tests and error lines of the middle; never an interrupted command or an
// image. Read: the head with its real line numbers, an outline of later declarations. Grep: only the
// content mode, with matches per file. Other tools, and stubs that would not save half: none.
import { describe, expect, it } from 'vitest';
import { buildStub, STUBBABLE_TOOLS, type StubInput } from '../../lib/context/stub.ts';

const REASON = 'working zone 64% full';
const numbers = (n: number, from = 1) => Array.from({ length: n }, (_, i) => String(i + from));

function bash(text: string, command = 'seq 1 2000', over: Partial<StubInput> = {}): StubInput {
  return {
    tool: 'Bash',
    input: { command },
    response: { stdout: text, stderr: '', interrupted: false, isImage: false },
    text,
    bytes: Buffer.byteLength(text),
    ref: 'r-1',
    parts: 1,
    showCommand: '/recall show',
    reason: REASON,
    ...over,
  };
}

const BASH_KEYS = ['interrupted', 'isImage', 'stderr', 'stdout'];
const READ_KEYS = ['file', 'type'];
const READ_FILE_KEYS = ['content', 'filePath', 'numLines', 'startLine', 'totalLines'];
const GREP_KEYS = ['content', 'filenames', 'mode', 'numFiles', 'numLines'];

describe('buildStub: which tools', () => {
  it('knows Bash, Read and Grep only', () => {
    expect([...STUBBABLE_TOOLS].sort()).toEqual(['Bash', 'Grep', 'Read']);
  });

  it.each(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'WebFetch', 'WebSearch', 'Glob', 'Task', 'mcp__srv__tool'])('never stubs %s', (tool) => {
    const text = 'x'.repeat(50_000);
    expect(buildStub(bash(text, 'x', { tool, response: { stdout: text, content: text, type: 'text', file: { content: text } } }))).toBeUndefined();
  });

  it('needs the response as an object', () => {
    const text = numbers(2000).join('\n');
    expect(buildStub(bash(text, 'seq 1 2000', { response: text }))).toBeUndefined();
    expect(buildStub(bash(text, 'seq 1 2000', { response: null }))).toBeUndefined();
    expect(buildStub(bash(text, 'seq 1 2000', { response: [text] }))).toBeUndefined();
  });
});

describe('buildStub: Bash', () => {
  it('returns {stdout, stderr: "", interrupted: false, isImage: false} with the head, the count hidden and the tail', () => {
    const text = numbers(2000).join('\n');
    const stub = buildStub(bash(text));
    expect(stub).toBeDefined();
    if (stub === undefined) return;
    expect(Object.keys(stub.output).sort()).toEqual(BASH_KEYS);
    expect(stub.output).toEqual({ stdout: stub.text, stderr: '', interrupted: false, isImage: false });
    expect(stub.text).toBe(
      [
        `[context-lifecycle] Bash: output shortened in context (${REASON}). The full output (8,892 bytes, 2,000 lines) is archived: \`/recall show r-1\`.`,
        '$ seq 1 2000',
        '--- first 20 lines ---',
        ...numbers(20),
        '--- 1,968 lines not shown ---',
        '--- last 12 lines ---',
        ...numbers(12, 1989),
      ].join('\n'),
    );
  });

  it('says how many parts the archived output has, and shows a multi-line command on one line', () => {
    const text = numbers(3000).join('\n');
    const stub = buildStub(bash(text, 'cd /p &&\n  seq 1 3000', { parts: 3, ref: 'r-9', showCommand: '/context-lifecycle:recall show' }));
    const lines = stub?.text.split('\n') ?? [];
    expect(lines[0]).toBe(
      `[context-lifecycle] Bash: output shortened in context (${REASON}). The full output (13,892 bytes, 3,000 lines) is archived: \`/context-lifecycle:recall show r-9\` (part 1 of 3; each part names the next).`,
    );
    expect(lines[1]).toBe('$ cd /p && ⏎ seq 1 3000');
  });

  it('clips long lines to 240 characters and long commands to 400', () => {
    const text = Array.from({ length: 100 }, (_, i) => `${i}:${'y'.repeat(1_000)}`).join('\n');
    const stub = buildStub(bash(text, `echo ${'z'.repeat(600)}`));
    const lines = stub?.text.split('\n') ?? [];
    expect(lines[1]).toBe(`$ ${`echo ${'z'.repeat(600)}`.slice(0, 399)}…`);
    expect(lines[1]?.length).toBe(402);
    expect(lines[3]).toBe(`0:${'y'.repeat(237)}…`);
    expect(lines[3]?.length).toBe(240);
    expect(Math.max(...lines.slice(2).map((l) => l.length))).toBe(240);
  });

  it('keeps a short output that still saves half: no "not shown" line when head and tail cover it', () => {
    // 32 lines of 100 characters: the stub repeats them all, which saves nothing.
    const text = Array.from({ length: 32 }, (_, i) => `${i}`.padEnd(100, '.')).join('\n');
    expect(buildStub(bash(text))).toBeUndefined();
  });

  it('names the failing tests of a vitest run and the error lines of the omitted middle', () => {
    const text = [
      '',
      ' RUN  v3.2.4',
      '',
      ' ✓ test/bulk.test.ts (300 tests) 40ms',
      ...Array.from({ length: 300 }, (_, i) => `   ✓ bulk > case ${i + 1} 1ms`),
      ' ❯ test/str.test.ts (5 tests | 2 failed | 1 skipped) 6ms',
      '   ✓ str > lower 1ms',
      '   × str > upper 3ms',
      '   × str > trim 1ms',
      '   ↓ str > pad',
      '   ✓ str > split 0ms',
      '',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL  test/str.test.ts > str > upper',
      "AssertionError: expected 'A' to be 'B' // Object.is equality",
      ' ❯ test/str.test.ts:9:24',
      '',
      ' FAIL  test/str.test.ts > str > trim',
      "AssertionError: expected ' a' to be 'a' // Object.is equality",
      ' ❯ test/str.test.ts:13:26',
      '',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯',
      '',
      ' Test Files  1 failed | 1 passed (2)',
      '      Tests  2 failed | 303 passed | 1 skipped (306)',
      '   Start at  10:14:55',
      '   Duration  298ms',
    ].join('\n');
    const stub = buildStub(bash(text, 'npx vitest run'));
    expect(stub).toBeDefined();
    const lines = stub?.text.split('\n') ?? [];
    // 327 lines: 20 shown, 295 not, 12 shown; the last FAIL line is in the tail, not repeated.
    const hidden = lines.indexOf('--- 295 lines not shown ---');
    expect(hidden).toBe(23);
    expect(lines.slice(hidden + 1, lines.indexOf('--- last 12 lines ---'))).toEqual([
      'Tests (vitest): 303 passed, 2 failed, 1 skipped.',
      'Failing: test/str.test.ts > str > upper; test/str.test.ts > str > trim',
      '--- 3 lines in between mention errors or failures: ---',
      ' ❯ test/str.test.ts (5 tests | 2 failed | 1 skipped) 6ms',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯',
      ' FAIL  test/str.test.ts > str > upper',
    ]);
    expect(lines.slice(-12)).toEqual(text.split('\n').slice(-12));
  });

  it('lists at most 8 error lines of the middle, with the count of all; errors in head and tail are not repeated', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `[${i}] compiling module ${i}`);
    lines[3] = 'error: in the head';
    lines[398] = 'fatal: in the tail';
    for (const i of [50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160]) lines[i] = `src/m${i}.ts(1,1): error TS2345: bad argument ${i}`;
    lines[200] = 'Traceback (most recent call last):';
    const stub = buildStub(bash(lines.join('\n'), 'make'));
    const out = stub?.text.split('\n') ?? [];
    const at = out.indexOf('--- 13 lines in between mention errors or failures; the first 8: ---');
    expect(at).toBeGreaterThan(0);
    expect(out.slice(at + 1, at + 9)).toEqual([50, 60, 70, 80, 90, 100, 110, 120].map((i) => `src/m${i}.ts(1,1): error TS2345: bad argument ${i}`));
    expect(out[at + 9]).toBe('--- last 12 lines ---');
    expect(out.filter((l) => l === 'error: in the head')).toHaveLength(1);
    expect(out.filter((l) => l === 'fatal: in the tail')).toHaveLength(1);
  });

  it('one error line in the middle is counted in the singular', () => {
    const lines = numbers(500);
    lines[250] = 'panic: runtime error: index out of range';
    const out = buildStub(bash(lines.join('\n'), 'go run .'))?.text.split('\n') ?? [];
    expect(out).toContain('--- 1 line in between mention errors or failures: ---');
    expect(out[out.indexOf('--- 1 line in between mention errors or failures: ---') + 1]).toBe('panic: runtime error: index out of range');
  });

  it('leaves an interrupted command and an image alone', () => {
    const text = numbers(2000).join('\n');
    expect(buildStub(bash(text, 'seq 1 2000', { response: { stdout: text, stderr: '', interrupted: true, isImage: false } }))).toBeUndefined();
    expect(buildStub(bash(text, 'seq 1 2000', { response: { stdout: text, stderr: '', interrupted: false, isImage: true } }))).toBeUndefined();
  });

  it('refuses when the stub would not save at least half, and every stub it returns does', () => {
    // 60 lines of 12 characters (779 chars): head, tail and header come to more than half.
    expect(buildStub(bash(Array.from({ length: 60 }, (_, i) => `line ${i}`.padEnd(12, '.')).join('\n')))).toBeUndefined();
    for (const n of [40, 80, 120, 200, 400, 1_000]) {
      const text = Array.from({ length: n }, (_, i) => `row ${i} ${'-'.repeat(30)}`).join('\n');
      const stub = buildStub(bash(text, 'cat rows'));
      if (stub !== undefined) expect(stub.text.length).toBeLessThanOrEqual(text.length / 2);
      if (n >= 200) expect(stub).toBeDefined();
    }
  });
});

describe('buildStub: Read', () => {
  const filler = (i: number) => `  const v${i} = compute(${i}); // a filler line that makes the file long enough`;
  function readInput(content: string, file: Record<string, unknown> = {}, over: Partial<StubInput> = {}): StubInput {
    const numLines = content.split('\n').length;
    return {
      tool: 'Read',
      input: { file_path: '/p/src/big.ts' },
      response: { type: 'text', file: { filePath: '/p/src/big.ts', content, numLines, startLine: 1, totalLines: numLines, ...file } },
      text: content,
      bytes: Buffer.byteLength(content),
      ref: 'r-3',
      parts: 1,
      showCommand: '/recall show',
      reason: 'working zone 80% full',
      ...over,
    };
  }
  const source = (n: number, decls: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => decls[i + 1] ?? filler(i + 1));

  /** The stub's output, checked for Claude Code's FileReadOutput shape. */
  function readShape(stub: ReturnType<typeof buildStub>) {
    expect(stub).toBeDefined();
    const output = stub?.output as { type: string; file: Record<string, unknown> };
    expect(Object.keys(output).sort()).toEqual(READ_KEYS);
    expect(output.type).toBe('text');
    expect(Object.keys(output.file).sort()).toEqual(READ_FILE_KEYS);
    for (const k of ['numLines', 'startLine', 'totalLines']) expect(typeof output.file[k]).toBe('number');
    expect(typeof output.file.filePath).toBe('string');
    expect(typeof output.file.content).toBe('string');
    expect(output.file.content).toBe(stub?.text);
    expect(output.file.numLines).toBe((output.file.content as string).split('\n').length);
    return output.file as { filePath: string; content: string; numLines: number; startLine: number; totalLines: number };
  }

  it('keeps the head with its real numbering and lists later declarations with their line numbers', () => {
    const lines = source(400, {
      5: 'export function early() {',
      100: 'export async function loadConfig(path: string) {',
      200: 'class Cache {',
      250: 'export interface Options {',
      300: '## Usage',
      350: 'def python_style():',
    });
    const file = readShape(buildStub(readInput(lines.join('\n'), {}, { parts: 2 })));
    expect(file).toMatchObject({ filePath: '/p/src/big.ts', startLine: 1, totalLines: 400 });
    expect(file.content.split('\n')).toEqual([
      ...lines.slice(0, 20),
      '[context-lifecycle] Read /p/src/big.ts: only lines 1–20 of 1–400 (file has 400 lines) are shown, to save context (working zone 80% full).',
      'To see more: Read with offset/limit (exact lines), or `/recall show r-3` (part 1 of 2) for the archived text.',
      'Outline (line: declaration):',
      '  100: export async function loadConfig(path: string) {',
      '  200: class Cache {',
      '  250: export interface Options {',
      '  300: ## Usage',
      '  350: def python_style():',
    ]);
    expect(file.numLines).toBe(28);
  });

  it('a read from an offset keeps startLine and totalLines; outline numbers count from startLine', () => {
    const lines = source(400, { 100: 'export function atHundred() {', 380: 'export const LIMIT = 5;' });
    const file = readShape(buildStub(readInput(lines.join('\n'), { startLine: 201, totalLines: 900 })));
    expect(file.startLine).toBe(201);
    expect(file.totalLines).toBe(900);
    const out = file.content.split('\n');
    expect(out.slice(0, 20)).toEqual(lines.slice(0, 20));
    expect(out[20]).toBe(
      '[context-lifecycle] Read /p/src/big.ts: only lines 201–220 of 201–600 (file has 900 lines) are shown, to save context (working zone 80% full).',
    );
    expect(out.slice(-2)).toEqual(['  300: export function atHundred() {', '  580: export const LIMIT = 5;']);
  });

  it('lists an indented member only when its own line has a "(": not for one that a later line has', () => {
    const lines = source(400, {
      100: '  public static Cache build(int size) {',
      150: '  private final Map<String, Integer> counts',
      151: '      = new HashMap<>();',
      300: '    protected void flush() {',
    });
    const out = readShape(buildStub(readInput(lines.join('\n')))).content.split('\n');
    expect(out.slice(out.indexOf('Outline (line: declaration):') + 1)).toEqual([
      '  100: public static Cache build(int size) {',
      '  300: protected void flush() {',
    ]);
  });

  it('shows at most 40 outline lines and counts the rest', () => {
    const decls: Record<number, string> = {};
    for (let i = 0; i < 60; i++) decls[30 + i * 5] = `export function f${i}() {`;
    const file = readShape(buildStub(readInput(source(400, decls).join('\n'))));
    const out = file.content.split('\n');
    const outline = out.slice(out.indexOf('Outline (line: declaration):') + 1);
    expect(outline).toHaveLength(41);
    expect(outline[0]).toBe('  30: export function f0() {');
    expect(outline[39]).toBe('  225: export function f39() {');
    expect(outline[40]).toBe('  … 20 more');
    expect(file.numLines).toBe(out.length);
  });

  it('without declarations: no outline; filePath from the input when the response lacks it', () => {
    const content = source(300).join('\n');
    const stub = buildStub(
      readInput(
        content,
        {},
        { input: { file_path: '/p/notes.txt' }, response: { type: 'text', file: { content, numLines: 300, startLine: 1, totalLines: 300 } } },
      ),
    );
    const file = readShape(stub);
    expect(file.filePath).toBe('/p/notes.txt');
    expect(file.content).not.toContain('Outline');
    expect(file.numLines).toBe(22);
  });

  it('fills in startLine and totalLines as numbers when the response lacks them', () => {
    const content = source(300).join('\n');
    const file = readShape(buildStub(readInput(content, {}, { response: { type: 'text', file: { filePath: '/p/src/big.ts', content, numLines: 300 } } })));
    expect(file.startLine).toBe(1);
    expect(file.totalLines).toBe(300);
  });

  it('refuses a short file, a non-text read (image, notebook) and a response without content', () => {
    expect(buildStub(readInput(source(25).join('\n')))).toBeUndefined();
    const content = source(300).join('\n');
    expect(buildStub(readInput(content, {}, { response: { type: 'image', file: { base64: 'x'.repeat(60_000), type: 'image/png' } } }))).toBeUndefined();
    expect(buildStub(readInput(content, {}, { response: { type: 'notebook', file: { filePath: '/p/a.ipynb', cells: [] } } }))).toBeUndefined();
    expect(buildStub(readInput(content, {}, { response: { type: 'text', file: { filePath: '/p/a.ts' } } }))).toBeUndefined();
    expect(buildStub(readInput(content, {}, { response: { type: 'text' } }))).toBeUndefined();
  });
});

describe('buildStub: Grep', () => {
  function grep(content: string, over: Partial<StubInput> = {}, response: Record<string, unknown> = {}): StubInput {
    return {
      tool: 'Grep',
      input: { pattern: 'fetchPages', output_mode: 'content' },
      response: { mode: 'content', numFiles: 0, filenames: [], content, numLines: content.split('\n').length, ...response },
      text: content,
      bytes: Buffer.byteLength(content),
      ref: 'r-4',
      parts: 1,
      showCommand: '/recall show',
      reason: REASON,
      ...over,
    };
  }
  const match = (file: string, line: number) => `${file}:${line}:  const pages = await fetchPages(client, { limit: ${line} });`;

  it('returns {mode, numFiles, filenames: [], content, numLines} with matches per file, most first', () => {
    const lines = [
      ...Array.from({ length: 30 }, (_, i) => match('src/api.ts', i + 1)),
      ...Array.from({ length: 12 }, (_, i) => match('src/cli.ts', i + 1)),
      ...Array.from({ length: 50 }, (_, i) => match('test/api.test.ts', i + 1)),
    ];
    const stub = buildStub(grep(lines.join('\n'), {}, { numFiles: 3 }));
    expect(stub).toBeDefined();
    if (stub === undefined) return;
    expect(Object.keys(stub.output).sort()).toEqual(GREP_KEYS);
    expect(stub.output).toEqual({ mode: 'content', numFiles: 3, filenames: [], content: stub.text, numLines: stub.text.split('\n').length });
    expect(stub.text.split('\n')).toEqual([
      `[context-lifecycle] Grep "fetchPages": output shortened in context (${REASON}). The full output (${Buffer.byteLength(lines.join('\n')).toLocaleString('en-US')} bytes, 92 lines) is archived: \`/recall show r-4\`.`,
      '92 matching lines in 3 files.',
      'Matches per file:',
      '  test/api.test.ts: 50',
      '  src/api.ts: 30',
      '  src/cli.ts: 12',
      '--- first 20 lines ---',
      ...lines.slice(0, 20),
    ]);
  });

  it('counts files from lines without line numbers and names numFiles itself when the response lacks it', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `pkg/mod${i % 4}.go:\tresult := fetchPages(ctx, ${i})`);
    const stub = buildStub(grep(lines.join('\n'), {}, { numFiles: undefined }));
    expect(stub?.output.numFiles).toBe(4);
    expect(stub?.text.split('\n').slice(1, 7)).toEqual([
      '120 matching lines in 4 files.',
      'Matches per file:',
      '  pkg/mod0.go: 30',
      '  pkg/mod1.go: 30',
      '  pkg/mod2.go: 30',
      '  pkg/mod3.go: 30',
    ]);
  });

  it('lists 15 files and counts the others', () => {
    const lines = Array.from({ length: 200 }, (_, i) => match(`src/f${String(i % 20).padStart(2, '0')}.ts`, i));
    const out = buildStub(grep(lines.join('\n'), {}, { numFiles: 20 }))?.text.split('\n') ?? [];
    const at = out.indexOf('Matches per file:');
    expect(out.slice(at + 1, at + 17).filter((l) => /^ {2}src\/f\d\d\.ts: 10$/.test(l))).toHaveLength(15);
    expect(out[at + 16]).toBe('  … 5 more files');
  });

  // A first "-<digits>-" in the path is no line-number separator: a date-named file keeps its name.
  it('counts a date-named file (db/migrations/2024-01-15-add-users.sql) under its full name', () => {
    const lines: string[] = [];
    for (let i = 0; i < 80; i++) lines.push(`db/migrations/2024-01-15-add-users.sql:${i + 1}:CREATE TABLE users_${i} (id int, name text, email text);`);
    for (let i = 0; i < 20; i++) lines.push(`src/db.ts:${i + 1}:// the users table, column ${i}, is created by the migration`);
    const stub = buildStub(grep(lines.join('\n'), { input: { pattern: 'users' } }, { numFiles: 2 }));
    expect(stub).toBeDefined();
    expect(stub?.text.split('\n').slice(1, 5)).toEqual([
      '100 matching lines in 2 files.',
      'Matches per file:',
      '  db/migrations/2024-01-15-add-users.sql: 80',
      '  src/db.ts: 20',
    ]);
  });

  // With -C/-A/-B, ripgrep prints context lines as `path-N-text` and `--` between groups. A context
  // line holding a ':' (a type annotation, an object literal) is taken for a `path:text` match line,
  // so each becomes a file of its own ("src/api.ts-4-  const options: 1"), and the count of
  // "matching lines" includes every context and separator line.
  it('with context lines (-C 1), counts only the match lines and the real files', () => {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      const n = i * 10 + 5;
      lines.push(
        `src/api.ts-${n - 1}-  const options: RequestInit = { method: 'GET' };`,
        match('src/api.ts', n),
        `src/api.ts-${n + 1}-  return pages.flat();`,
        '--',
      );
    }
    const stub = buildStub(grep(lines.join('\n'), { input: { pattern: 'fetchPages', '-C': 1, '-n': true } }, { numFiles: 1 }));
    expect(stub).toBeDefined();
    expect(stub?.text.split('\n').slice(1, 5)).toEqual(['40 matching lines in 1 file.', 'Matches per file:', '  src/api.ts: 40', '--- first 20 lines ---']);
  });

  it.each(['files_with_matches', 'count'])('leaves mode %s alone', (mode) => {
    const content = Array.from({ length: 500 }, (_, i) => `src/file${i}.ts`).join('\n');
    expect(buildStub(grep(content, {}, { mode }))).toBeUndefined();
  });

  it('refuses a small result that a stub would not halve', () => {
    expect(buildStub(grep([match('a.ts', 1), match('a.ts', 2)].join('\n')))).toBeUndefined();
  });
});

// L1 stubs (pure): what PostToolUse puts in context in place of a large tool output once the Working
// zone passes L0→L1. A stub says what ran, shows the head (and for commands the tail), sums up the
// rest (lines, failing tests, error lines, matches per file, a file's outline with line numbers) and
// gives the exact call that brings the full text back from L2. It is returned in the tool's own
// output shape (reference §11.1): anything else is silently ignored by Claude Code.
import { countsText, parseTestOutput } from '../phase/test-results.ts';
import { thousands } from './thousands.ts';

/** Tools whose output shape is known (verified with 2.1.332); edits are never stubbed. */
export const STUBBABLE_TOOLS = new Set(['Bash', 'Read', 'Grep']);
/** Over this, Claude Code shows a Grep result as a 2 KB preview itself (reference §11.1). */
const GREP_INLINE_CHARS = 20_000;

/**
 * Whether a tool's output may be stubbed at all: a known shape, and not one the client already shows
 * as a 2 KB preview (a persisted Bash output, a large Grep), where a stub would not be smaller.
 */
export function stubbable(tool: string, out: { persistedPath?: string; text: string }): boolean {
  if (!STUBBABLE_TOOLS.has(tool) || out.persistedPath !== undefined) return false;
  return !(tool === 'Grep' && out.text.length > GREP_INLINE_CHARS);
}

export interface StubInput {
  tool: string;
  input: unknown;
  response: unknown;
  /** The full output text as the tool gave it (persisted outputs are never stubbed). */
  text: string;
  /** The full output's size in bytes. */
  bytes: number;
  /** The L2 ref of the output's first part, and how many parts it has. */
  ref: string;
  parts: number;
  /** `/recall show` or `/context-lifecycle:recall show`. */
  showCommand: string;
  /** Why: "working zone 64% full". */
  reason: string;
}

export interface Stub {
  /** The value for `hookSpecificOutput.updatedToolOutput`. */
  output: Record<string, unknown>;
  /** The stub's text (what the model reads). */
  text: string;
}

const HEAD_LINES = 20;
const TAIL_LINES = 12;
const LINE_CHARS = 240;
const ERROR_LINES = 8;
const OUTLINE_LINES = 40;
/** A stub must save at least this share of the output, or the output stays. */
const MIN_SAVING = 0.5;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What every stub's first line says: a transcript's copy of a stubbed output is known by it. */
export const STUB_MARK = 'output shortened in context';

export function buildStub(s: StubInput): Stub | undefined {
  if (!STUBBABLE_TOOLS.has(s.tool) || !isObj(s.response)) return undefined;
  const input = isObj(s.input) ? s.input : {};
  let stub: Stub | undefined;
  if (s.tool === 'Bash') stub = bashStub(s, input, s.response);
  else if (s.tool === 'Read') stub = readStub(s, input, s.response);
  else if (s.tool === 'Grep') stub = grepStub(s, input, s.response);
  if (stub === undefined || stub.text.length > s.text.length * (1 - MIN_SAVING)) return undefined;
  return stub;
}

function header(s: StubInput, what: string): string {
  const size = `${thousands(s.bytes)} bytes, ${thousands(lineCount(s.text))} lines`;
  const parts = s.parts > 1 ? ` (part 1 of ${s.parts}; each part names the next)` : '';
  return `[context-lifecycle] ${what}: ${STUB_MARK} (${s.reason}). The full output (${size}) is archived: \`${s.showCommand} ${s.ref}\`${parts}.`;
}

function bashStub(s: StubInput, input: Obj, response: Obj): Stub | undefined {
  // An interrupted command or an image is left alone: Claude has to see what happened.
  if (response.interrupted === true || response.isImage === true) return undefined;
  const command = typeof input.command === 'string' ? input.command : '';
  const lines = s.text.replace(/\n$/, '').split('\n');
  const out = [header(s, 'Bash'), `$ ${clip(oneLine(command), 400)}`];
  const summary = commandSummary(s.text, command, lines.length);
  const head = lines.slice(0, HEAD_LINES).map(clipLine);
  const tail = lines.length > HEAD_LINES + TAIL_LINES ? lines.slice(-TAIL_LINES).map(clipLine) : lines.slice(HEAD_LINES).map(clipLine);
  out.push(`--- first ${head.length} lines ---`, ...head);
  if (lines.length > HEAD_LINES + TAIL_LINES) out.push(`--- ${thousands(lines.length - HEAD_LINES - TAIL_LINES)} lines not shown ---`);
  if (summary.length > 0) out.push(...summary);
  if (tail.length > 0) out.push(`--- last ${tail.length} lines ---`, ...tail);
  const text = out.join('\n');
  return { text, output: { stdout: text, stderr: '', interrupted: false, isImage: false } };
}

/** What the omitted middle held that Claude may need: test results, error lines. */
function commandSummary(text: string, command: string, lines: number): string[] {
  const out: string[] = [];
  const test = parseTestOutput(text, command);
  if (test !== undefined) {
    out.push(`Tests (${test.runner}): ${countsText(test)}.`);
    if (test.failures.length > 0) out.push(`Failing: ${test.failures.map((f) => clip(f, 160)).join('; ')}`);
  }
  const errors: string[] = [];
  let count = 0;
  const all = text.split('\n');
  // Only the middle: the head and tail are shown anyway.
  for (const line of all.slice(HEAD_LINES, Math.max(HEAD_LINES, lines - TAIL_LINES))) {
    if (!/\b(?:error|fatal|exception|panic|traceback|failed|failure)\b|✗|✖|\bFAIL\b/i.test(line)) continue;
    count += 1;
    if (errors.length < ERROR_LINES) errors.push(clipLine(line));
  }
  if (count > 0)
    out.push(
      `--- ${count} line${count === 1 ? '' : 's'} in between mention errors or failures${count > errors.length ? `; the first ${errors.length}` : ''}: ---`,
      ...errors,
    );
  return out;
}

function readStub(s: StubInput, input: Obj, response: Obj): Stub | undefined {
  const file = isObj(response.file) ? response.file : undefined;
  if (file === undefined || typeof file.content !== 'string' || response.type !== 'text') return undefined;
  const filePath = typeof file.filePath === 'string' ? file.filePath : typeof input.file_path === 'string' ? input.file_path : '';
  const startLine = typeof file.startLine === 'number' ? file.startLine : 1;
  const totalLines = typeof file.totalLines === 'number' ? file.totalLines : lineCount(file.content);
  const lines = file.content.split('\n');
  // Claude Code numbers the stub's lines from startLine: the head lines keep their real numbers,
  // and what follows them is plainly marked as ours.
  const head = lines.slice(0, HEAD_LINES).map(clipLine);
  const end = startLine + lines.length - 1;
  const outline = outlineOf(lines, startLine);
  const rest = [
    `[context-lifecycle] Read ${filePath}: only lines ${startLine}–${startLine + head.length - 1} of ${startLine}–${end} (file has ${totalLines} lines) are shown, to save context (${s.reason}).`,
    `To see more: Read with offset/limit (exact lines), or \`${s.showCommand} ${s.ref}\`${s.parts > 1 ? ` (part 1 of ${s.parts})` : ''} for the archived text.`,
  ];
  if (outline.length > 0) rest.push('Outline (line: declaration):', ...outline);
  const content = [...head, ...rest].join('\n');
  const numLines = head.length + rest.length;
  return { text: content, output: { type: 'text', file: { filePath, content, numLines, startLine, totalLines } } };
}

/** Top-level declarations and headings with their line numbers, so a targeted Read can follow. */
function outlineOf(lines: readonly string[], startLine: number): string[] {
  const out: string[] = [];
  let found = 0;
  for (let i = HEAD_LINES; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!isDeclaration(line)) continue;
    found += 1;
    if (out.length < OUTLINE_LINES) out.push(`  ${startLine + i}: ${clip(line.trim(), 120)}`);
  }
  if (found > out.length) out.push(`  … ${found - out.length} more`);
  return out;
}

const TOP_DECLARATION =
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|const|let|var|def|fn|func|struct|impl|trait|module|namespace)\s+[A-Za-z_$][\w$]*|^#{1,3}\s+\S|^(?:pub\s+)?(?:fn|struct|enum|trait|impl)\b/;
const MEMBER_DECLARATION = /^\s{0,4}(?:public|private|protected)\s+(?:static\s+)?[\w<>[\]]+\s+\w+\s*\(/;

/** Most lines of a large file are neither: a look at the first character spares the regexes. */
function isDeclaration(line: string): boolean {
  const c = line.charCodeAt(0);
  if (c === 32) return line.includes('(') && MEMBER_DECLARATION.test(line); // indented: class members only
  const letterOrHash = (c >= 97 && c <= 122) || c === 35 || (c >= 65 && c <= 90);
  return letterOrHash && TOP_DECLARATION.test(line);
}

function grepStub(s: StubInput, input: Obj, response: Obj): Stub | undefined {
  // Only the content mode was verified to take a replacement; file lists and counts stay.
  if (response.mode !== 'content' || typeof response.content !== 'string') return undefined;
  const all = response.content.split('\n').filter((l) => l !== '' && l !== '--');
  // A match line is `path:line:text` with line numbers, else `path:text`; context lines (`path-line-`,
  // `path-text`) and group separators are not matches.
  const numbered = all.some((l) => /^.+?:\d+:/.test(l));
  const match = numbered ? /^(.+?):\d+:/ : /^([^:]+):/;
  const lines = all.filter((l) => match.test(l));
  const perFile = new Map<string, number>();
  for (const line of lines) {
    const m = match.exec(line);
    if (m?.[1] !== undefined) perFile.set(m[1], (perFile.get(m[1]) ?? 0) + 1);
  }
  const pattern = typeof input.pattern === 'string' ? input.pattern : '';
  const top = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const out = [
    header(s, `Grep ${JSON.stringify(clip(pattern, 120))}`),
    `${thousands(lines.length)} matching lines in ${perFile.size || '?'} file${perFile.size === 1 ? '' : 's'}.`,
  ];
  if (top.length > 0)
    out.push(
      'Matches per file:',
      ...top.map(([f, n]) => `  ${f}: ${n}`),
      ...(perFile.size > top.length ? [`  … ${perFile.size - top.length} more files`] : []),
    );
  out.push(`--- first ${Math.min(HEAD_LINES, all.length)} lines ---`, ...all.slice(0, HEAD_LINES).map(clipLine));
  const text = out.join('\n');
  return {
    text,
    output: {
      mode: 'content',
      numFiles: typeof response.numFiles === 'number' ? response.numFiles : perFile.size,
      filenames: [],
      content: text,
      numLines: lineCount(text),
    },
  };
}

const oneLine = (t: string) => t.replace(/\s*\n\s*/g, ' ⏎ ');
const clip = (t: string, max: number) => (t.length <= max ? t : `${t.slice(0, max - 1)}…`);
const clipLine = (line: string) => clip(line, LINE_CHARS);
const lineCount = (t: string) => (t === '' ? 0 : t.split('\n').length - (t.endsWith('\n') ? 1 : 0));

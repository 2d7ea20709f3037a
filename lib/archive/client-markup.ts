// Claude Code records a typed slash command as markup (`<command-message>…</command-message>
// <command-name>/x</command-name><command-args>…</command-args>`) and the output of its own local
// commands (/compact, /cost) inside `<local-command-stdout>`. L2 keeps them as the user typed and
// saw them: the tag names were words of every such chunk ("command", "message", "args" matched any
// query about commands), the "x is running…" message is the client's, and an empty wrapper made a
// chunk of nothing. Only a text that starts with the markup is the client's: a prompt that merely
// mentions the tags stays as written. The notes the client writes into a user's message (system
// reminders, the interruption notice) are left out, and the reminder it appends to a tool result.
// Scans with indexOf: linear on any input. Pure.

const LOCAL = /^<(local-command-(?:stdout|stderr))>([\s\S]*)<\/\1>$/;

/** A user entry's text as typed (`/x args`) or as printed (a local command's output); other text as is. */
export function typedText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('<local-command-')) {
    const local = LOCAL.exec(trimmed);
    return local === null ? text : (local[2] as string).trim();
  }
  if (!trimmed.startsWith('<command-name>') && !trimmed.startsWith('<command-message>')) return text;
  // The name and the message are the client's own words: the first close ends them. The arguments
  // and contents are what the user typed, which may hold a closing tag: the last close ends them.
  const name = element(trimmed, 'command-name', false);
  if (name === undefined || name.inner.trim() === '') return text;
  const parts = [name, element(trimmed, 'command-message', false), element(trimmed, 'command-args', true), element(trimmed, 'command-contents', true)]
    .filter((p) => p !== undefined)
    .sort((a, b) => a.start - b.start);
  if (parts.some((p, i) => i > 0 && p.start < (parts[i - 1] as Element).end)) return text; // tangled: keep it whole
  const args = parts.find((p) => p.tag === 'command-args')?.inner.trim() ?? '';
  const contents = parts.find((p) => p.tag === 'command-contents')?.inner.trim() ?? '';
  let rest = '';
  let at = 0;
  for (const p of parts) {
    rest += trimmed.slice(at, p.start);
    at = p.end;
  }
  rest = (rest + trimmed.slice(at)).trim();
  const command = name.inner.trim();
  const typed = `${command.startsWith('/') ? command : `/${command}`}${args === '' ? '' : ` ${args}`}`;
  return [typed, contents, rest].filter((s) => s !== '').join('\n\n');
}

interface Element {
  tag: string;
  start: number;
  end: number;
  inner: string;
}

function element(text: string, tag: string, lastClose: boolean): Element | undefined {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const start = text.indexOf(open);
  if (start === -1) return undefined;
  const from = start + open.length;
  const stop = lastClose ? text.lastIndexOf(close) : text.indexOf(close, from);
  if (stop < from) return undefined;
  return { tag, start, end: stop + close.length, inner: text.slice(from, stop) };
}

const REMINDER_OPEN = '<system-reminder>';
const REMINDER_CLOSE = '</system-reminder>';
/** The notice Claude Code records as a user message when the user stops a turn (`… for tool use`). */
const INTERRUPTED = /^\[Request interrupted by user[^\]\n]{0,40}\]$/;

/**
 * A user entry's text without what Claude Code wrote into it: `<system-reminder>` blocks (a hook's
 * feedback, a note of the harness; never the user's words) and, left alone, the notice of an
 * interrupted turn. Both were archived as things the user said, and came back for "cwd changed" or
 * "interrupted". A block is the client's where it starts its line (after blanks or another such
 * block, the prompt may follow on the same line) or where nothing but blanks and blocks follow it;
 * one inside a sentence ("my hook prints <system-reminder>…</system-reminder> but…") is the user
 * quoting it, and an unclosed tag is the user's too: both stay as written.
 */
export function withoutClientNotes(text: string): string {
  const blocks: Array<[number, number]> = [];
  for (let open = text.indexOf(REMINDER_OPEN); open !== -1; ) {
    const close = text.indexOf(REMINDER_CLOSE, open + REMINDER_OPEN.length);
    if (close === -1) break;
    const end = close + REMINDER_CLOSE.length;
    blocks.push([open, end]);
    open = text.indexOf(REMINDER_OPEN, end);
  }
  const client = blocks.map(() => false);
  blocks.forEach(([open], i) => {
    const previous = i > 0 && client[i - 1] === true ? (blocks[i - 1] as [number, number])[1] : 0;
    client[i] = blank(text.slice(Math.max(text.lastIndexOf('\n', open - 1) + 1, previous), open));
  });
  for (let i = blocks.length - 1, stop = text.length; i >= 0; i--) {
    const [open, end] = blocks[i] as [number, number];
    if (!blank(text.slice(end, stop))) break;
    client[i] = true;
    stop = open;
  }
  let out = '';
  let kept = 0;
  blocks.forEach(([open, end], i) => {
    if (client[i] !== true) return;
    out += text.slice(kept, open);
    kept = end;
  });
  const rest = kept === 0 ? text : (out + text.slice(kept)).trim();
  return INTERRUPTED.test(rest.trim()) ? '' : rest;
}

const blank = (s: string) => s.trim() === '';

/**
 * A tool result without the `<system-reminder>` block Claude Code appends to it (to every Read: a
 * note on malware): harness text, not what the tool returned, and the same words in every chunk.
 */
export function withoutTrailingReminder(text: string): string {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(REMINDER_CLOSE)) return text;
  const open = trimmed.lastIndexOf(REMINDER_OPEN);
  return open < 0 ? text : trimmed.slice(0, open).trimEnd();
}

// Reading a Claude Code transcript (~/.claude/projects/<sanitized cwd>/<session>.jsonl) in tests:
// every line with its byte range, plus finders for the entries the e2e tests look at.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TranscriptLine {
  /** 1-based line number. */
  n: number;
  /** Byte offset where the line starts and where it ends (after its newline). */
  start: number;
  end: number;
  entry: Record<string, unknown>;
}

export interface Transcript {
  path: string;
  size: number;
  lines: TranscriptLine[];
}

/** Claude Code's folder name for a cwd (reference §5.1); our test paths are short, so no hash. */
export function transcriptPath(configDir: string, cwd: string, sessionId: string): string {
  return join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${sessionId}.jsonl`);
}

export function readTranscript(path: string): Transcript {
  const buf = readFileSync(path);
  const lines: TranscriptLine[] = [];
  let start = 0;
  let n = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    const end = nl === -1 ? buf.length : nl + 1;
    const text = buf.subarray(start, nl === -1 ? buf.length : nl).toString('utf8');
    n++;
    if (text.trim() !== '') lines.push({ n, start, end, entry: JSON.parse(text) as Record<string, unknown> });
    start = end;
  }
  return { path, size: buf.length, lines };
}

type Obj = Record<string, unknown>;
const attachmentOf = (l: TranscriptLine): Obj | undefined =>
  l.entry.type === 'attachment' && typeof l.entry.attachment === 'object' && l.entry.attachment !== null ? (l.entry.attachment as Obj) : undefined;

/** Attachment entries, optionally of one `attachment.type`. */
export function attachments(t: Transcript, type?: string): Array<TranscriptLine & { attachment: Obj }> {
  const out: Array<TranscriptLine & { attachment: Obj }> = [];
  for (const l of t.lines) {
    const a = attachmentOf(l);
    if (a !== undefined && (type === undefined || a.type === type)) out.push({ ...l, attachment: a });
  }
  return out;
}

/** Attachments that report a hook failing (reference §2.1, §11.1). */
export function hookErrorAttachments(t: Transcript): Obj[] {
  return attachments(t)
    .map((l) => l.attachment)
    .filter((a) => a.type === 'hook_non_blocking_error' || a.type === 'hook_error_during_execution' || a.type === 'hook_blocking_error');
}

/**
 * The additionalContext our SessionStart hook returned for `source`, taken from the transcript's
 * `hook_success` attachments (hookName `SessionStart:<source>`), in transcript order.
 */
export function sessionStartContexts(t: Transcript, source: string): Array<{ line: TranscriptLine; text: string }> {
  const out: Array<{ line: TranscriptLine; text: string }> = [];
  for (const l of attachments(t, 'hook_success')) {
    if (l.attachment.hookName !== `SessionStart:${source}`) continue;
    const stdout = typeof l.attachment.stdout === 'string' ? l.attachment.stdout : '';
    try {
      const parsed = JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: unknown } };
      const text = parsed.hookSpecificOutput?.additionalContext;
      if (typeof text === 'string') out.push({ line: l, text });
    } catch {
      // Plain-text output: not ours (ours always prints JSON on SessionStart).
    }
  }
  return out;
}

export function compactBoundaries(t: Transcript): Array<TranscriptLine & { trigger: unknown; preTokens: unknown }> {
  return t.lines
    .filter((l) => l.entry.type === 'system' && l.entry.subtype === 'compact_boundary')
    .map((l) => {
      const meta = (l.entry.compactMetadata ?? {}) as Obj;
      return { ...l, trigger: meta.trigger, preTokens: meta.preTokens };
    });
}

/** Main-thread assistant lines whose content has a text block containing `needle`. */
export function assistantTextLines(t: Transcript, needle: string): TranscriptLine[] {
  return t.lines.filter((l) => {
    if (l.entry.type !== 'assistant' || l.entry.isSidechain === true) return false;
    const content = (l.entry.message as Obj | undefined)?.content;
    return Array.isArray(content) && content.some((b) => (b as Obj).type === 'text' && String((b as Obj).text).includes(needle));
  });
}

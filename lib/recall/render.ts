// Recall results as Markdown within a token budget (about 4 characters a token), best first. Each
// hit names where and when it happened and its ref for `/recall show <ref>`. Pure.
import type { RecallResult } from './search.ts';

export const DEFAULT_BUDGET_TOKENS = 2_000;
const CHARS_PER_TOKEN = 4;

export interface RenderOptions {
  budgetTokens?: number;
  showCommand: string;
  /** The time the query names, in words (describeSpans), for the answer when nothing matched. */
  when?: string;
}

export function renderResults(query: string, results: readonly RecallResult[], options: RenderOptions): string {
  const budget = (options.budgetTokens ?? DEFAULT_BUDGET_TOKENS) * CHARS_PER_TOKEN;
  if (results.length === 0) {
    const from = options.when === undefined ? '' : ` from ${options.when}`;
    return `No archived context${from} matches \`${echo(query)}\`. Try other words, fewer filters, or \`--all-projects\`.`;
  }
  const lines = [`Recall for \`${echo(query)}\`: ${results.length} hit${results.length === 1 ? '' : 's'}, best first.`, ''];
  let used = lines.join('\n').length;
  let shown = 0;
  // Room kept for the closing "(N more not shown…)" line, so the whole answer fits the budget.
  const trailer = `\n(${results.length} more not shown: token budget)`.length;
  for (const [i, r] of results.entries()) {
    const what = `${r.type === 'tool' ? `tool ${r.tool ?? ''}`.trim() : r.type}${r.subagent === true ? ' in a subagent' : ''}`;
    const block = [
      `${i + 1}. **${oneLine(r.title)}** (${what}, ${r.timestamp.slice(0, 16).replace('T', ' ')}, session ${r.sessionId.slice(0, 8)}${r.phase !== 'unknown' ? `, ${r.phase}` : ''})`,
      `   ${r.snippet}`,
      `   ref \`${r.ref}\`: full text with \`${options.showCommand} ${r.ref}\``,
      '',
    ].join('\n');
    const room = budget - used - 1 - (i < results.length - 1 ? trailer : 0); // 1: the joining newline
    if (block.length > room) {
      // The best hit is always shown, cut to fit; later ones that do not fit are counted instead.
      if (shown === 0 && room > 1) {
        lines.push(`${block.slice(0, room - 1)}…`);
        used += room + 1;
        shown += 1;
      }
      break;
    }
    lines.push(block);
    used += block.length + 1;
    shown += 1;
  }
  if (shown < results.length) lines.push(`(${results.length - shown} more not shown: token budget)`);
  return lines.join('\n').trimEnd();
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
/** The query as echoed in a heading: one line, no backticks (it sits in a code span), at most 120 characters. */
const QUERY_ECHO = 120;
export const echo = (q: string) => {
  const s = oneLine(q).replace(/`/g, "'");
  return s.length > QUERY_ECHO ? `${s.slice(0, QUERY_ECHO - 1)}…` : s;
};

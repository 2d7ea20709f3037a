// Recall results as Markdown within a token budget (about 4 characters a token), best first. Each
// hit names where and when it happened and its ref for `/recall show <ref>`. Pure.
import type { RecallResult } from './search.ts';

export const DEFAULT_BUDGET_TOKENS = 2_000;
const CHARS_PER_TOKEN = 4;

export function renderResults(query: string, results: readonly RecallResult[], options: { budgetTokens?: number; showCommand: string }): string {
  const budget = (options.budgetTokens ?? DEFAULT_BUDGET_TOKENS) * CHARS_PER_TOKEN;
  if (results.length === 0) return `No archived context matches \`${oneLine(query)}\`. Try other words, fewer filters, or \`--all-projects\`.`;
  const lines = [`Recall for \`${oneLine(query)}\`: ${results.length} hit${results.length === 1 ? '' : 's'}, best first.`, ''];
  let used = lines.join('\n').length;
  let shown = 0;
  for (const [i, r] of results.entries()) {
    const what = r.type === 'tool' ? `tool ${r.tool ?? ''}`.trim() : r.type;
    const block = [
      `${i + 1}. **${oneLine(r.title)}** (${what}, ${r.timestamp.slice(0, 16).replace('T', ' ')}, session ${r.sessionId.slice(0, 8)}${r.phase !== 'unknown' ? `, ${r.phase}` : ''})`,
      `   ${r.snippet}`,
      `   ref \`${r.ref}\`: full text with \`${options.showCommand} ${r.ref}\``,
      '',
    ].join('\n');
    if (used + block.length > budget && shown > 0) break;
    lines.push(block.length > budget ? `${block.slice(0, budget - used - 1)}…` : block);
    used += block.length;
    shown += 1;
  }
  if (shown < results.length) lines.push(`(${results.length - shown} more not shown: token budget)`);
  return lines.join('\n').trimEnd();
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

// Markdown output helpers.

export function table(header, rows, align) {
  const a = align ?? header.map((_, i) => (i === 0 ? 'l' : 'r'));
  const sep = a.map((x) => (x === 'l' ? ':---' : '---:'));
  const line = (cells) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(sep), ...rows.map(line)].join('\n');
}

export const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
export const ratio = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
export const kb = (x) => (Number.isFinite(x) ? String(Math.round(x)) : 'n/a');
export const signedMs = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)}` : 'n/a');
export const verdict = (ok, invalid) => (invalid ? 'INVALID' : ok ? 'PASS' : 'FAIL');

// A count with thousands separators ("12,345"), as toLocaleString('en-US') writes a whole number,
// without calling it: its first call loads ICU's locale data, 12–16 ms of the hook that makes it
// (every stub and SessionStart's status line), where the hook's own work is a few ms. Pure.

/** `n` rounded to a whole number, digits grouped by three with commas. */
export function thousands(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const digits = String(Math.round(Math.abs(n)));
  if (digits.includes('e')) return String(Math.round(n)); // 1e21 and up: no grouping to do
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = `${end > 3 ? ',' : ''}${digits.slice(Math.max(0, end - 3), end)}${out}`;
  return n < 0 && digits !== '0' ? `-${out}` : out;
}

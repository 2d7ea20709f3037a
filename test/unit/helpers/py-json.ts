// The length of Python's `json.dumps(value)` with default settings (ensure_ascii=True, separators
// ', ' and ': '), which is how the fixture manifest measures tool results (`maxToolResultChars`).
//
// Faithful for strings (escapes per UTF-16 code unit, as CPython does), arrays, objects, booleans,
// null and integers. Not recoverable from a parsed JS value: a float written with a trailing `.0`
// (JS parses 1.0 as 1) and object keys that look like array indexes (JS orders them first). The
// fixtures contain neither inside tool results.

export function pyJsonDumpsLength(value: unknown): number {
  if (value === null || value === undefined) return 4; // null (a missing `content` is None in Python)
  if (value === true) return 4;
  if (value === false) return 5;
  if (typeof value === 'number') return pyNumber(value).length;
  if (typeof value === 'string') return pyStringLength(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 2;
    let n = 2 + 2 * (value.length - 1);
    for (const item of value) n += pyJsonDumpsLength(item);
    return n;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return 2;
    let n = 2 + 2 * (entries.length - 1);
    for (const [key, item] of entries) n += pyStringLength(key) + 2 + pyJsonDumpsLength(item);
    return n;
  }
  throw new TypeError(`not JSON: ${typeof value}`);
}

/** `"…"` with ensure_ascii: `"` and `\` and \b \f \n \r \t take 2 chars; other code units outside ' '..'~' take 6. */
export function pyStringLength(s: string): number {
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) n += 2;
    else if (c < 0x20 || c > 0x7e) n += 6;
    else n += 1;
  }
  return n;
}

function pyNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  // Python's float repr: shortest round-trip digits, exponent form from 1e16 up and below 1e-4.
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp >= 16 || exp < -4) {
    const [mant = '', e = '0'] = n.toExponential().split('e');
    const en = Number(e);
    return `${mant}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  }
  const s = String(n);
  return s.includes('.') ? s : `${s}.0`;
}

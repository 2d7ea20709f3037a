// Counts written with thousands separators without ICU (lib/context/thousands.ts), and the guard
// that keeps ICU's locale functions out of the hooks: the first toLocaleString('en-US') of a
// process costs 12–16 ms, the first localeCompare ~6 ms, and a stub or a status line paid it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { thousands } from '../../lib/context/thousands.ts';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('thousands', () => {
  it('writes whole numbers as toLocaleString("en-US") does', () => {
    const values = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1_000,
      1_001,
      9_999,
      10_000,
      12_345,
      99_999,
      100_000,
      123_456,
      999_999,
      1_000_000,
      1_234_567,
      200_000,
      1_000_000_000,
      2 ** 53 - 1,
    ];
    for (const n of values) {
      expect(thousands(n), String(n)).toBe(n.toLocaleString('en-US'));
      if (n !== 0) expect(thousands(-n), String(-n)).toBe((-n).toLocaleString('en-US'));
    }
  });

  it('rounds to a whole number and leaves what is not finite as it is', () => {
    expect(thousands(1234.4)).toBe('1,234');
    expect(thousands(1234.5)).toBe('1,235');
    expect(thousands(-0.2)).toBe('0');
    expect(thousands(Number.NaN)).toBe('NaN');
    expect(thousands(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});

describe('the hook bundles', () => {
  it('call no locale function of ICU (its data loads on the first call)', () => {
    const dir = join(repoRoot, 'dist', 'programs');
    const hooks = readdirSync(dir).filter((name) => name.endsWith('.js') && !name.startsWith('cli'));
    expect(hooks.length).toBeGreaterThan(5);
    for (const name of hooks) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect(text, name).not.toMatch(/\.toLocale(?:String|DateString|TimeString|LowerCase|UpperCase)\(|\.localeCompare\(|\bIntl\./);
    }
  });
});

// lib/cli/args.ts: known flags only; a typo is an error.
import { describe, expect, it } from 'vitest';
import { flagBool, flagString, parseArgs, UsageError } from '../../lib/cli/args.ts';

const spec = { booleans: ['json', 'dry-run'], values: ['cwd', 'session'] };

describe('parseArgs', () => {
  it('reads booleans, values in both spellings, and positionals', () => {
    const p = parseArgs(['recall', '--json', '--cwd', '/a', '--session=s1', 'word'], spec);
    expect(p.positional).toEqual(['recall', 'word']);
    expect(flagBool(p, 'json')).toBe(true);
    expect(flagBool(p, 'dry-run')).toBe(false);
    expect(flagString(p, 'cwd')).toBe('/a');
    expect(flagString(p, 'session')).toBe('s1');
    expect(flagString(p, 'json')).toBeUndefined();
  });

  it('takes everything after -- as positional', () => {
    expect(parseArgs(['--', '--json', '-x'], spec).positional).toEqual(['--json', '-x']);
  });

  it.each([
    [['--bogus'], /unknown option --bogus/],
    [['--json=1'], /takes no value/],
    [['--cwd'], /needs a value/],
    [['--cwd='], /needs a value/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArgs(argv, spec)).toThrow(UsageError);
    expect(() => parseArgs(argv, spec)).toThrow(message);
  });
});

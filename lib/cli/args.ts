// A small, strict argument parser: known flags only, so a typo is an error, not a silent no-op.
export interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], spec: { booleans: readonly string[]; values: readonly string[] }): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (spec.booleans.includes(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (spec.values.includes(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return { positional, flags };
}

export const flagString = (p: Parsed, name: string): string | undefined => {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
};
export const flagBool = (p: Parsed, name: string): boolean => p.flags.get(name) === true;

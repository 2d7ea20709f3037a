// Node's process.binding(), for the two libuv handles the hooks use directly: the pipe handle that
// reads stdin (stdin.ts) and the process handle that starts a detached job (detached.ts). Node lists
// both for userland and has kept their protocols since Node 12; each caller checks the shape it
// needs and falls back to the public module when anything differs.

/** A binding, or undefined where there is none or where asking would print DEP0111. */
export function nodeBinding(name: string): Record<string, unknown> | undefined {
  if (warnsOnBinding()) return undefined;
  const binding = (process as unknown as { binding?: (name: string) => unknown }).binding;
  if (typeof binding !== 'function') return undefined;
  try {
    const b = binding(name);
    return typeof b === 'object' && b !== null ? (b as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process.binding would print a deprecation warning (Node takes `_` for `-` in flags). */
function warnsOnBinding(): boolean {
  const options = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`.replaceAll('_', '-');
  return options.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1';
}

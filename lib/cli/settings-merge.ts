// Pure edits of a settings.json object: add our hook groups, remove them again. A handler is ours when
// its command runs a file in a folder named exactly `context-lifecycle`, in its `dist/` (so a moved or
// stale install is recognised too, and `…/git-context-lifecycle/dist/x.mjs` of another tool is not).
// Everything else (other keys, the user's own hooks, their order) is left as it was.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface HookGroup {
  matcher?: string;
  hooks: Array<{ type: string; command: string; timeout?: number }>;
}
export type HooksByEvent = Record<string, HookGroup[]>;

const OURS = /(?:^|[\s"'/\\])context-lifecycle[/\\]dist[/\\][a-z-]+\.mjs(?=["'\s]|$)/;
export const isOurCommand = (command: unknown): boolean => typeof command === 'string' && OURS.test(command);

/** Our hooks.json with `${CLAUDE_PLUGIN_ROOT}` replaced by an absolute, shell-quoted runtime path. */
export function resolveHooks(hooks: HooksByEvent, runtimeDir: string): HooksByEvent {
  const quoted = runtimeDir.replace(/(["\\$`])/g, '\\$1');
  const out: HooksByEvent = {};
  for (const [event, groups] of Object.entries(hooks)) {
    out[event] = groups.map((g) => ({
      ...g,
      hooks: g.hooks.map((h) => ({ ...h, command: h.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', quoted) })),
    }));
  }
  return out;
}

/** The file a command runs: the first double-quoted `.mjs` path, unescaped (the inverse of resolveHooks). */
export function commandFile(command: string): string | undefined {
  const quoted = /"((?:[^"\\]|\\.)+?\.mjs)"/.exec(command)?.[1];
  return quoted?.replace(/\\(.)/g, '$1');
}

/**
 * Why settings.json's `hooks` is not what Claude Code reads (an object of event → array of groups,
 * each with a `hooks` array), or undefined when it is (or absent). We refuse to merge into it.
 */
export function hooksShapeProblem(settings: Obj): string | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObj(hooks)) return '`hooks` is not an object';
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) return `\`hooks.${event}\` is not an array`;
    for (const [i, group] of groups.entries()) {
      if (!isObj(group) || !Array.isArray(group.hooks)) return `\`hooks.${event}[${i}]\` has no \`hooks\` array`;
    }
  }
  return undefined;
}

export function removeOurHooks(settings: Obj): { settings: Obj; removed: number } {
  if (!isObj(settings.hooks)) return { settings, removed: 0 };
  let removed = 0;
  const hooks: Obj = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObj(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const handlers = group.hooks.filter((h) => !(isObj(h) && isOurCommand(h.command)));
      removed += group.hooks.length - handlers.length;
      if (handlers.length === group.hooks.length) kept.push(group);
      else if (handlers.length > 0) kept.push({ ...group, hooks: handlers });
    }
    if (kept.length > 0) hooks[event] = kept;
  }
  const next: Obj = { ...settings };
  if (Object.keys(hooks).length > 0) next.hooks = hooks;
  else delete next.hooks;
  return { settings: next, removed };
}

export function addOurHooks(settings: Obj, ours: HooksByEvent): Obj {
  const { settings: clean } = removeOurHooks(settings);
  const hooks: Obj = isObj(clean.hooks) ? { ...clean.hooks } : {};
  for (const [event, groups] of Object.entries(ours)) {
    const existing = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    hooks[event] = [...existing, ...groups];
  }
  return { ...clean, hooks };
}

export function countOurHooks(settings: Obj): Map<string, number> {
  const counts = new Map<string, number>();
  if (!isObj(settings.hooks)) return counts;
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObj(group) || !Array.isArray(group.hooks)) continue;
      for (const h of group.hooks) if (isObj(h) && isOurCommand(h.command)) counts.set(event, (counts.get(event) ?? 0) + 1);
    }
  }
  return counts;
}

/** The enabled plugin ids that are ours (`context-lifecycle@<marketplace>`). */
export function ourEnabledPlugins(settings: Obj): string[] {
  if (!isObj(settings.enabledPlugins)) return [];
  return Object.entries(settings.enabledPlugins)
    .filter(([id, on]) => id.startsWith('context-lifecycle@') && on === true)
    .map(([id]) => id);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Keep the user's indentation when we have to rewrite their file. */
export function detectIndent(text: string | undefined): string | number {
  const m = text?.match(/^[{[]\s*\n([ \t]+)\S/);
  return m?.[1] ?? 2;
}

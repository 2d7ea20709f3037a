// Reading Claude Code 2.1.332's `--debug-file` log: which hooks ran, with what exit status, and any
// line that says a hook went wrong. Formats observed with the real client:
//
//   <iso> [DEBUG] Hooks: SessionStart:startup [node "/x/dist/session-start.mjs"] (plugin context-lifecycle@inline) finished with status 0 (226ms)
//   <iso> [DEBUG] Hooks: Stop [node "/x/dist/stop.mjs"] finished with status 0 (119ms)              (hooks from settings.json)
//   <iso> [DEBUG] PreCompact:manual [node "${CLAUDE_PLUGIN_ROOT}/dist/pre-compact.mjs"] completed with status 0
//   <iso> [DEBUG] SessionEnd:other [node "${CLAUDE_PLUGIN_ROOT}/dist/session-end.mjs"] completed with status 0
//   <iso> [ERROR] "Hook Stop (Stop) error: status code 1\nstdout:\n…\nstderr:\n…"
//
// PreCompact and SessionEnd use the second form, with the command as written (placeholders not
// expanded) and no plugin name; a failing SessionEnd hook logs no [ERROR] line, only its status.

export interface HookRun {
  /** Hook event, e.g. `SessionStart`. */
  event: string;
  /** The matcher value the client logged: `startup`, `Bash`, `manual`, `other`…; undefined for Stop/UserPromptSubmit. */
  matcher: string | undefined;
  command: string;
  /** `context-lifecycle@inline` etc. for plugin hooks (first log form only). */
  plugin: string | undefined;
  /** Exit status as logged; NaN when the client logged something that is not a number. */
  status: number;
  line: string;
  /** 0-based line number in the log, for ordering. */
  index: number;
}

const FINISHED = /^\S+ \[DEBUG\] Hooks: ([A-Za-z]+)(?::(\S+))? \[(.*)\](?: \(plugin ([^)]+)\))? finished with status (\S+)/;
const COMPLETED = /^\S+ \[DEBUG\] ([A-Za-z]+)(?::(\S+))? \[(.*)\] completed with status (\S+)/;

export function hookRuns(log: string): HookRun[] {
  const runs: HookRun[] = [];
  log.split('\n').forEach((line, index) => {
    const f = FINISHED.exec(line);
    if (f !== null) {
      runs.push({ event: f[1] ?? '', matcher: f[2], command: f[3] ?? '', plugin: f[4], status: Number(f[5]), line, index });
      return;
    }
    const c = COMPLETED.exec(line);
    if (c !== null) runs.push({ event: c[1] ?? '', matcher: c[2], command: c[3] ?? '', plugin: undefined, status: Number(c[4]), line, index });
  });
  return runs;
}

/** Our hook files, as bound in hooks.json (both plugin and plain-install commands end this way). */
export const OUR_HOOK_FILE =
  /[/\\]dist[/\\](session-start|user-prompt-submit|user-prompt-expansion|pre-tool-use|post-tool-use|post-tool-use-failure|pre-compact|stop|session-end)\.mjs"?$/;

export function ourHookRuns(log: string): HookRun[] {
  return hookRuns(log).filter((r) => OUR_HOOK_FILE.test(r.command));
}

/** Runs of `event` (and `matcher`, when given) of our hooks. */
export function runsOf(log: string, event: string, matcher?: string): HookRun[] {
  return ourHookRuns(log).filter((r) => r.event === event && (matcher === undefined || r.matcher === matcher));
}

/**
 * Every sign in the debug log that a hook went wrong: a hook (any hook) that exited non-zero, an
 * [ERROR]/[WARN] line about a hook, JSON validation failures and timeouts. Empty when all is well.
 */
export function hookProblems(log: string): string[] {
  const problems: string[] = [];
  for (const run of hookRuns(log)) if (run.status !== 0) problems.push(run.line);
  for (const line of log.split('\n')) {
    if (!/ \[(ERROR|WARN)\] /.test(line)) continue;
    if (/hook|CLAUDE_PLUGIN_ROOT|context-lifecycle|[/\\]dist[/\\][a-z-]+\.mjs/i.test(line)) problems.push(line);
  }
  for (const line of log.split('\n')) {
    if (/Hook JSON output validation failed|hook.*timed out|timed out.*hook|does not match .* output shape/i.test(line) && !problems.includes(line))
      problems.push(line);
  }
  return problems;
}

/** All [ERROR] lines (for diagnostics in failure messages). */
export function errorLines(log: string): string[] {
  return log.split('\n').filter((l) => / \[ERROR\] /.test(l));
}

/** The `effectiveWindow=N` the client logs when it checks auto-compaction; undefined when absent. */
export function effectiveWindow(log: string): number | undefined {
  const m = /autocompact: .*effectiveWindow=(\d+)/.exec(log);
  return m === null ? undefined : Number(m[1]);
}

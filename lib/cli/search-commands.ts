// The search commands: `ctxl recall`, `ctxl show`, `ctxl timeline`. The whole CLI (main.ts) runs
// them, and so does the small search program (search-main.ts) that dist/cli.mjs starts for them: a
// recall then loads and initialises half the code (~3 ms of a ~65 ms recall at 10,000 chunks).
import { isRecallView, recallMarkdown, recallQuery, showMarkdown } from '../recall/recall.ts';
import { renderResults } from '../recall/render.ts';
import { projectTimeline, timelineMarkdown, type ViewEnv } from '../recall/views.ts';
import type { Env } from '../runtime/paths.ts';
import { cwdOption, findProjectRoot } from '../runtime/store.ts';
import { flagBool, flagString, parseArgs, UsageError } from './args.ts';
import { type CliEnv, cliEnv, noPositional } from './cli-runtime.ts';

/** Run one of SEARCH_COMMANDS (search-command-names.ts) with its arguments; the exit code. */
export async function searchCommand(command: string, rest: readonly string[], env: Env, now: Date): Promise<number> {
  switch (command) {
    case 'recall': {
      // Words after `--` are a query even when they name a view: `ctxl recall --json -- timeline`.
      const dash = rest.indexOf('--');
      const p = parseArgs(dash === -1 ? rest : rest.slice(0, dash), { booleans: ['json', 'all-projects'], values: ['cwd', 'limit'] });
      const words = dash === -1 ? p.positional : [...p.positional, ...rest.slice(dash + 1)];
      const limit = Number(flagString(p, 'limit') ?? '10');
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit takes a whole number from 1 to 1000');
      if (words.length === 0) throw new UsageError('recall needs a query, e.g. ctxl recall timeout config');
      return recallCommand(cliEnv(env, now), words, {
        cwd: cwdOption(flagString(p, 'cwd')),
        allProjects: flagBool(p, 'all-projects'),
        limit,
        json: flagBool(p, 'json'),
        query: dash !== -1,
      });
    }
    case 'show': {
      const p = parseArgs(rest, { booleans: [], values: [] });
      if (p.positional.length !== 1) throw new UsageError('show takes one ref, as printed by ctxl recall');
      return showCommand(cliEnv(env, now), p.positional[0] as string) ? 0 : 1;
    }
    case 'timeline': {
      const p = parseArgs(rest, { booleans: ['json'], values: ['cwd'] });
      noPositional(p, 'timeline');
      const c = cliEnv(env, now);
      const view = { store: c.store, log: c.log, now, projectRoot: findProjectRoot(cwdOption(flagString(p, 'cwd'))).root };
      c.out(flagBool(p, 'json') ? timelineJson(view) : timelineMarkdown({ ...view, maxChars: 1e9 }));
      return 0;
    }
    default:
      throw new UsageError(`unknown command '${command}' (try: ctxl help)`);
  }
}

export interface RecallOptions {
  cwd: string;
  allProjects: boolean;
  limit: number;
  json: boolean;
  /** The words came after `--`: a query even when they name a view. */
  query?: boolean;
}

/** `ctxl recall`; the exit code. */
export async function recallCommand(cli: CliEnv, words: readonly string[], options: RecallOptions): Promise<number> {
  const raw = words.join(' ');
  const projectRoot = findProjectRoot(options.cwd).root;
  const env = { store: cli.store, log: cli.log, now: cli.now, projectRoot, allProjects: options.allProjects, showCommand: 'ctxl show' };
  // What `/recall` takes besides a query (`show <ref>`, `stats`, `timeline`, `decisions`) reads the
  // same typed here, as Markdown. With --json, words are always a query: the contract's JSON is
  // `{query, results}` whatever they are (`ctxl timeline --json` has the timeline's).
  if (options.query !== true && !options.json && isRecallView(raw)) {
    const [view = '', ref = ''] = raw.trim().split(/\s+/);
    // As `ctxl show`: an unknown ref is an error (inside Claude Code, /recall says so as its answer).
    if (view === 'show') return showCommand(cli, ref.replace(/[`'"]/g, '')) ? 0 : 1;
    cli.out(await recallMarkdown(raw, env));
    return 0;
  }
  const { query, results, hint, when } = await recallQuery(raw, env, options.limit);
  if (options.json) {
    // The contract's shape stays `{query, results}`; a hint goes to stderr as one line.
    if (hint !== undefined) cli.err(`ctxl: ${hint}\n`);
    cli.out(JSON.stringify({ query, results: results.map(({ files: _files, tool: _tool, subagent: _subagent, ...r }) => r) }));
    return 0;
  }
  cli.out(hint ?? renderResults(query, results, { showCommand: 'ctxl show', ...(when === undefined ? {} : { when }) }));
  return 0;
}

/** `ctxl timeline --json`: the project and its sessions' phase spans. */
function timelineJson(view: ViewEnv): string {
  return JSON.stringify({ project: view.projectRoot, sessions: projectTimeline(view) });
}

export function showCommand(cli: CliEnv, ref: string): boolean {
  const text = showMarkdown(
    ref,
    { store: cli.store, log: cli.log, now: cli.now, projectRoot: '', allProjects: true, showCommand: 'ctxl show' },
    Number.POSITIVE_INFINITY,
  );
  // Not found is an error: one line on stderr, nothing on stdout (a script reading stdout gets no text).
  if (text.startsWith('No archived chunk')) {
    cli.err(`ctxl: ${text}\n`);
    return false;
  }
  cli.out(text);
  return true;
}

// ctxl: the command line. Every command exits non-zero with one line on misuse; `--json` where it
// prints data.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectTimeline, timelineMarkdown } from '../recall/views.ts';
import { loadConfig } from '../runtime/config.ts';
import { isTerminal, writeAll } from '../runtime/fd-write.ts';
import { createFileLogger } from '../runtime/log.ts';
import { configDir, dataDir, type Env, logFile } from '../runtime/paths.ts';
import { findProjectRoot, openStore, readTextFile } from '../runtime/store.ts';
import { allTranscripts, type CliEnv, ingestFiles, recallCommand, reindexCommand, runJob, showCommand } from './archive-commands.ts';
import { flagBool, flagString, type Parsed, parseArgs, UsageError } from './args.ts';
import { doctor } from './doctor.ts';
import { InstallError, installPlain, installPlugin, packageVersion, uninstall } from './install.ts';
import { renderStatus, status } from './status.ts';

const HELP = `ctxl — context-lifecycle for Claude Code

  ctxl install [--plugin] [--dry-run]   install into ~/.claude (or as a Claude Code plugin)
  ctxl uninstall [--dry-run]            remove it; settings.json is left as it was without us
  ctxl doctor [--json]                  check the installation; exit 1 when something is wrong
  ctxl status [--session ID] [--cwd DIR] [--json]
  ctxl ingest <transcript.jsonl> [--cwd DIR] [--ledgers] [--json] | ctxl ingest --all [--ledgers] [--json]
  ctxl recall <query…> [--cwd DIR] [--all-projects] [--limit N] [--json]
  ctxl show <ref>
  ctxl reindex [--cwd DIR | --all]
  ctxl timeline [--cwd DIR] [--json]    phases of this project's sessions, with ledger links
  ctxl version | help

Coming with retention: consolidate, gc.`;

const PLANNED = new Set(['consolidate', 'gc']);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Through fd 1 and 2 directly: the streams of process.stdout and process.stderr cost ~5 ms each to build.
// A reader that left (`ctxl recall … | head`) gets nothing more; any other failure to write the
// output (a full disk behind `> file`) is said once on stderr and makes the exit code 1.
const err = (text: string) => {
  writeAll(2, text);
};
let stdoutGone = false;
let outputFailed = false;
const out = (line: string) => {
  if (stdoutGone || outputFailed) return;
  const problem = writeAll(1, `${line}\n`);
  if (problem === 'EPIPE') stdoutGone = true;
  else if (problem !== undefined) {
    outputFailed = true;
    err(`ctxl: could not write the output (${problem})\n`);
  }
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const env = process.env as Env;
  const now = new Date();
  const config = configDir(env);
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(HELP);
      return 0;
    case 'version':
    case '--version':
      out(packageVersion(root));
      return 0;
    case 'install': {
      const p = parseArgs(rest, { booleans: ['plugin', 'dry-run'], values: [] });
      noPositional(p, 'install');
      const ctx = { sourceRoot: root, configDir: config, dryRun: flagBool(p, 'dry-run'), now, say: out };
      if (flagBool(p, 'plugin')) installPlugin(ctx);
      else installPlain(ctx);
      return 0;
    }
    case 'uninstall': {
      const p = parseArgs(rest, { booleans: ['dry-run'], values: [] });
      noPositional(p, 'uninstall');
      uninstall({ configDir: config, dryRun: flagBool(p, 'dry-run'), now, say: out });
      return 0;
    }
    case 'doctor': {
      const p = parseArgs(rest, { booleans: ['json'], values: ['cwd'] });
      noPositional(p, 'doctor');
      const report = doctor({ env, configDir: config, cwd: resolve(flagString(p, 'cwd') ?? process.cwd()), now, packageRoot: root });
      if (flagBool(p, 'json')) out(JSON.stringify({ ok: report.ok, problems: report.problems }));
      else {
        for (const n of report.notes) out(`  ${n}`);
        for (const problem of report.problems) out(`✗ ${problem.code}: ${problem.message}\n    fix: ${problem.fix}`);
        out(report.ok ? '✓ all good' : `${report.problems.length} problem(s) found`);
      }
      return report.ok ? 0 : 1;
    }
    case 'status': {
      const p = parseArgs(rest, { booleans: ['json'], values: ['session', 'cwd'] });
      noPositional(p, 'status');
      const report = status({ env, cwd: resolve(flagString(p, 'cwd') ?? process.cwd()), sessionId: flagString(p, 'session'), now });
      out(flagBool(p, 'json') ? JSON.stringify(report) : renderStatus(report));
      return 0;
    }
    case 'ingest': {
      const p = parseArgs(rest, { booleans: ['json', 'all', 'ledgers'], values: ['cwd'] });
      const all = flagBool(p, 'all');
      if (all === p.positional.length > 0) throw new UsageError('ingest takes one transcript file, or --all');
      if (p.positional.length > 1) throw new UsageError('ingest takes one transcript file at a time');
      const files = all ? allTranscripts(env) : [resolve(p.positional[0] as string)];
      const cwd = flagString(p, 'cwd');
      const { summary, busy } = await ingestFiles(cli(env, now), files, { cwd: cwd === undefined ? undefined : resolve(cwd), ledgers: flagBool(p, 'ledgers') });
      out(flagBool(p, 'json') ? JSON.stringify(summary) : `${summary.sessions} session(s): ${summary.chunksAdded} chunks added, ${summary.chunksTotal} stored`);
      if (busy.length === 0) return 0;
      err(
        busy.length === 1
          ? `ctxl: ${busy[0]} not archived: its session stayed locked by another process; run ingest again\n`
          : `ctxl: ${busy.length} transcripts not archived (first: ${busy[0]}): their sessions stayed locked by other processes; run ingest again\n`,
      );
      return 1;
    }
    case 'recall': {
      const p = parseArgs(rest, { booleans: ['json', 'all-projects'], values: ['cwd', 'limit'] });
      const limit = Number(flagString(p, 'limit') ?? '10');
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit takes a whole number from 1 to 1000');
      if (p.positional.length === 0) throw new UsageError('recall needs a query, e.g. ctxl recall timeout config');
      await recallCommand(cli(env, now), p.positional, {
        cwd: resolve(flagString(p, 'cwd') ?? process.cwd()),
        allProjects: flagBool(p, 'all-projects'),
        limit,
        json: flagBool(p, 'json'),
      });
      return 0;
    }
    case 'show': {
      const p = parseArgs(rest, { booleans: [], values: [] });
      if (p.positional.length !== 1) throw new UsageError('show takes one ref, as printed by ctxl recall');
      return showCommand(cli(env, now), p.positional[0] as string) ? 0 : 1;
    }
    case 'reindex': {
      const p = parseArgs(rest, { booleans: ['all', 'json'], values: ['cwd'] });
      noPositional(p, 'reindex');
      const r = await reindexCommand(cli(env, now), { cwd: resolve(flagString(p, 'cwd') ?? process.cwd()), all: flagBool(p, 'all') });
      out(
        flagBool(p, 'json')
          ? JSON.stringify(r)
          : `index rebuilt: ${r.chunks} chunks in ${r.sessions} session(s)${flagBool(p, 'all') ? '' : ' of this project'}`,
      );
      return 0;
    }
    case 'timeline': {
      const p = parseArgs(rest, { booleans: ['json'], values: ['cwd'] });
      noPositional(p, 'timeline');
      const c = cli(env, now);
      const view = { store: c.store, log: c.log, now, projectRoot: findProjectRoot(resolve(flagString(p, 'cwd') ?? process.cwd())).root };
      out(flagBool(p, 'json') ? JSON.stringify({ project: view.projectRoot, sessions: projectTimeline(view) }) : timelineMarkdown({ ...view, maxChars: 1e9 }));
      return 0;
    }
    case 'run-job': {
      // Internal: started detached by a hook for work too slow for its deadline.
      const p = parseArgs(rest, { booleans: [], values: [] });
      if (p.positional.length !== 1) throw new UsageError('run-job takes one job file');
      return (await runJob(cli(env, now), resolve(p.positional[0] as string))) ? 0 : 1;
    }
    default:
      if (PLANNED.has(command)) throw new UsageError(`'${command}' is not available in this version yet`);
      throw new UsageError(`unknown command '${command}' (try: ctxl help)`);
  }
}

function noPositional(p: Parsed, command: string): void {
  if (p.positional.length > 0) throw new UsageError(`${command} takes no argument '${p.positional[0]}'`);
}

function cli(env: Env, now: Date): CliEnv {
  const log = createFileLogger({ file: logFile(env), scope: 'cli' });
  // The log level the hooks use (the user's config file, then CTXL_LOG_LEVEL); no project file here.
  try {
    log.setLevel(loadConfig({ env, userText: readTextFile(join(dataDir(env), 'config.json')) }).config.logLevel);
  } catch {}
  return { env, store: openStore(dataDir(env), log), log, now, out, err, isTTY: isTerminal(2) };
}

// Not a top-level await: the bundle runs as a function's body (build.mjs, lib/runtime/code-cache.ts).
// An explicit exit once the command is done: left to end by itself, Node first waits for V8's
// queued background work (optimizing compiles, mostly), 7–16 ms of a small `ctxl ingest`. Nothing
// is pending by then: output and logs are written synchronously, workers are closed, and the code
// cache is saved on 'exit'.
main(process.argv.slice(2)).then(
  (code) => process.exit(outputFailed ? 1 : code),
  (error: unknown) => {
    const usage = error instanceof UsageError;
    // A file-system refusal (EACCES on a read-only folder, ENOSPC) is the user's to fix: its message
    // names the path and the reason, and a stack would only hide it.
    const io =
      error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
    const known = usage || io || error instanceof InstallError;
    err(`ctxl: ${known ? (error as Error).message : `internal error: ${(error as Error).stack ?? String(error)}`}\n`);
    process.exit(usage ? 2 : 1);
  },
);

// ctxl: the command line. Every command exits non-zero with one line on misuse; `--json` where it
// prints data.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDir, type Env } from '../runtime/paths.ts';
import { cwdOption } from '../runtime/store.ts';
import { allTranscripts, ingestFiles } from './archive-commands.ts';
import { flagBool, flagString, parseArgs, UsageError } from './args.ts';
import { cliEnv, err, noPositional, out, runCli } from './cli-runtime.ts';
import { doctor } from './doctor.ts';
import { InstallError, installPlain, installPlugin, packageVersion, uninstall } from './install.ts';
import { runJob, runJobs } from './job-commands.ts';
import { reindexCommand } from './reindex-command.ts';
import { searchCommand } from './search-commands.ts';
import { renderStatus, status } from './status.ts';

const HELP = `ctxl — context-lifecycle for Claude Code

  ctxl install [--plugin] [--dry-run]   install into ~/.claude (or as a Claude Code plugin)
  ctxl uninstall [--dry-run]            remove it; settings.json is left as it was without us
  ctxl doctor [--json]                  check the installation; exit 1 when something is wrong
  ctxl status [--session ID] [--cwd DIR] [--json]
  ctxl ingest <transcript.jsonl> [--cwd DIR] [--ledgers] [--json] | ctxl ingest --all [--ledgers] [--json]
  ctxl recall <query…> [--cwd DIR] [--all-projects] [--limit N] [--json]
  ctxl recall stats | timeline | decisions | show <ref>   the views of /recall, as Markdown (with --json, or after --, words are a query)
  ctxl show <ref>
  ctxl reindex [--cwd DIR | --all]
  ctxl timeline [--cwd DIR] [--json]    phases of this project's sessions, with ledger links
  ctxl version | help

Coming with retention: consolidate, gc.`;

const PLANNED = new Set(['consolidate', 'gc']);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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
      const report = doctor({ env, configDir: config, cwd: cwdOption(flagString(p, 'cwd')), now, packageRoot: root });
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
      const report = status({ env, cwd: cwdOption(flagString(p, 'cwd')), sessionId: flagString(p, 'session'), now });
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
      const { summary, busy } = await ingestFiles(cliEnv(env, now), files, {
        cwd: cwd === undefined ? undefined : cwdOption(cwd),
        ledgers: flagBool(p, 'ledgers'),
      });
      out(flagBool(p, 'json') ? JSON.stringify(summary) : `${summary.sessions} session(s): ${summary.chunksAdded} chunks added, ${summary.chunksTotal} stored`);
      if (busy.length === 0) return 0;
      err(
        busy.length === 1
          ? `ctxl: ${busy[0]} not archived: its session stayed locked by another process; run ingest again\n`
          : `ctxl: ${busy.length} transcripts not archived (first: ${busy[0]}): their sessions stayed locked by other processes; run ingest again\n`,
      );
      return 1;
    }
    case 'recall':
    case 'show':
    case 'timeline':
      return searchCommand(command, rest, env, now);
    case 'reindex': {
      const p = parseArgs(rest, { booleans: ['all', 'json'], values: ['cwd'] });
      noPositional(p, 'reindex');
      const r = await reindexCommand(cliEnv(env, now), { cwd: cwdOption(flagString(p, 'cwd')), all: flagBool(p, 'all') });
      out(
        flagBool(p, 'json')
          ? JSON.stringify(r)
          : `index rebuilt: ${r.chunks} chunks in ${r.sessions} session(s)${flagBool(p, 'all') ? '' : ' of this project'}${
              r.damaged === 0 ? '' : `; ${r.damaged} damaged chunk file(s), ${r.restored} restored from their transcripts`
            }`,
      );
      return 0;
    }
    case 'run-job': {
      // Internal: started detached by a hook for work too slow for its deadline.
      const p = parseArgs(rest, { booleans: [], values: [] });
      if (p.positional.length !== 1) throw new UsageError('run-job takes one job file');
      return (await runJob(cliEnv(env, now), resolve(p.positional[0] as string))) === undefined ? 1 : 0;
    }
    case 'run-jobs': {
      // Internal: started detached by SessionStart when archive jobs wait (any session's).
      const p = parseArgs(rest, { booleans: ['json'], values: [] });
      noPositional(p, 'run-jobs');
      const r = await runJobs(cliEnv(env, now));
      if (flagBool(p, 'json')) out(JSON.stringify(r));
      return r.failed === 0 ? 0 : 1;
    }
    default:
      if (PLANNED.has(command)) throw new UsageError(`'${command}' is not available in this version yet`);
      throw new UsageError(`unknown command '${command}' (try: ctxl help)`);
  }
}

runCli(main, (error) => error instanceof InstallError);

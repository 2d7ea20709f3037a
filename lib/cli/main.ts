// ctxl: the command line. Every command exits non-zero with one line on misuse; `--json` where it
// prints data.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDir, type Env } from '../runtime/paths.ts';
import { flagBool, flagString, type Parsed, parseArgs, UsageError } from './args.ts';
import { doctor } from './doctor.ts';
import { InstallError, installPlain, installPlugin, packageVersion, uninstall } from './install.ts';
import { renderStatus, status } from './status.ts';

const HELP = `ctxl — context-lifecycle for Claude Code

  ctxl install [--plugin] [--dry-run]   install into ~/.claude (or as a Claude Code plugin)
  ctxl uninstall [--dry-run]            remove it; settings.json is left as it was without us
  ctxl doctor [--json]                  check the installation; exit 1 when something is wrong
  ctxl status [--session ID] [--cwd DIR] [--json]
  ctxl version | help

Coming with the archive and phases: ingest, recall, show, timeline, consolidate, reindex, gc.`;

const PLANNED = new Set(['ingest', 'recall', 'show', 'timeline', 'consolidate', 'reindex', 'gc']);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = (line: string) => process.stdout.write(`${line}\n`);

function main(argv: string[]): number {
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
      const report = doctor({ env, configDir: config, cwd: resolve(flagString(p, 'cwd') ?? process.cwd()), now });
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
    default:
      if (PLANNED.has(command)) throw new UsageError(`'${command}' is not available in this version yet`);
      throw new UsageError(`unknown command '${command}' (try: ctxl help)`);
  }
}

function noPositional(p: Parsed, command: string): void {
  if (p.positional.length > 0) throw new UsageError(`${command} takes no argument '${p.positional[0]}'`);
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  const usage = error instanceof UsageError;
  const known = usage || error instanceof InstallError;
  process.stderr.write(`ctxl: ${known ? (error as Error).message : `internal error: ${(error as Error).stack ?? String(error)}`}\n`);
  process.exitCode = usage ? 2 : 1;
}

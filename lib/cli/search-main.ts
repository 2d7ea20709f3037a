// The search program: what dist/cli.mjs runs for SEARCH_COMMANDS (search-command-names.ts), the
// same commands as the whole CLI (main.ts) runs, with none of the rest (install, doctor, ingest).
import type { Env } from '../runtime/paths.ts';
import { runCli } from './cli-runtime.ts';
import { searchCommand } from './search-commands.ts';

runCli(async ([command = '', ...rest]) => searchCommand(command, rest, process.env as Env, new Date()));

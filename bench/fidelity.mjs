#!/usr/bin/env node
// Fidelity bench: the scripted session of test/support/fidelity.ts with the real Claude Code client
// (the pinned binary, installed into .cache/ on first use), plugin ON (`--plugin-dir`) and OFF, against
// the mock API with usage computed from each request so the client auto-compacts on its own. Prints
// per detail whether the model saw it right after the compaction (ON, OFF), whether `ctxl recall`
// finds it in the top 3 (ON), then the summary figures. Markdown to stdout, progress to stderr.
//
//   node bench/fidelity.mjs [--json] [--keep]
//
// Exits non-zero only when the harness itself fails (no binary, a run that crashed, a scenario check
// that failed), never because a target was missed.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchClaude } from '../scripts/fetch-claude.mjs';
import { loadTs } from './phase-lib/load-ts.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
for (const a of args) if (!['--json', '--keep'].includes(a)) throw new Error(`unknown option ${a} (options: --json, --keep)`);
const json = args.includes('--json');
const progress = (t) => process.stderr.write(`${t}\n`);

for (const file of ['cli.mjs', 'session-start.mjs', 'post-tool-use.mjs', 'pre-compact.mjs']) {
  if (!existsSync(join(REPO, 'dist', file))) {
    progress(`fidelity bench: dist/${file} is missing; run \`npm run build\` first`);
    process.exit(2);
  }
}
let bin;
try {
  bin = fetchClaude({ log: progress }).binary;
} catch (error) {
  progress(`fidelity bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

const { runFidelity, fidelityTable } = await loadTs('test/support/fidelity.ts');
const started = Date.now();
const result = await runFidelity({ bin, repoRoot: REPO, log: progress, keep: args.includes('--keep') });
const seconds = ((Date.now() - started) / 1000).toFixed(0);

if (json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(
    [
      '# Fidelity bench',
      '',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} · node ${process.versions.node} · load ${loadavg()[0].toFixed(2)} · ${seconds} s`,
      '',
      'One scripted session (plant five details in the first two prompts, then fill the context with reads, shell outputs and new test files until the client auto-compacts at ~67K tokens, CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000; the mock reports input tokens = request body / 4 and a summary without any detail). "seen": all keys of the detail in the first main request after the first compaction. "steered": in the PreCompact instructions of the compaction request. Recall: keys in the top 3 of `ctxl recall <question>` (snippet or `ctxl show`). Targets: fidelity ON ≥ 80% and above OFF, recall 100%, fewer tokens ON at the same step.',
      '',
      fidelityTable(result),
    ].join('\n'),
  );
}
// A harness failure (not a missed target) is the only reason to fail.
process.exit(result.problems.length === 0 ? 0 : 1);

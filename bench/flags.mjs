// Does a node flag pay for a hook? Paired runs of each hook scenario of bench:hooks, with the flags
// hooks.json gives that hook and with one flag added (or, with --without, taken away), order
// alternating, state restored before every run. A flag is a bet on one workload: measured against
// the wrong baseline (every hook with --max-semi-space-size=1) --no-regexp-tier-up once looked like
// a gain for hooks it slows down, hence the production flags as the baseline here.
//
//   node bench/flags.mjs [--rounds N] [--hooks stop,pre-compact] (--with <flag> | --without <flag>)
//
// Prints a Markdown table: per hook, the production flags, the two medians and the mean paired
// difference with twice its standard error. Exits 0; non-zero only on misuse or a failed run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookFlags, processProblem } from './lib/proc.mjs';
import { createWorkspace, hookScenarios, recallScenarios, resolveFixtures } from './lib/scenarios.mjs';
import { mean, median } from './lib/stats.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const rounds = Number(opt('--rounds') ?? 30);
const added = opt('--with');
const removed = opt('--without');
if ((added === undefined) === (removed === undefined) || !Number.isInteger(rounds) || rounds < 4) {
  process.stderr.write('usage: node bench/flags.mjs [--rounds N>=4] [--hooks a,b] (--with <flag> | --without <flag>)\n');
  process.exit(2);
}
const only = opt('--hooks')?.split(',');

const root = mkdtempSync(join(tmpdir(), 'ctxl-flags-'));
try {
  const ws = createWorkspace({ root, repo: REPO, fixtures: resolveFixtures(REPO) });
  const scenarios = [...hookScenarios(ws), ...recallScenarios(ws)].filter((s) => only === undefined || only.includes(s.id));
  const rows = [];
  for (const s of scenarios) {
    const production = hookFlags(basename(s.file));
    const variant = added !== undefined ? [...production.filter((f) => f !== added), added] : production.filter((f) => f !== removed);
    const runs = { production: [], variant: [] };
    for (let i = 0; i < rounds + 2; i++) {
      for (const k of i % 2 === 0 ? ['production', 'variant'] : ['variant', 'production']) {
        s.reset();
        const started = process.hrtime.bigint();
        const r = spawnSync(process.execPath, [...(k === 'production' ? production : variant), s.file], { input: s.input, cwd: s.cwd, env: s.env });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const problem = processProblem({ error: r.error, status: r.status, signal: r.signal, stderr: String(r.stderr ?? '') });
        if (problem !== undefined) throw new Error(`${s.label} (${k}): ${problem}`);
        if (i >= 2) runs[k].push(ms); // the first two pairs warm the page cache and the code cache
      }
    }
    const diffs = runs.production.map((x, i) => x - (runs.variant[i] ?? x));
    const m = mean(diffs);
    const se = Math.sqrt(mean(diffs.map((d) => (d - m) ** 2)) / diffs.length);
    rows.push([
      s.label,
      production.join(' ') || '–',
      median(runs.production).toFixed(1),
      median(runs.variant).toFixed(1),
      `${m >= 0 ? '' : '−'}${Math.abs(m).toFixed(1)} ± ${(2 * se).toFixed(1)}`,
    ]);
    process.stderr.write(`  ${s.label}: done\n`);
  }
  const what = added !== undefined ? `with ${added}` : `without ${removed}`;
  process.stdout.write(
    `# Node flags per hook: ${what}\n\n${rounds} paired rounds each; ms saved = production − variant (positive: the variant is faster), ± 2 standard errors.\n\n`,
  );
  process.stdout.write(`| hook | production flags | production median ms | ${what} median ms | ms saved |\n| :--- | :--- | ---: | ---: | ---: |\n`);
  for (const r of rows) process.stdout.write(`| ${r.join(' | ')} |\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}

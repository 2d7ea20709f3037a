// Figure 2, recall wall time against archive size. For each cached data dir: one warm-up
// `ctxl recall` (catches up and saves any index that is not current), then `runs` rounds of
// `node dist/cli.mjs recall --cwd <project> --limit 10 --json -- <query>` interleaved with the floor
// `node -e ''` (same env and cwd; the order alternates per round). Queries rotate over a fixed list.
import { CLI, emptyConfigDir } from './datasets.mjs';
import { childEnv, jsonOut, problemOf, runNode } from './proc.mjs';
import { mean, median, quantile } from './stats.mjs';

export const QUERIES = [
  ['request', 'timeout', 'retry', 'backoff'],
  ['flaky', 'snapshot', 'test', 'fixture'],
  ['migration', 'schema', 'postgres', 'index'],
];

const log = (msg) => process.stderr.write(`${msg}\n`);

export function measureRecall(data, { runs }) {
  const env = childEnv({ home: data.home, configDir: emptyConfigDir() });
  const cwd = data.project;
  const recall = (q) => runNode([CLI, 'recall', '--cwd', cwd, '--limit', '10', '--json', '--', ...q], { cwd, env });
  const floor = () => runNode(['-e', ''], { cwd, env });
  const problems = [];
  const warm = recall(QUERIES[0]);
  if (problemOf(warm) !== undefined) problems.push(`warm-up: ${problemOf(warm)}`);
  const rows = [];
  for (let i = 0; i < runs; i++) {
    const q = QUERIES[i % QUERIES.length];
    let r;
    let f;
    if (i % 2 === 0) {
      r = recall(q);
      f = floor();
    } else {
      f = floor();
      r = recall(q);
    }
    const problem = problemOf(r);
    const results = jsonOut(r)?.results;
    if (problem !== undefined) problems.push(`run ${i}: ${problem}`);
    else if (!Array.isArray(results) || results.length === 0) problems.push(`run ${i}: no results for "${q.join(' ')}"`);
    rows.push({ query: q.join(' '), ms: r.ms, cpuMs: r.cpuMs, floorMs: f.ms, floorCpuMs: f.cpuMs, results: results?.length ?? 0 });
  }
  const recallMs = median(rows.map((x) => x.ms));
  const floorMs = median(rows.map((x) => x.floorMs));
  const out = {
    label: data.manifest.label,
    sessions: data.manifest.sessions,
    chunks: data.manifest.chunksTotal,
    runs,
    warmMs: warm.ms,
    recallMs,
    recallP90: quantile(
      rows.map((x) => x.ms),
      0.9,
    ),
    floorMs,
    ratio: recallMs / floorMs,
    pairedRatio: median(rows.map((x) => x.ms / x.floorMs)),
    recallCpuMs: mean(rows.map((x) => x.cpuMs)),
    floorCpuMs: mean(rows.map((x) => x.floorCpuMs)),
    firstRecallMs: data.manifest.firstRecallMs,
    rows,
    problems,
  };
  out.cpuRatio = out.recallCpuMs / out.floorCpuMs;
  log(`  recall ${out.label}: median ${Math.round(recallMs)} ms vs node -e '' ${Math.round(floorMs)} ms (${out.ratio.toFixed(2)}×)`);
  return out;
}

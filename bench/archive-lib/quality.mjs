// Figure 4, recall quality on the dev set (bench/devset/). The dev set archive holds every real
// fixture and every scripted session, ingested into one project. Each question is asked as-is:
//   product:    `ctxl recall --cwd <project> --limit 10 --json -- <question>`
//   plain BM25: a vanilla minisearch over the same chunk files' text (default tokenizer and term
//               processing, no boosts, no prefix or fuzzy matching, no stemming), built here.
// A hit is a result whose sourceUuids intersect the question's labels. recall@k: share of questions
// with a hit in the first k; MRR: mean of 1/rank of the first hit within 10 (0 when none).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { CLI, devsetDataDir, emptyConfigDir, REPO } from './datasets.mjs';
import { childEnv, jsonOut, problemOf, runNodeAsync } from './proc.mjs';

const DEVSET = join(REPO, 'bench', 'devset');
const log = (msg) => process.stderr.write(`${msg}\n`);

export function loadDevset() {
  const fixtures = JSON.parse(readFileSync(join(DEVSET, 'fixtures.json'), 'utf8'));
  const scripted = JSON.parse(readFileSync(join(DEVSET, 'scripted.json'), 'utf8'));
  const questions = [...fixtures.questions.map((q) => ({ ...q, set: 'fixtures' })), ...scripted.questions.map((q) => ({ ...q, set: 'scripted' }))];
  const ids = new Set();
  for (const q of questions) {
    if (ids.has(q.id)) throw new Error(`dev set: duplicate question id ${q.id}`);
    ids.add(q.id);
    if (!Array.isArray(q.labels) || q.labels.length === 0) throw new Error(`dev set: ${q.id} has no labels`);
  }
  return { fixtures, scripted, questions };
}

/** Chunk files of a data dir, parsed (frontmatter values are JSON, one per line). */
export function readChunks(home) {
  const out = [];
  const sessions = join(home, 'sessions');
  for (const sid of readdirSync(sessions)) {
    const dir = join(sessions, sid, 'archived');
    let names = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith('.md')) continue;
      const file = readFileSync(join(dir, name), 'utf8');
      const end = file.indexOf('\n---\n', 3);
      if (!file.startsWith('---\n') || end === -1) continue;
      const meta = {};
      for (const line of file.slice(4, end).split('\n')) {
        const colon = line.indexOf(': ');
        if (colon > 0) meta[line.slice(0, colon)] = JSON.parse(line.slice(colon + 2));
      }
      const body = file.slice(end + 5).replace(/^\n/, '');
      out.push({
        id: meta.id,
        session: meta.session,
        type: meta.type,
        title: meta.title,
        sourceUuids: meta.sourceUuids ?? [],
        text: body.endsWith('\n') ? body.slice(0, -1) : body,
      });
    }
  }
  return out;
}

function rankOf(results, labels) {
  const want = new Set(labels);
  for (const [i, r] of results.entries()) if ((r.sourceUuids ?? []).some((u) => want.has(u))) return i + 1;
  return undefined;
}

export function metrics(ranks) {
  const n = ranks.length;
  const at = (k) => ranks.filter((r) => r !== undefined && r <= k).length / n;
  return { n, r1: at(1), r5: at(5), r10: at(10), mrr: ranks.reduce((a, r) => a + (r !== undefined && r <= 10 ? 1 / r : 0), 0) / n };
}

async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/**
 * Rankings are deterministic for a given archive, CLI build and question list, so the answers are
 * cached next to the dev set archive (whose key already covers the CLI build, the generator, the
 * scripted sessions and the fixture list) and reused until one of them, or a question, changes.
 */
export async function measureQuality(fixturesDir, { rebuild = false, fresh = false } = {}) {
  const devset = loadDevset();
  const data = await devsetDataDir(fixturesDir, devset.scripted, { rebuild });
  const cacheKey = createHash('sha256').update(data.manifest.key).update(JSON.stringify(devset.questions)).digest('hex').slice(0, 12);
  const cacheFile = join(data.dir, 'quality.json');
  if (!rebuild && !fresh && !data.built) {
    try {
      const cached = JSON.parse(readFileSync(cacheFile, 'utf8'));
      if (cached.cacheKey === cacheKey) {
        log('  dev set answers cached for this dist/cli.mjs and dev set: reused (--fresh asks again)');
        return { ...cached, cachedFrom: cached.measuredAt };
      }
    } catch {}
  }
  const chunks = readChunks(data.home);
  // Labels must point at archived chunks: a label no chunk carries is a dev set (or chunker) problem.
  const uuidToChunk = new Map();
  for (const c of chunks) for (const u of c.sourceUuids) uuidToChunk.set(u, c.id);
  const labelProblems = [];
  for (const q of devset.questions) {
    const missing = q.labels.filter((u) => !uuidToChunk.has(u));
    if (missing.length === q.labels.length) labelProblems.push(`${q.id}: none of its ${q.labels.length} label uuids is in any chunk`);
    else if (missing.length > 0)
      labelProblems.push(`${q.id}: ${missing.length} of ${q.labels.length} label uuids in no chunk (${missing.map((u) => u.slice(0, 8)).join(', ')})`);
    q.labelChunks = new Set(q.labels.map((u) => uuidToChunk.get(u)).filter((x) => x !== undefined)).size;
  }

  // Product, through the CLI, two at a time (timings are not used here).
  log(`  asking ${devset.questions.length} dev set questions through ctxl recall…`);
  const env = childEnv({ home: data.home, configDir: emptyConfigDir() });
  const problems = [];
  const product = await mapLimit(devset.questions, 2, async (q) => {
    const r = await runNodeAsync([CLI, 'recall', '--cwd', data.project, '--limit', '10', '--json', '--', q.q], { cwd: data.project, env });
    const problem = problemOf(r);
    if (problem !== undefined) problems.push(`${q.id}: ${problem}`);
    return jsonOut(r)?.results ?? [];
  });

  // Plain BM25 over the same chunks.
  const plain = new MiniSearch({ idField: 'id', fields: ['text'], storeFields: ['sourceUuids', 'title'] });
  plain.addAll(chunks);
  const bm25 = devset.questions.map((q) => plain.search(q.q).slice(0, 10));

  const rows = devset.questions.map((q, i) => ({
    id: q.id,
    set: q.set,
    kind: q.kind,
    q: q.q,
    evidence: q.evidence,
    labelChunks: q.labelChunks,
    productRank: rankOf(product[i], q.labels),
    bm25Rank: rankOf(bm25[i], q.labels),
    productTop: product[i].slice(0, 3).map((r) => ({ title: r.title, type: r.type, score: r.score })),
    bm25Top: bm25[i].slice(0, 3).map((r) => ({ title: r.title, score: Math.round(r.score * 1000) / 1000 })),
    productResults: product[i].length,
  }));
  const summarize = (pred) => {
    const sel = rows.filter(pred);
    return { product: metrics(sel.map((r) => r.productRank)), bm25: metrics(sel.map((r) => r.bm25Rank)) };
  };
  const kinds = [...new Set(rows.map((r) => r.kind))].sort();
  const result = {
    cacheKey,
    measuredAt: new Date().toISOString(),
    chunks: chunks.length,
    sessions: new Set(chunks.map((c) => c.session)).size,
    devsetBuilt: data.built,
    scriptedSessions: devset.scripted.sessions.length,
    all: summarize(() => true),
    fixtures: summarize((r) => r.set === 'fixtures'),
    scripted: summarize((r) => r.set === 'scripted'),
    byKind: Object.fromEntries(kinds.map((k) => [k, summarize((r) => r.kind === k)])),
    rows,
    labelProblems,
    problems,
  };
  if (problems.length === 0) writeFileSync(cacheFile, JSON.stringify(result));
  return result;
}

// Data sets for the archive bench, cached under <repo>/.cache/bench/archive/g<generator version>/:
//   project/            an empty git work tree (a `.git` folder) that every data dir uses as --cwd
//   ingest-synth.jsonl  the ~20 MB synthesized transcript of the ingest corpus
//   recall-<label>/     { home/ (CTXL_HOME), manifest.json } built by `ctxl ingest` of synthesized sessions
//   devset-<hash>/      { home/, manifest.json } the dev set archive (fixtures + scripted sessions)
// A data dir counts only once its manifest.json exists (it is written last; builds happen in a
// `.tmp` sibling that is renamed into place). Transcripts of recall data dirs are deleted once
// ingested; their sizes are kept in the manifest.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, jsonOut, problemOf, runNode, runNodeAsync } from './proc.mjs';
import { GENERATOR_VERSION, rng, uuidFrom, writeSession, writeSizedTranscript } from './synth.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(REPO, 'dist', 'cli.mjs');
export const CACHE = join(REPO, '.cache', 'bench', 'archive', `g${GENERATOR_VERSION}`);
export const CHUNKS_PER_SESSION = 500;
const DAY = 86_400_000;

const log = (msg) => process.stderr.write(`${msg}\n`);

export function fileSha(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12);
}

export function ensureProject() {
  const project = join(CACHE, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  return project;
}

export function emptyConfigDir() {
  const dir = join(CACHE, 'claude-config');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Real fixtures (manifest kind "real"), as absolute paths, with their sizes. */
export function realFixtures(fixturesDir) {
  const manifest = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8'));
  return manifest
    .filter((m) => m.kind === 'real' && m.dest.endsWith('.jsonl'))
    .map((m) => ({ path: join(fixturesDir, m.dest), name: m.dest, bytes: statSync(join(fixturesDir, m.dest)).size }));
}

/** The ~20 MB synthesized transcript of the ingest corpus (cached). */
export async function ingestSynth(targetBytes = 20 * 1024 * 1024) {
  const file = join(CACHE, 'ingest-synth.jsonl');
  const meta = join(CACHE, 'ingest-synth.json');
  if (existsSync(meta) && existsSync(file)) {
    const m = JSON.parse(readFileSync(meta, 'utf8'));
    if (m.targetBytes === targetBytes && statSync(file).size === m.bytes) return { path: file, name: 'synthesized session', bytes: m.bytes };
  }
  mkdirSync(CACHE, { recursive: true });
  log(`  synthesizing a ${Math.round(targetBytes / 1e6)} MB transcript…`);
  const sessionId = uuidFrom(rng(4242));
  const { bytes, lines } = await writeSizedTranscript(file, { seed: 4242, sessionId, cwd: '/home/dev/acme-billing', targetBytes });
  writeFileSync(meta, JSON.stringify({ targetBytes, bytes, lines, sessionId }));
  return { path: file, name: 'synthesized session', bytes };
}

/** A fresh `<dir>.tmp` with `home/` (CTXL_HOME) and `transcripts/`, renamed into place when built. */
function buildDir(dir) {
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  const home = join(tmp, 'home');
  const transcripts = join(tmp, 'transcripts');
  mkdirSync(home, { recursive: true });
  mkdirSync(transcripts, { recursive: true });
  return { tmp, home, transcripts, env: childEnv({ home, configDir: emptyConfigDir() }) };
}

/** The segment format the sources write (lib/index/segment.ts): a cached index of another is reindexed. */
const SEGMENT_VERSION = Number(/export const SEGMENT_VERSION = (\d+);/.exec(readFileSync(join(REPO, 'lib', 'index', 'segment.ts'), 'utf8'))?.[1]);

/** The format versions of a data dir's index segments (each footer's `version`; only the footers are read). */
function segmentVersions(home) {
  const dir = join(home, 'index');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^seg-\d+\.bin$/.test(f))
    .map((f) => {
      const fd = openSync(join(dir, f), 'r');
      try {
        const size = fstatSync(fd).size;
        const tail = Buffer.alloc(12);
        readSync(fd, tail, 0, 12, size - 12);
        const footer = Buffer.alloc(tail.readUInt32LE(0));
        readSync(fd, footer, 0, footer.length, size - 12 - footer.length);
        return JSON.parse(footer.toString('utf8')).version;
      } finally {
        closeSync(fd);
      }
    });
}

/**
 * A cached data dir whose index an older build wrote is reindexed from its chunk files (the chunks
 * stay): the timings are of the format the sources write, which a user's index reaches as its
 * segments are merged or rewritten.
 */
function reindexIfOutdated(home, project, label) {
  if (!Number.isInteger(SEGMENT_VERSION) || segmentVersions(home).every((v) => v === SEGMENT_VERSION)) return;
  log(`  ${label}: index segments of an older format; ctxl reindex --all…`);
  const r = runNode([CLI, 'reindex', '--all'], { cwd: project, env: childEnv({ home, configDir: emptyConfigDir() }) });
  const problem = problemOf(r);
  if (problem !== undefined) throw new Error(`reindex of ${label} failed: ${problem}`);
}

function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A data dir of `chunks` chunks (500 per session, one project), built by `ctxl ingest` of
 * synthesized sessions, two at a time, then one recall that builds and saves every session's index.
 */
export async function recallDataDir(label, chunks, { rebuild = false } = {}) {
  const dir = join(CACHE, `recall-${label}`);
  const project = ensureProject();
  const cached = readManifest(dir);
  if (cached !== undefined && !rebuild && cached.projectRoot === project && cached.chunksTarget === chunks) {
    reindexIfOutdated(join(dir, 'home'), project, `recall-${label}`);
    return { dir, home: join(dir, 'home'), project, manifest: cached, built: false };
  }
  rmSync(dir, { recursive: true, force: true });
  const { tmp, transcripts, env } = buildDir(dir);
  const sessions = Math.max(1, Math.round(chunks / CHUNKS_PER_SESSION));
  const started = Date.now();
  const totals = { transcriptBytes: 0, transcriptAllocated: 0, chunksTotal: 0, ingestMs: 0, lines: 0 };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < sessions) {
      const i = next++;
      const seed = 10_000 + i;
      const sessionId = uuidFrom(rng(seed * 7919));
      const file = join(transcripts, `${sessionId}.jsonl`);
      const w = await writeSession(file, {
        seed,
        sessionId,
        cwd: '/home/dev/acme-billing',
        startMs: Date.UTC(2026, 0, 1) + i * DAY,
        chunks: CHUNKS_PER_SESSION,
      });
      const st = statSync(file);
      totals.transcriptBytes += st.size;
      totals.transcriptAllocated += st.blocks * 512;
      totals.lines += w.lines;
      const r = await runNodeAsync([CLI, 'ingest', file, '--cwd', project, '--json'], { cwd: project, env });
      const problem = problemOf(r);
      if (problem !== undefined) throw new Error(`ingest of synthesized session ${i} failed: ${problem}`);
      const out = jsonOut(r);
      totals.chunksTotal += out?.chunksTotal ?? 0;
      totals.ingestMs += r.ms;
      rmSync(file);
      done += 1;
      if (done % 10 === 0 || done === sessions)
        log(`  recall-${label}: ${done}/${sessions} sessions ingested (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  };
  log(`  building recall-${label}: ${sessions} sessions × ~${CHUNKS_PER_SESSION} chunks…`);
  await Promise.all([worker(), worker()]);
  rmSync(transcripts, { recursive: true, force: true });
  // The first recall builds and saves every session's index: timed once here, reported as a side figure.
  const first = runNode([CLI, 'recall', '--cwd', project, '--limit', '10', '--json', '--', 'retry', 'backoff', 'timeout'], { cwd: project, env });
  const problem = problemOf(first);
  if (problem !== undefined) throw new Error(`first recall on recall-${label} failed: ${problem}`);
  const manifest = {
    version: 1,
    generator: GENERATOR_VERSION,
    label,
    chunksTarget: chunks,
    sessions,
    chunksTotal: totals.chunksTotal,
    transcriptBytes: totals.transcriptBytes,
    transcriptAllocated: totals.transcriptAllocated,
    transcriptLines: totals.lines,
    ingestMsSum: Math.round(totals.ingestMs),
    firstRecallMs: Math.round(first.ms),
    buildSeconds: Math.round((Date.now() - started) / 1000),
    projectRoot: project,
    cliSha: fileSha(CLI),
    builtAt: new Date().toISOString(),
  };
  writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 1));
  renameSync(tmp, dir);
  return { dir, home: join(dir, 'home'), project, manifest, built: true };
}

/**
 * The dev set archive: every real fixture and every scripted session of bench/devset/scripted.json,
 * ingested into one project. Keyed by the generator, the dev set files and the CLI build.
 */
export async function devsetDataDir(fixturesDir, scripted, { rebuild = false } = {}) {
  const project = ensureProject();
  const files = realFixtures(fixturesDir).map((f) => f.path);
  const key = createHash('sha256')
    .update(JSON.stringify({ cwd: scripted.cwd, sessions: scripted.sessions }))
    .update(JSON.stringify(files.map((f) => relative(fixturesDir, f))))
    .update(fileSha(CLI))
    .update(String(GENERATOR_VERSION))
    .digest('hex')
    .slice(0, 12);
  const dir = join(CACHE, `devset-${key}`);
  const cached = readManifest(dir);
  if (cached !== undefined && !rebuild && cached.projectRoot === project) return { dir, home: join(dir, 'home'), project, manifest: cached, built: false };
  const { tmp, transcripts, env } = buildDir(dir);
  log(`  building the dev set archive (${files.length} fixtures + ${scripted.sessions.length} scripted sessions)…`);
  for (const [i, s] of scripted.sessions.entries()) {
    const file = join(transcripts, `${s.sessionId}.jsonl`);
    await writeSession(file, {
      seed: s.seed,
      sessionId: s.sessionId,
      cwd: scripted.cwd,
      startMs: Date.UTC(2026, 2, 2) + i * 3 * DAY,
      projectSeed: 2,
      turns: s.turns,
      plants: s.plants,
    });
    files.push(file);
  }
  // Two ingests at a time: the fixtures in order in one lane (two of them share a session id), the
  // scripted sessions in the other, so every session is written in the same order on every build.
  let chunks = 0;
  const fixtureCount = files.length - scripted.sessions.length;
  const lane = async (list) => {
    for (const file of list) {
      const r = await runNodeAsync([CLI, 'ingest', file, '--cwd', project, '--json'], { cwd: project, env });
      const problem = problemOf(r);
      if (problem !== undefined) throw new Error(`dev set ingest of ${file} failed: ${problem}`);
      chunks += jsonOut(r)?.chunksAdded ?? 0;
    }
  };
  await Promise.all([lane(files.slice(0, fixtureCount)), lane(files.slice(fixtureCount))]);
  const first = runNode([CLI, 'recall', '--cwd', project, '--limit', '1', '--json', '--', 'warm', 'up'], { cwd: project, env });
  if (problemOf(first) !== undefined) throw new Error(`dev set first recall failed: ${problemOf(first)}`);
  rmSync(transcripts, { recursive: true, force: true });
  const manifest = { version: 1, key, chunks, files: files.length, projectRoot: project, cliSha: fileSha(CLI), builtAt: new Date().toISOString() };
  writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 1));
  // Dev set archives of older keys are of no further use.
  for (const name of readdirSync(CACHE))
    if (name.startsWith('devset-') && name !== `devset-${key}.tmp`) rmSync(join(CACHE, name), { recursive: true, force: true });
  renameSync(tmp, dir);
  return { dir, home: join(dir, 'home'), project, manifest, built: true };
}

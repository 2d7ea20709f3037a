// Figure 1, ingest throughput. Each round, in a fresh CTXL_HOME: `ctxl ingest <file> --cwd <project>
// --json` for every corpus file (one process per file: the CLI takes one transcript at a time), then
// one `ctxl recall`, which builds and saves the index of every session (the lazy "index" part of
// ingest). Baseline, interleaved (the order alternates per round): `node parse-baseline.mjs <file>`
// for the same files, one process per file, a bare line-by-line JSON.parse pass. MB/s = corpus bytes
// (10^6) / summed wall time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, emptyConfigDir, ensureProject, REPO } from './datasets.mjs';
import { archiveUse, duFiles } from './disk.mjs';
import { childEnv, jsonOut, problemOf, runNode } from './proc.mjs';
import { median, sum } from './stats.mjs';

const BASELINE = join(REPO, 'bench', 'archive-lib', 'parse-baseline.mjs');
const WRITE_FILES = join(REPO, 'bench', 'archive-lib', 'write-files.mjs');
const log = (msg) => process.stderr.write(`${msg}\n`);

export function measureIngest(corpus, { rounds }) {
  const project = ensureProject();
  const configDir = emptyConfigDir();
  const totalBytes = sum(corpus.map((f) => f.bytes));
  const results = [];
  let lastHome;
  const homes = [];
  const problems = [];
  for (let round = 0; round < rounds; round++) {
    const home = mkdtempSync(join(tmpdir(), 'ctxl-bench-ingest-'));
    const env = childEnv({ home, configDir });
    const one = { round, ingest: [], baseline: [], recall: undefined, chunksAdded: 0 };
    const runIngest = () => {
      for (const f of corpus) {
        const r = runNode([CLI, 'ingest', f.path, '--cwd', project, '--json'], { cwd: project, env });
        const problem = problemOf(r);
        if (problem !== undefined) problems.push(`ingest ${f.name}: ${problem}`);
        const out = jsonOut(r);
        one.chunksAdded += out?.chunksAdded ?? 0;
        one.ingest.push({ name: f.name, bytes: f.bytes, ms: r.ms, cpuMs: r.cpuMs, chunks: out?.chunksAdded });
      }
      const r = runNode([CLI, 'recall', '--cwd', project, '--limit', '10', '--json', '--', 'timeout', 'error', 'retry'], { cwd: project, env });
      const problem = problemOf(r);
      if (problem !== undefined) problems.push(`recall after ingest: ${problem}`);
      const results = jsonOut(r)?.results;
      if (!Array.isArray(results) || results.length === 0) problems.push('recall after ingest returned no results');
      one.recall = { ms: r.ms, cpuMs: r.cpuMs };
    };
    const runBaseline = () => {
      for (const f of corpus) {
        const r = runNode([BASELINE, f.path], { cwd: project, env });
        const problem = problemOf(r);
        if (problem !== undefined) problems.push(`baseline ${f.name}: ${problem}`);
        one.baseline.push({ name: f.name, bytes: f.bytes, ms: r.ms, cpuMs: r.cpuMs });
      }
    };
    if (round % 2 === 0) {
      runBaseline();
      runIngest();
    } else {
      runIngest();
      runBaseline();
    }
    // The floor the layout sets: as many chunk files, as many bytes, written with nothing else to do.
    one.filesOnly = { files: 0, ms: Number.NaN };
    const written = archiveUse(home);
    if (written.l2.files > 0) {
      const r = runNode([WRITE_FILES, join(home, 'files-only'), String(written.l2.files), String(written.l2.apparent)], { cwd: project, env });
      const problem = problemOf(r);
      if (problem !== undefined) problems.push(`write-files: ${problem}`);
      one.filesOnly = { files: written.l2.files, ms: jsonOut(r)?.ms ?? Number.NaN };
      // Left in place until the end like the archives: on a file system without a journal (ext4
      // without one, as on some VMs), creating a file skips the inodes freed in the last minute
      // or more, one by one, so deleting 6,000 files here cost the next round's ingest ~1 s.
    }
    one.ingestMs = sum(one.ingest.map((x) => x.ms));
    one.ingestCpuMs = sum(one.ingest.map((x) => x.cpuMs));
    one.totalMs = one.ingestMs + one.recall.ms;
    one.totalCpuMs = one.ingestCpuMs + one.recall.cpuMs;
    one.baselineMs = sum(one.baseline.map((x) => x.ms));
    one.baselineCpuMs = sum(one.baseline.map((x) => x.cpuMs));
    results.push(one);
    log(
      `  ingest round ${round + 1}/${rounds}: ingest ${Math.round(one.ingestMs)} ms + index ${Math.round(one.recall.ms)} ms, baseline ${Math.round(one.baselineMs)} ms`,
    );
    // Data dirs are deleted after the last round (so the disk holds every round's, ~100 MB each): a
    // deletion's disk work (discards, journal, inodes skipped as recently freed) would run into the
    // next round's file creation.
    homes.push(home);
    lastHome = home;
  }
  // Disk figure for this corpus, from the last round's archive.
  const disk = { ...archiveUse(lastHome), transcripts: duFiles(corpus.map((f) => f.path)) };
  for (const h of homes) rmSync(h, { recursive: true, force: true });

  const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);
  const byPart = (pred) => {
    const bytes = sum(corpus.filter(pred).map((f) => f.bytes));
    const ingestMs = median(results.map((r) => sum(r.ingest.filter((x) => pred(x)).map((x) => x.ms))));
    const baselineMs = median(results.map((r) => sum(r.baseline.filter((x) => pred(x)).map((x) => x.ms))));
    return { bytes, ingestMs, baselineMs, ingestMBps: mbps(bytes, ingestMs), baselineMBps: mbps(bytes, baselineMs) };
  };
  const synthName = corpus[corpus.length - 1].name;
  const total = {
    bytes: totalBytes,
    files: corpus.length,
    chunks: median(results.map((r) => r.chunksAdded)),
    ingestMs: median(results.map((r) => r.ingestMs)),
    indexMs: median(results.map((r) => r.recall.ms)),
    totalMs: median(results.map((r) => r.totalMs)),
    baselineMs: median(results.map((r) => r.baselineMs)),
    totalCpuMs: median(results.map((r) => r.totalCpuMs)),
    baselineCpuMs: median(results.map((r) => r.baselineCpuMs)),
    pairedRatio: median(results.map((r) => r.baselineMs / r.totalMs)),
  };
  total.filesOnlyMs = median(results.map((r) => r.filesOnly?.ms ?? Number.NaN));
  total.filesOnlyCount = median(results.map((r) => r.filesOnly?.files ?? 0));
  total.ingestMBps = mbps(totalBytes, total.totalMs);
  total.baselineMBps = mbps(totalBytes, total.baselineMs);
  total.ratio = total.ingestMBps / total.baselineMBps;
  total.cpuRatio = total.baselineCpuMs / total.totalCpuMs;
  return {
    rounds: results,
    total,
    parts: {
      fixtures: byPart((f) => f.name !== synthName),
      synth: byPart((f) => f.name === synthName),
    },
    disk,
    problems,
  };
}

#!/usr/bin/env node
// Archive bench: ingest throughput, recall time against archive size, disk use, and recall quality on
// a development set. Runs the built CLI (`node dist/cli.mjs …`) exactly as a user would, each figure
// beside a baseline measured in the same run. Markdown on stdout, progress on stderr.
//
//   node bench/archive.mjs [--quick] [--json FILE] [--only ingest,recall,disk,quality]
//                          [--rounds N] [--runs N] [--rebuild] [--fresh] [--fixtures DIR]
//
// --quick skips the 100K-chunk archive and takes fewer samples. Data sets are cached under
// .cache/bench/archive/g<generator>/ (see archive-lib/datasets.mjs); --rebuild rebuilds them. Dev set
// answers are deterministic and cached per dist/cli.mjs build and dev set; --fresh asks again.
// Exit 0 whatever the verdicts; non-zero only when the bench itself cannot run.
import { existsSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI, fileSha, ingestSynth, REPO, realFixtures, recallDataDir } from './archive-lib/datasets.mjs';
import { archiveUse } from './archive-lib/disk.mjs';
import { measureIngest } from './archive-lib/ingest.mjs';
import { measureQuality } from './archive-lib/quality.mjs';
import { measureRecall } from './archive-lib/recall-time.mjs';
import { renderReport } from './archive-lib/report.mjs';
import { fmt } from './archive-lib/stats.mjs';
import { GENERATOR_VERSION } from './archive-lib/synth.mjs';

const SECTIONS = ['ingest', 'recall', 'disk', 'quality'];

function parseOptions(argv) {
  const o = {
    quick: false,
    json: undefined,
    only: new Set(SECTIONS),
    rounds: undefined,
    runs: undefined,
    rebuild: false,
    fresh: false,
    fixtures: join(REPO, '..', 'shared', 'fixtures', 'transcripts'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') o.quick = true;
    else if (a === '--json') o.json = resolve(value());
    else if (a === '--only') {
      o.only = new Set(value().split(','));
      for (const s of o.only) if (!SECTIONS.includes(s)) throw new Error(`--only: unknown section ${s} (${SECTIONS.join(', ')})`);
    } else if (a === '--rounds') o.rounds = positive(value(), a);
    else if (a === '--runs') o.runs = positive(value(), a);
    else if (a === '--rebuild') o.rebuild = true;
    else if (a === '--fresh') o.fresh = true;
    else if (a === '--fixtures') o.fixtures = resolve(value());
    else if (a === '--help' || a === '-h') {
      process.stdout.write(
        'node bench/archive.mjs [--quick] [--json FILE] [--only ingest,recall,disk,quality] [--rounds N] [--runs N] [--rebuild] [--fresh] [--fixtures DIR]\n',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  return o;
}

function positive(v, name) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a positive integer`);
  return n;
}

const log = (msg) => process.stderr.write(`${msg}\n`);

async function main() {
  const o = parseOptions(process.argv.slice(2));
  if (!existsSync(CLI)) throw new Error('dist/cli.mjs is missing: build first (npm run build)');
  if (!existsSync(join(o.fixtures, 'manifest.json'))) throw new Error(`no fixtures at ${o.fixtures} (--fixtures DIR)`);
  const started = Date.now();
  const cliSha = fileSha(CLI);
  const warnings = [];
  const meta = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    node: process.versions.node,
    cores: availableParallelism(),
    loadStart: fmt(loadavg()[0], 2),
    mode: o.quick ? 'quick' : 'full',
    cliSha,
    generator: GENERATOR_VERSION,
    warnings,
  };
  const res = { meta, options: { ...o, only: [...o.only] } };
  const need = (s) => o.only.has(s);
  const sizes = o.quick
    ? [
        ['1k', 1_000, 5],
        ['10k', 10_000, 5],
      ]
    : [
        ['1k', 1_000, 11],
        ['10k', 10_000, 11],
        ['100k', 100_000, 5],
      ];

  // Data sets first (cached), so that building them never overlaps a timed figure.
  log('preparing data sets…');
  const fixtures = realFixtures(o.fixtures);
  const corpus = need('ingest') || need('disk') ? [...fixtures, await ingestSynth()] : [];
  const dataDirs = [];
  if (need('recall') || need('disk')) {
    for (const [label, chunks] of sizes) dataDirs.push(await recallDataDir(label, chunks, { rebuild: o.rebuild }));
    for (const d of dataDirs) {
      if (d.manifest.cliSha !== cliSha)
        warnings.push(
          `recall-${d.manifest.label} was built by another dist/cli.mjs (${d.manifest.cliSha}); run with --rebuild to measure data written by the current chunker.`,
        );
    }
  }

  if (need('ingest') || need('disk')) {
    log('1. ingest throughput…');
    const rounds = o.rounds ?? (o.quick ? 1 : 3);
    res.ingest = measureIngest(corpus, { rounds });
    res.ingest.corpusNote = `${fixtures.length} real fixtures (${fmt(fixtures.reduce((a, f) => a + f.bytes, 0) / 1e6, 1)} MB) + one synthesized session of ${fmt(corpus[corpus.length - 1].bytes / 1e6, 1)} MB (prompts, assistant text, thinking, tool_use/tool_result pairs with code, test/build/server logs, usage on every assistant line)`;
    if (rounds < 3) warnings.push(`ingest: ${rounds} round(s) only (--quick); medians need 3 or more.`);
  }

  if (need('recall')) {
    log('2. recall wall time…');
    res.recall = dataDirs.map((d, i) => measureRecall(d, { runs: o.runs ?? sizes[i][2] }));
    if (o.quick) res.recallSkipped = '100K skipped (--quick).';
  }

  if (need('disk')) {
    res.disk = [];
    if (res.ingest !== undefined) res.disk.push({ name: 'ingest corpus', chunks: res.ingest.total.chunks, ...res.ingest.disk });
    for (const d of dataDirs) {
      const use = archiveUse(d.home);
      res.disk.push({
        name: `recall ${d.manifest.label}`,
        chunks: d.manifest.chunksTotal,
        ...use,
        transcripts: { apparent: d.manifest.transcriptBytes, allocated: d.manifest.transcriptAllocated },
      });
    }
  }

  if (need('quality')) {
    log('4. recall quality on the dev set…');
    res.quality = await measureQuality(o.fixtures, { rebuild: o.rebuild, fresh: o.fresh });
  }

  meta.loadEnd = fmt(loadavg()[0], 2);
  meta.wallSeconds = (Date.now() - started) / 1000;
  if (loadavg()[0] > meta.cores)
    warnings.push(`1-min load average ${fmt(loadavg()[0], 2)} exceeds the ${meta.cores} cores: wall times are inflated; compare the ratios and CPU columns.`);
  if (fileSha(CLI) !== cliSha) warnings.push('dist/cli.mjs changed during the run: figures mix two builds.');
  process.stdout.write(`${renderReport(res)}\n`);
  if (o.json !== undefined) {
    writeFileSync(
      o.json,
      JSON.stringify(res, (_k, v) => (v instanceof Set ? [...v] : v), 1),
    );
    log(`wrote ${o.json}`);
  }
}

main().catch((error) => {
  process.stderr.write(`archive bench: ${error.message}\n`);
  process.exit(2);
});

#!/usr/bin/env node
// Hook cost bench (DESIGN goal 3: a hook costs little more than the floor, Node running an empty ES
// module that reads its stdin). Prints Markdown to stdout, progress to stderr. Every figure is compared
// with a baseline measured in the same run, interleaved with it. Exit 0 whatever the verdicts (it is a
// report); non-zero only when the bench itself cannot run.
//
//   node bench/run.mjs [--rounds N] [--quick] [--rss-reps N] [--rss-method auto|time|probe]
//                      [--json FILE] [--fixtures DIR] [--dist DIR] [--keep]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pickRssMethod, runNode, runNodeRss } from './lib/proc.mjs';
import { kb, ms, ratio, signedMs, table, verdict } from './lib/report.mjs';
import {
  createWorkspace,
  floorOf,
  fmtBytes,
  fromZeroOf,
  hookScenarios,
  KB,
  logProblems,
  recallScenarios,
  resolveFixtures,
  stopScenario,
} from './lib/scenarios.mjs';
import { mean, pairedRatio, summary } from './lib/stats.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOOKS = ['session-start', 'user-prompt-submit', 'post-tool-use', 'post-tool-use-failure', 'pre-compact', 'stop', 'session-end'];
const TARGET = { medianRatio: 1.25, p95Ratio: 1.5, cursorSpread: 0.1, rssKb: 80 * 1024 };
const BIG_PREFIX_BYTES = 20 * 1024 * 1024;
/** The hook rows with a 1 MB stdin: figure 1b sets them beside what decoding, parsing and one fork cost. */
const BIG_INPUT_IDS = ['post-tool-use-big', 'post-tool-use-stub'];

const USAGE = `usage: node bench/run.mjs [options]
  --rounds N        rounds of the interleaved timing loops (default 30, --quick 10; at least 5)
  --quick           fewer rounds and RSS repetitions
  --rss-reps N      runs per case for peak RSS (default 3, --quick 2; peak RSS of a hook on a 20 MB transcript varies by a few MB from run to run)
  --rss-method M    auto (GNU time if present), time, or probe (--import of bench/rss-probe.mjs)
  --json FILE       also write the results as JSON to FILE
  --fixtures DIR    transcript fixtures (default ../shared/fixtures/transcripts from the repo root)
  --dist DIR        the hook files to measure (default dist/ of this repo; e.g. a copy of an older build)
  --keep            keep the temp workspace and print where it is`;

function parseArgs(argv) {
  const o = { rounds: undefined, quick: false, rssReps: undefined, rssMethod: 'auto', json: undefined, fixtures: undefined, dist: undefined, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    const int = (v) => {
      if (!/^\d+$/.test(v)) throw new UsageError(`${a} needs a whole number, got ${v}`);
      return Number(v);
    };
    if (a === '--rounds') o.rounds = int(value());
    else if (a === '--quick') o.quick = true;
    else if (a === '--rss-reps') o.rssReps = int(value());
    else if (a === '--rss-method') o.rssMethod = value();
    else if (a === '--json') o.json = value();
    else if (a === '--fixtures') o.fixtures = value();
    else if (a === '--dist') o.dist = value();
    else if (a === '--keep') o.keep = true;
    else if (a === '--help' || a === '-h') o.help = true;
    else throw new UsageError(`unknown option ${a}`);
  }
  if (!['auto', 'time', 'probe'].includes(o.rssMethod)) throw new UsageError(`--rss-method must be auto, time or probe`);
  o.rounds ??= o.quick ? 10 : 30;
  o.rssReps ??= o.quick ? 2 : 3;
  if (o.rounds < 5) throw new UsageError('--rounds must be at least 5');
  if (o.rssReps < 1) throw new UsageError('--rss-reps must be at least 1');
  return o;
}

class UsageError extends Error {}

const progress = (text) => {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
  else if (!text.includes(' round ') && !text.includes(' rep ')) process.stderr.write(`${text}\n`);
};
const progressDone = () => {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
};

/** One timed run into `into`: put the state back (untimed), spawn, check (untimed). */
function timedRun(x, into) {
  x.reset();
  const r = runNode([x.file], { input: x.input, cwd: x.cwd, env: x.env });
  const problem = x.check(r);
  if (problem !== undefined) into.problems.push(problem);
  into.samples.push(r.ms);
  into.cpu.push(r.cpuMs);
}

function collect() {
  return { samples: [], cpu: [], problems: [] };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  const distDir = resolve(opts.dist ?? join(REPO, 'dist'));
  for (const h of HOOKS) {
    if (!existsSync(join(distDir, `${h}.mjs`))) throw new Error(`${join(distDir, `${h}.mjs`)} is missing: build first (npm run build)`);
  }
  const rssMethod = pickRssMethod(opts.rssMethod);
  const distHash = () => hashHooks(distDir);
  const distAtStart = distHash();
  const t0 = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'ctxl-bench-'));
  const load = [loadavg()[0]];
  try {
    const fixtures = resolveFixtures(REPO, opts.fixtures);
    const ws = createWorkspace({ root, repo: REPO, distDir, fixtures });
    if (fixtures === undefined) ws.notes.push(`fixtures folder not found (${opts.fixtures ?? '../shared/fixtures/transcripts'})`);

    progress('setup: inputs and transcripts (20 MB synthesized)…');
    const hooks = [...hookScenarios(ws), ...recallScenarios(ws)];
    const covered = new Set(hooks.map((s) => `${s.hook}.mjs`));
    for (const f of readdirSync(distDir)) {
      if (f.endsWith('.mjs') && f !== 'cli.mjs' && !covered.has(f)) ws.notes.push(`dist/${f} has no scenario in the bench: not measured`);
    }
    const small = hooks.find((s) => s.id === 'stop');
    const big = stopScenario(ws, { id: 'stop-big', prefixBytes: BIG_PREFIX_BYTES, label: 'Stop (big)' });
    const bigFromZero = fromZeroOf(big);

    // Warm-up: page cache for node and dist/, first-run directories; one untimed run each.
    progress('warm-up…');
    const warm = collect();
    for (let i = 0; i < 1; i++) {
      runNode(['-e', ''], { cwd: ws.project, env: ws.env });
      for (const s of [...hooks, big]) {
        timedRun(floorOf(ws, s), warm);
        timedRun(s, warm);
      }
    }

    // ---- 1. hook overhead vs floor ----
    const nodeE = [];
    const fig1 = hooks.map((s) => ({ s, floor: floorOf(ws, s), hook: collect(), base: collect() }));
    for (let round = 0; round < opts.rounds; round++) {
      progress(`1/3 overhead: round ${round + 1}/${opts.rounds}`);
      load.push(loadavg()[0]);
      nodeE.push(runNode(['-e', ''], { cwd: ws.project, env: ws.env }).ms);
      fig1.forEach((row, i) => {
        const hookFirst = (round + i) % 2 === 1;
        if (hookFirst) timedRun(row.s, row.hook);
        timedRun(row.floor, row.base);
        if (!hookFirst) timedRun(row.s, row.hook);
      });
    }
    progressDone();

    // ---- 1b. what a 1 MB input costs before any hook work: decoding and parsing it, one fork ----
    const parseFloor = join(REPO, 'bench', 'floor-parse.mjs');
    const fig1b = hooks
      .filter((s) => BIG_INPUT_IDS.includes(s.id))
      .map((s) => {
        const floor = floorOf(ws, s);
        const cases = [
          { label: 'floor', x: floor },
          { label: '+ decode and JSON.parse', x: { ...floor, file: parseFloor } },
          { label: '+ decode, JSON.parse and one detached process', x: { ...floor, file: parseFloor, env: { ...floor.env, CTXL_BENCH_SPAWN: '1' } } },
          { label: 'hook', x: s },
        ];
        return { s, cases: cases.map((c) => ({ ...c, c: collect() })) };
      });
    for (let round = 0; round < opts.rounds; round++) {
      progress(`1b/3 1 MB input: round ${round + 1}/${opts.rounds}`);
      load.push(loadavg()[0]);
      for (const row of fig1b) for (const e of round % 2 === 0 ? row.cases : [...row.cases].reverse()) timedRun(e.x, e.c);
    }
    progressDone();

    // ---- 2. cursor reads: 20 MB vs 100 KB, same 20 KB new ----
    // Twice the rounds (two spawns each): the expected ratio is 1, so noise is all there is to beat.
    const fig2 = [
      { key: 'small', x: small, c: collect() },
      { key: 'big', x: big, c: collect() },
    ];
    const cursorRounds = 2 * opts.rounds;
    for (let round = 0; round < cursorRounds; round++) {
      progress(`2/3 cursor: round ${round + 1}/${cursorRounds}`);
      load.push(loadavg()[0]);
      const order = round % 2 === 0 ? fig2 : [...fig2].reverse();
      for (const e of order) timedRun(e.x, e.c);
    }
    progressDone();

    // ---- 3. peak RSS ----
    const rssFile = join(root, 'rss.out');
    const fig3 = [
      {
        x: {
          ...floorOf(
            ws,
            hooks.find((s) => s.id === 'post-tool-use'),
          ),
          label: 'floor',
          desc: 'same stdin as PostToolUse',
        },
        floor: true,
      },
      ...hooks.map((x) => ({ x })),
      { x: bigFromZero },
    ].map((e) => ({ ...e, kb: [], ms: [], problems: [] }));
    for (let rep = 0; rep < opts.rssReps; rep++) {
      progress(`3/3 memory: rep ${rep + 1}/${opts.rssReps}`);
      const order = rep % 2 === 0 ? fig3 : [...fig3].reverse();
      for (const e of order) {
        e.x.reset();
        const r = runNodeRss(rssMethod, [e.x.file], { input: e.x.input, cwd: e.x.cwd, env: e.x.env }, rssFile);
        const problem = e.x.check(r) ?? (Number.isFinite(r.kb) ? undefined : 'no peak RSS recorded');
        if (problem !== undefined) e.problems.push(problem);
        e.kb.push(r.kb);
        e.ms.push(r.ms);
      }
    }
    progressDone();
    load.push(loadavg()[0]);

    const distAtEnd = distHash();
    if (distAtEnd !== distAtStart)
      ws.notes.unshift(`WARNING: dist/ changed while the bench ran (${distAtStart} → ${distAtEnd}, a rebuild?): these figures mix two builds; rerun.`);
    const result = analyse({ opts, ws, hooks, nodeE, fig1, fig1b, fig2, fig3, warm, big, small, rssMethod, load, t0, distAtStart });
    console.log(render(result));
    if (opts.json !== undefined) {
      const file = resolve(opts.json);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
      process.stderr.write(`results written to ${file}\n`);
    }
  } finally {
    if (opts.keep) process.stderr.write(`workspace kept: ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  }
}

function uniq(xs) {
  const counts = new Map();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].map(([text, n]) => (n > 1 ? `${text} (×${n})` : text));
}

function analyse({ opts, ws, hooks, nodeE, fig1, fig1b, fig2, fig3, warm, big, small, rssMethod, load, t0, distAtStart }) {
  const nodeEStats = summary(nodeE);
  const overhead = fig1.map(({ s, hook, base }) => {
    const h = summary(hook.samples);
    const f = summary(base.samples);
    const problems = uniq([...hook.problems, ...base.problems.map((p) => `floor: ${p}`)]);
    const medianRatio = h.median / f.median;
    const p95Ratio = h.p95 / f.p95;
    const cpuHook = mean(hook.cpu);
    const cpuFloor = mean(base.cpu);
    return {
      hook: s.label,
      file: `dist/${s.hook}.mjs`,
      input: s.desc,
      stdinBytes: s.input.length,
      floor: f,
      hookStats: h,
      overheadMs: h.median - f.median,
      medianRatio,
      p95Ratio,
      pairedRatio: pairedRatio(hook.samples, base.samples),
      cpu: { floorMeanMs: cpuFloor, hookMeanMs: cpuHook, ratio: cpuHook / cpuFloor },
      nodeE: nodeEStats.median,
      medianPass: medianRatio <= TARGET.medianRatio,
      p95Pass: p95Ratio <= TARGET.p95Ratio,
      invalid: hook.problems.length > 0,
      problems,
      samples: { hook: hook.samples, floor: base.samples, hookCpu: hook.cpu, floorCpu: base.cpu },
    };
  });

  const bigInput = fig1b.map(({ s, cases }) => {
    const floorMs = summary(cases[0].c.samples).median;
    return {
      hook: s.label,
      input: s.desc,
      stdinBytes: s.input.length,
      cases: cases.map((e) => {
        const st = summary(e.c.samples);
        return { label: e.label, median: st.median, ratio: st.median / floorMs, cpuMeanMs: mean(e.c.cpu), problems: uniq(e.c.problems), samples: e.c.samples };
      }),
    };
  });

  const byKey = Object.fromEntries(
    fig2.map((e) => [e.key, { stats: summary(e.c.samples), cpuMeanMs: mean(e.c.cpu), problems: uniq(e.c.problems), samples: e.c.samples, cpu: e.c.cpu }]),
  );
  const cursorRatio = byKey.big.stats.median / byKey.small.stats.median;
  const cursor = {
    rounds: byKey.small.samples.length,
    small: { ...byKey.small, transcriptBytes: small.size, newBytes: small.newBytes },
    big: { ...byKey.big, transcriptBytes: big.size, newBytes: big.newBytes },
    ratio: cursorRatio,
    pairedRatio: pairedRatio(byKey.big.samples, byKey.small.samples),
    cpuRatio: byKey.big.cpuMeanMs / byKey.small.cpuMeanMs,
    pass: Math.abs(cursorRatio - 1) <= TARGET.cursorSpread,
    invalid: byKey.small.problems.length + byKey.big.problems.length > 0,
  };

  const floorKb = summary(fig3[0].kb);
  const memory = fig3.map((e) => {
    const k = summary(e.kb.filter(Number.isFinite));
    return {
      case: e.floor ? 'floor' : e.x.label,
      input: e.x.desc,
      kb: k,
      floorKb: floorKb.median,
      overFloorKb: k.median - floorKb.median,
      wallMs: summary(e.ms).median,
      pass: e.floor ? undefined : k.max <= TARGET.rssKb,
      invalid: e.problems.length > 0,
      problems: uniq(e.problems),
      samples: e.kb,
    };
  });

  const logs = [...hooks, big].flatMap((s) => logProblems(s).map((l) => `${s.label}: [${l.level}] ${l.msg}`));
  return {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpu: `${cpus()[0]?.model ?? '?'} ×${cpus().length}`,
      cores: cpus().length,
      load1: { mean: mean(load), max: Math.max(...load), samples: load },
      rounds: opts.rounds,
      rssReps: opts.rssReps,
      rssMethod,
      git: gitInfo(),
      dist: distAtStart,
      distDir: opts.dist === undefined ? 'dist' : resolve(opts.dist),
      fixtures: ws.fixtures ?? null,
      durationS: (Date.now() - t0) / 1000,
      targets: TARGET,
    },
    nodeE: { ...nodeEStats, samples: nodeE },
    overhead,
    bigInput,
    cursor,
    memory,
    notes: [...ws.notes, ...uniq(warm.problems).map((p) => `warm-up: ${p}`), ...uniq(logs)],
  };
}

/**
 * A short hash of dist/*.mjs and the programs they run (dist/programs/: the loaders name theirs by
 * hash, the ingest worker is there too), to tell builds apart and to notice a rebuild during the run.
 */
function hashHooks(distDir) {
  const h = createHash('sha256');
  for (const dir of [distDir, join(distDir, 'programs')]) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (/\.(mjs|js)$/.test(f)) h.update(f).update(readFileSync(join(dir, f)));
  }
  return h.digest('hex').slice(0, 12);
}

function gitInfo() {
  const git = (...args) => {
    const r = spawnSync('git', args, { cwd: REPO, encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : undefined;
  };
  const head = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--', 'dist');
  return head === undefined ? 'n/a' : `${head}${dirty ? ' (dist/ differs from HEAD)' : ''}`;
}

function render(r) {
  const m = r.meta;
  const out = [];
  out.push('# context-lifecycle hook bench', '');
  out.push(
    `${m.date} · node ${m.node} · ${m.platform} · ${m.cpu} · 1-min load mean ${m.load1.mean.toFixed(1)} (max ${m.load1.max.toFixed(1)}) · git ${m.git} · ${m.distDir} ${m.dist} · ` +
      `${m.rounds} rounds · RSS by ${m.rssMethod === 'time' ? 'GNU time %M' : 'resourceUsage().maxRSS probe'} ×${m.rssReps} · ${m.durationS.toFixed(0)} s`,
    '',
  );

  out.push('## 1. Hook overhead vs floor', '');
  out.push(
    `Floor: \`node bench/floor.mjs\` (empty ES module reading all stdin), same stdin, cwd and env, interleaved with the hook in every round. ` +
      `Times are wall ms from spawn to exit, as Claude Code sees them. \`node -e ''\`: median ${ms(r.nodeE.median)} ms (p95 ${ms(r.nodeE.p95)}).`,
    '',
  );
  out.push(
    table(
      [
        'hook',
        'input',
        'floor med',
        'hook med',
        'hook − floor',
        'ratio',
        'floor p95',
        'hook p95',
        'p95 ratio',
        "node -e '' med",
        'ratio ≤ 1.25',
        'p95 ratio ≤ 1.5',
      ],
      r.overhead.map((o) => [
        o.hook,
        o.input,
        ms(o.floor.median),
        ms(o.hookStats.median),
        signedMs(o.overheadMs),
        ratio(o.medianRatio),
        ms(o.floor.p95),
        ms(o.hookStats.p95),
        ratio(o.p95Ratio),
        ms(o.nodeE),
        verdict(o.medianPass, o.invalid),
        verdict(o.p95Pass, o.invalid),
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'],
    ),
    '',
  );

  out.push(
    `Cross-checks that resist load on a busy machine (information, not targets): the paired ratio is the median of per-round hook/floor ratios ` +
      `(each pair ran back to back); CPU is user+sys of the child (mean; /proc/self/stat cutime+cstime), which leaves out time spent waiting for a core.`,
    '',
  );
  out.push(
    table(
      ['hook', 'paired ratio', 'floor CPU ms', 'hook CPU ms', 'CPU − floor', 'CPU ratio'],
      r.overhead.map((o) => [
        o.hook,
        ratio(o.pairedRatio),
        ms(o.cpu.floorMeanMs),
        ms(o.cpu.hookMeanMs),
        signedMs(o.cpu.hookMeanMs - o.cpu.floorMeanMs),
        ratio(o.cpu.ratio),
      ]),
    ),
    '',
  );

  if (r.bigInput.length > 0) {
    out.push('### 1b. What a 1 MB input costs before any hook work', '');
    out.push(
      'The same 1 MB stdin, interleaved: the floor; `bench/floor-parse.mjs`, which also decodes and parses it (what any hook reading its input must do); ' +
        'the same starting one detached process (`node --version`, with child_process: a hook that hands the archiving to a background job forks once); and the hook. ' +
        "Ratios are to this figure's floor. Information: it shows how much of the hook's ratio the input itself and one fork take.",
      '',
    );
    out.push(
      table(
        ['hook', 'case', 'median ms', 'vs floor', 'CPU ms (mean)'],
        r.bigInput.flatMap((b) => b.cases.map((e) => [b.hook, e.label, ms(e.median), ratio(e.ratio), ms(e.cpuMeanMs)])),
        ['l', 'l', 'r', 'r', 'r'],
      ),
      '',
    );
  }

  const c = r.cursor;
  out.push('## 2. Cursor reads: cost follows what is new, not the file size', '');
  out.push(
    `Stop with a saved cursor (state restored before each run) and the same ${(c.small.newBytes / KB).toFixed(1)} KB of new lines after it; small and big alternate, ${c.rounds} rounds. ` +
      `The verdict is on the ratio of medians; paired ratio (median of per-round big/small) ${ratio(c.pairedRatio)}, CPU ratio ${ratio(c.cpuRatio)}.`,
    '',
  );
  out.push(
    table(
      ['case', 'transcript', 'new after cursor', 'median ms', 'p95 ms', 'CPU ms', 'ratio big/small', 'within 10%'],
      [
        [
          'Stop, small',
          fmtBytes(c.small.transcriptBytes),
          fmtBytes(c.small.newBytes),
          ms(c.small.stats.median),
          ms(c.small.stats.p95),
          ms(c.small.cpuMeanMs),
          '',
          '',
        ],
        [
          'Stop, big',
          fmtBytes(c.big.transcriptBytes),
          fmtBytes(c.big.newBytes),
          ms(c.big.stats.median),
          ms(c.big.stats.p95),
          ms(c.big.cpuMeanMs),
          ratio(c.ratio),
          verdict(c.pass, c.invalid),
        ],
      ],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
    '',
  );

  out.push('## 3. Peak memory', '');
  out.push(`Peak RSS in KB (median and max of ${m.rssReps} runs); target ≤ ${TARGET.rssKb} KB (80 MB), judged on the max.`, '');
  out.push(
    table(
      ['case', 'input', 'peak RSS med', 'peak RSS max', 'floor med', 'over floor', 'wall ms', '≤ 80 MB'],
      r.memory.map((e) => [
        e.case,
        e.input,
        kb(e.kb.median),
        kb(e.kb.max),
        kb(e.floorKb),
        e.case === 'floor' ? '–' : `${e.overFloorKb >= 0 ? '+' : ''}${kb(e.overFloorKb)}`,
        ms(e.wallMs),
        e.pass === undefined ? '' : verdict(e.pass, e.invalid),
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
    '',
  );

  const problems = [
    ...r.overhead.flatMap((o) => o.problems.map((p) => `${o.hook}: ${p}`)),
    ...r.bigInput.flatMap((b) => b.cases.flatMap((e) => e.problems.map((p) => `1 MB input, ${b.hook}, ${e.label}: ${p}`))),
    ...['small', 'big'].flatMap((k) => r.cursor[k].problems.map((p) => `cursor ${k}: ${p}`)),
    ...r.memory.flatMap((e) => e.problems.map((p) => `memory ${e.case}: ${p}`)),
  ];
  const count = (xs) => `${xs.filter(Boolean).length}/${xs.length}`;
  out.push('## Summary', '');
  out.push(
    `- hook median ratio ≤ ${TARGET.medianRatio}: ${count(r.overhead.map((o) => o.medianPass && !o.invalid))} PASS` +
      ` (CPU ratio ≤ ${TARGET.medianRatio}: ${count(r.overhead.map((o) => o.cpu.ratio <= TARGET.medianRatio))})`,
    `- hook p95 ratio ≤ ${TARGET.p95Ratio}: ${count(r.overhead.map((o) => o.p95Pass && !o.invalid))} PASS`,
    `- cursor read, big/small within ${TARGET.cursorSpread * 100}%: ${verdict(r.cursor.pass, r.cursor.invalid)} (${ratio(r.cursor.ratio)})`,
    `- peak RSS ≤ 80 MB: ${count(r.memory.filter((e) => e.pass !== undefined).map((e) => e.pass && !e.invalid))} PASS` +
      ` (largest: ${kb(Math.max(...r.memory.map((e) => e.kb.max)))} KB)`,
  );
  if (m.load1.mean > m.cores) {
    out.push(
      `- WARNING: the machine was busy (1-min load mean ${m.load1.mean.toFixed(1)} on ${m.cores} cores; the bench itself adds about 1). ` +
        'Wall-clock ratios move by ±0.1–0.2 between runs under such load; trust the paired and CPU columns more, or rerun when idle.',
    );
  }
  out.push('');
  out.push('## Checks', '');
  out.push(
    problems.length === 0
      ? 'Every timed run exited 0 with no stderr and did its work (SessionStart and /recall answered with additionalContext; session.json / events.jsonl updated; Stop and PreCompact moved the cursor to the end of the transcript).'
      : `INVALID rows: runs that did not do their work:\n${problems.map((p) => `- ${p}`).join('\n')}`,
  );
  if (r.notes.length > 0) out.push('', 'Notes (incl. warn/error lines the hooks logged):', ...r.notes.map((n) => `- ${n}`));
  return out.join('\n');
}

try {
  main();
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}

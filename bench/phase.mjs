#!/usr/bin/env node
// Phase bench: how well phases and decisions are recognised, and what phase memory costs the hooks.
//   1. tracker accuracy on labelled scripted sessions (dev and held-out halves)
//   2. decision and constraint extraction, precision and recall on labelled excerpts
//   3. SessionStart in a project of 200 sessions and 2,000 decisions vs the floor (same stdin)
//   4. ledger generation at PreCompact on a 20 MB transcript vs `ctxl ingest` of the same file
// Markdown to stdout, progress to stderr. Figures are ratios against baselines measured in the same
// run, interleaved with them.
//
//   node bench/phase.mjs [--quick] [--only tracker,decisions,session-start,ledger] [--keep]
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestSynth } from './archive-lib/datasets.mjs';
import { processProblem, runNode } from './lib/proc.mjs';
import { ms, ratio, table, verdict } from './lib/report.mjs';
import { median, pairedRatio } from './lib/stats.mjs';
import { evaluateDecisions } from './phase-lib/decisions-eval.mjs';
import { evaluateTracker } from './phase-lib/tracker-eval.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(REPO, 'dist');
const FLOOR = join(REPO, 'bench', 'floor.mjs');
const SECTIONS = ['tracker', 'decisions', 'session-start', 'ledger'];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyAt = args.indexOf('--only');
const only = onlyAt === -1 ? SECTIONS : (args[onlyAt + 1] ?? '').split(',');
for (const s of only) if (!SECTIONS.includes(s)) throw new Error(`unknown section ${s} (sections: ${SECTIONS.join(', ')})`);
const progress = (t) => process.stderr.write(`${t}\n`);
const pct = (x) => `${(100 * x).toFixed(1)}%`;

const out = [
  `# Phase bench`,
  '',
  `${new Date().toISOString().slice(0, 16).replace('T', ' ')} · node ${process.versions.node} · load ${loadavg()[0].toFixed(2)} · ${quick ? 'quick' : 'full'}`,
];

if (only.includes('tracker')) {
  progress('tracker accuracy…');
  const r = await evaluateTracker();
  // The same templates scripted with four more seeds: five times the events, steadier figures.
  const pooled = await evaluateTracker({ seeds: [1, 2, 3, 4, 5] });
  const row = (name, m) => [
    name,
    m.sessions,
    m.events,
    pct(m.accuracy),
    pct(m.recordedAccuracy),
    m.spuriousPer100.toFixed(2),
    m.detectionMedian,
    `${m.detectionCount} / ${m.detectionCount + m.detectionMissed}`,
    verdict(m.recordedAccuracy >= 0.9 && m.spuriousPer100 <= 1),
  ];
  out.push(
    '',
    '## 1. Phase tracker on labelled scripted sessions',
    '',
    'Each tool event of a session is labelled with its true phase; prompts with a clear phase statement set it as the hook does. Timeline accuracy (target ≥ 90%; the verdict is on this one): the phase the timeline records for each event, where a change found from the tool calls starts at the first call that showed it. That is the phase of the event everywhere it is kept: the timeline, the ledgers, the facts and the archived chunks (Stop tags them after syncing the phase). Online accuracy: the phase right after the event, before later calls confirmed a change; it counts the detection delay, reported on its own below, a second time. Spurious: transitions to a phase other than the label, per 100 events (target ≤ 1). Detection: events from a real change without a prompt until the tracker follows (median), and how many such changes were caught. `held` sessions come from other templates and seeds; the tracker was tuned on `dev` (three dev templates were added after a first look at the held figures, for cases the spec named).',
    '',
    table(
      ['half', 'sessions', 'events', 'online accuracy', 'timeline accuracy', 'spurious / 100', 'detection median', 'changes caught', 'verdict'],
      [row('dev', r.dev), row('held', r.held), row('all', r.all), row('dev, seeds 1–5', pooled.dev), row('held, seeds 1–5', pooled.held)],
    ),
  );
}

if (only.includes('decisions')) {
  progress('decision extraction…');
  const r = await evaluateDecisions();
  const rows = [];
  for (const kind of ['decisions', 'constraints']) {
    for (const half of ['dev', 'held', 'all']) {
      const m = r[kind][half];
      rows.push([kind, half, m.precision.toFixed(2), m.recall.toFixed(2), m.tp, m.fp, m.fn]);
    }
  }
  out.push(
    '',
    '## 2. Decision and constraint extraction on labelled excerpts',
    '',
    '128 excerpts of coding-session text (user prompts and assistant replies, with look-alikes that must not match), each with its labelled decisions and constraints; a prediction matches when it contains the label\'s key phrase. `held`: not used for tuning (one bug, "decided to do …" dropped, was found through a held miss and fixed).',
    '',
    table(['kind', 'half', 'precision', 'recall', 'tp', 'fp', 'fn'], rows),
  );
}

const root = mkdtempSync(join(tmpdir(), 'ctxl-phase-bench-'));
try {
  if (only.includes('session-start')) out.push('', ...sessionStartSection(root));
  if (only.includes('ledger')) out.push('', ...(await ledgerSection(root)));
} finally {
  if (args.includes('--keep')) progress(`kept: ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
console.log(out.join('\n'));

// ---- 3. SessionStart with a big project memory ----

function hook(name, input, env, cwd) {
  const r = runNode([join(DIST, `${name}.mjs`)], { input: Buffer.from(JSON.stringify(input)), cwd, env });
  const problem = processProblem(r);
  if (problem !== undefined) throw new Error(`${name}: ${problem}`);
  return r;
}

/** A project whose data dir holds 200 sessions (phase file, facts, ledgers each) and 2,000 decisions. */
function bigProject(dir) {
  const project = join(dir, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const home = join(dir, 'home');
  const env = { PATH: process.env.PATH ?? '', HOME: dir, TZ: 'UTC', CTXL_HOME: home, CTXL_PROJECT_MEMORY: '0' };
  const transcript = join(dir, 'seed.jsonl');
  const t0 = Date.now();
  const lines = [];
  const line = (i, message) => ({
    type: message.role,
    uuid: `u${i}`,
    parentUuid: i === 0 ? null : `u${i - 1}`,
    sessionId: 'seed',
    cwd: project,
    timestamp: new Date(t0 + i).toISOString(),
    message,
  });
  const say = (text) =>
    lines.push(
      line(lines.length, {
        role: 'assistant',
        id: `m${lines.length}`,
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text }],
        usage: { input_tokens: 5, output_tokens: 5 },
      }),
    );
  const base = { session_id: 'seed', transcript_path: transcript, cwd: project };
  const prompt = (text) => {
    lines.push(line(lines.length, { role: 'user', content: text }));
    writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    hook('user-prompt-submit', { ...base, hook_event_name: 'UserPromptSubmit', prompt: text }, env, project);
  };
  const tool = (tool_name, tool_input) =>
    hook('post-tool-use', { ...base, hook_event_name: 'PostToolUse', tool_name, tool_input, tool_response: { stdout: 'ok', stderr: '' } }, env, project);
  const stop = () => {
    writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    hook('stop', { ...base, hook_event_name: 'Stop' }, env, project);
  };
  prompt("Let's plan the billing export first. Never commit to main, and don't add new dependencies.");
  for (const f of ['src/export.ts', 'src/invoice.ts', 'src/db.ts']) tool('Read', { file_path: join(project, f) });
  tool('TodoWrite', {
    todos: [
      { content: 'Design the CSV format', status: 'in_progress' },
      { content: 'Implement the exporter', status: 'pending' },
    ],
  });
  stop();
  prompt("Now let's design the export format.");
  say("I'll use streaming CSV instead of building the file in memory because invoices can run to millions of rows.");
  stop();
  prompt('Start implementing it.');
  for (const f of ['src/export.ts', 'src/csv.ts', 'src/export.ts', 'src/index.ts'])
    tool('Edit', { file_path: join(project, f), old_string: 'a', new_string: 'b' });
  say('Next steps: add tests for quoting and for empty exports.');
  stop();
  hook('pre-compact', { ...base, hook_event_name: 'PreCompact', trigger: 'manual' }, env, project);

  const sessions = join(home, 'sessions');
  const projects = join(home, 'projects');
  const [key] = readdirSync(projects);
  const sessionLines = [];
  for (let i = 0; i < 200; i++) {
    const sid = `s-${String(i).padStart(3, '0')}`;
    for (const f of ['phase.json', 'facts.jsonl', 'ledgers']) cpSync(join(sessions, 'seed', f), join(sessions, sid, f), { recursive: true });
    sessionLines.push(JSON.stringify({ v: 1, session: sid, t: new Date(t0 + i * 1000).toISOString() }));
  }
  writeFileSync(join(projects, key, 'sessions.jsonl'), `${sessionLines.join('\n')}\n`);
  const decisions = [];
  const topics = ['cache', 'queue', 'parser', 'exporter', 'auth', 'retry', 'logging', 'schema', 'migration', 'cli'];
  const choices = ['zod', 'a worker thread', 'SQLite', 'streaming CSV', 'exponential backoff', 'pino', 'a ring buffer', 'JSON lines', 'esbuild', 'vitest'];
  for (let i = 0; i < 2000; i++) {
    const topic = topics[i % topics.length];
    const chosen = choices[(i * 7) % choices.length];
    const rec = {
      v: 1,
      id: `D-${(0x10000000 + i * 7919).toString(16).slice(-8)}`,
      t: new Date(t0 - (2000 - i) * 60_000).toISOString(),
      session: `s-${String(i % 200).padStart(3, '0')}`,
      phase: ['design', 'implementation', 'planning'][i % 3],
      text: `I'll use ${chosen} for the ${topic} (${i}) because it keeps the ${topic} code small and testable.`,
      reason: `it keeps the ${topic} code small and testable`,
      chosen,
      ref: (0x1000000000000000n + BigInt(i)).toString(16),
    };
    if (i % 10 === 9) rec.supersedes = [`D-${(0x10000000 + (i - 10) * 7919).toString(16).slice(-8)}`];
    decisions.push(JSON.stringify(rec));
  }
  writeFileSync(join(projects, key, 'decisions.jsonl'), `${decisions.join('\n')}\n`);
  return { project, home, env, transcript };
}

function sessionStartSection(dir) {
  progress('SessionStart with 200 sessions and 2,000 decisions: building the project…');
  const p = bigProject(join(dir, 'ss'));
  const rounds = quick ? 10 : 30;
  const cases = [
    {
      label: 'startup (new session: the latest session and the decision log)',
      input: { session_id: 'fresh', transcript_path: join(dir, 'none.jsonl'), cwd: p.project, hook_event_name: 'SessionStart', source: 'startup' },
    },
    {
      label: 'resume (its own phase file, facts, the decision log)',
      input: { session_id: 's-199', transcript_path: join(dir, 'none.jsonl'), cwd: p.project, hook_event_name: 'SessionStart', source: 'resume' },
    },
  ].map((c) => ({ ...c, buf: Buffer.from(JSON.stringify(c.input)), hook: [], floor: [], chars: 0 }));
  // One untimed run each first: page cache, and the code cache a user's installation already holds.
  for (const c of cases) runNode([join(DIST, 'session-start.mjs')], { input: c.buf, cwd: p.project, env: p.env });
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      // Only the new session's state goes back: a removal right before the resume run would have
      // its disk work (journal, discards) land in that run.
      if (c.input.session_id === 'fresh') rmSync(join(p.home, 'sessions', 'fresh'), { recursive: true, force: true });
      const floorFirst = round % 2 === 0;
      if (floorFirst) c.floor.push(runNode([FLOOR], { input: c.buf, cwd: p.project, env: p.env }).ms);
      const r = runNode([join(DIST, 'session-start.mjs')], { input: c.buf, cwd: p.project, env: p.env });
      const problem = processProblem(r);
      if (problem !== undefined) throw new Error(`session-start: ${problem}`);
      c.chars = JSON.parse(r.stdout).hookSpecificOutput.additionalContext.length;
      c.hook.push(r.ms);
      if (!floorFirst) c.floor.push(runNode([FLOOR], { input: c.buf, cwd: p.project, env: p.env }).ms);
    }
  }
  const rows = cases.map((c) => {
    const ratioMedian = median(c.hook) / median(c.floor);
    return [
      c.label,
      ms(median(c.hook)),
      ms(median(c.floor)),
      ratio(ratioMedian),
      ratio(pairedRatio(c.hook, c.floor)),
      c.chars,
      '≤ 1.25',
      verdict(ratioMedian <= 1.25),
    ];
  });
  return [
    '## 3. SessionStart in a project of 200 sessions and 2,000 decisions',
    '',
    `The data dir holds 200 sessions (phase file, facts and ledgers each, made by the real hooks and copied) and a decision log of 2,000 decisions. Floor: \`bench/floor.mjs\` (Node reading the same stdin). ${rounds} interleaved rounds.`,
    '',
    table(['case', 'hook median ms', 'floor median ms', 'ratio', 'paired ratio', 'chars injected', 'target', 'verdict'], rows),
  ];
}

// ---- 4. Ledger at PreCompact on a 20 MB transcript ----

async function ledgerSection(dir) {
  const synth = await ingestSynth();
  const project = join(dir, 'ledger-project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const sid = 'ledger-bench';
  const rounds = quick ? 1 : 3;
  const rows = { ingest: [], first: [], again: [] };
  for (let round = 0; round < rounds; round++) {
    progress(`ledger at PreCompact on ${(synth.bytes / 1e6).toFixed(1)} MB: round ${round + 1}/${rounds}`);
    const homeA = join(dir, `ingest-${round}`);
    const homeB = join(dir, `precompact-${round}`);
    const envOf = (home) => ({ PATH: process.env.PATH ?? '', HOME: dir, TZ: 'UTC', CTXL_HOME: home, CTXL_PROJECT_MEMORY: '0' });
    const ingest = () => {
      const r = runNode([join(DIST, 'cli.mjs'), 'ingest', synth.path, '--cwd', project, '--json'], { cwd: project, env: envOf(homeA) });
      if (r.status !== 0) throw new Error(`ingest: ${r.stderr}`);
      rows.ingest.push(r.ms);
    };
    const input = { session_id: sid, transcript_path: synth.path, cwd: project, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null };
    const precompact = (into) => {
      const r = hook('pre-compact', input, envOf(homeB), project);
      into.push(r.ms);
    };
    if (round % 2 === 0) {
      ingest();
      precompact(rows.first);
    } else {
      precompact(rows.first);
      ingest();
    }
    precompact(rows.again);
    const ledgers = readdirSync(join(homeB, 'sessions', sid, 'ledgers'));
    if (ledgers.length === 0) throw new Error('PreCompact wrote no ledger');
    rmSync(homeA, { recursive: true, force: true });
    rmSync(homeB, { recursive: true, force: true });
  }
  const ingestMs = median(rows.ingest);
  return [
    `## 4. Ledger generation at PreCompact on a ${(synth.bytes / 1e6).toFixed(1)} MB transcript`,
    '',
    'PreCompact from byte 0 in a fresh data dir (archive to L2, read the facts, write the ledger) against `ctxl ingest` of the same file (archive and index); then PreCompact again, with L2 current (what a later compaction pays: the ledger checkpoint alone). Median of the rounds.',
    '',
    table(
      ['run', 'median ms', 'vs ingest'],
      [
        ['`ctxl ingest` (baseline)', ms(ingestMs), '1.00'],
        ['PreCompact from byte 0: archive + facts + ledger', ms(median(rows.first)), ratio(median(rows.first) / ingestMs)],
        ['PreCompact again (L2 current): ledger checkpoint', ms(median(rows.again)), ratio(median(rows.again) / ingestMs)],
      ],
    ),
  ];
}

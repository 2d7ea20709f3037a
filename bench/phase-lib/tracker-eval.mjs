// Scores the phase tracker (lib/phase/signals.ts + lib/phase/tracker.ts) on the labelled sessions of
// sessions.mjs, driving it the way the hooks do: every tool call through toolSignal → observeTool,
// every prompt through promptPhase → setPhase(…, 'prompt', …). Tune on `dev` only; `held` measures.
//
//   node bench/phase-lib/tracker-eval.mjs            Markdown table, then the dev sessions' worst stretches
//   node bench/phase-lib/tracker-eval.mjs --trace S  the event-by-event run of the sessions whose name contains S
//   --seed N                                         other scripts from the same templates (default 1)
import { fileURLToPath } from 'node:url';
import { loadTs } from './load-ts.mjs';
import { sessions } from './sessions.mjs';

const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const STEP_MS = 20_000;

/** Runs one session; returns one row per tool event and the transitions. */
function runSession(session, { signals, tracker }) {
  const state = tracker.newPhaseState(new Date(T0).toISOString());
  const events = [];
  const transitions = [];
  let saidSinceLastTool = false;
  let pending = [];
  session.steps.forEach((step, i) => {
    const now = new Date(T0 + i * STEP_MS).toISOString();
    if (step.type === 'prompt') {
      const said = signals.promptPhase(step.text);
      if (said === undefined) return;
      saidSinceLastTool = true;
      const t = tracker.setPhase(state, said.phase, 'prompt', `prompt: "${said.quote}"`, now);
      if (t !== undefined) pending.push({ ...t, by: 'prompt' });
      return;
    }
    const signal = signals.toolSignal({ tool: step.tool, input: step.input, ok: step.ok });
    const t = tracker.observeTool(state, signal, now);
    const index = events.length;
    // A prompt's transition is judged against the first tool call after it.
    for (const p of pending) transitions.push({ index, from: p.from, to: p.to, by: 'prompt', trigger: p.span.trigger });
    pending = [];
    if (t !== undefined) transitions.push({ index, from: t.from, to: t.to, by: 'tools', trigger: t.span.trigger });
    events.push({
      label: step.phase,
      predicted: state.phase,
      explicit: saidSinceLastTool,
      tool: step.tool,
      kind: signal.kind,
      detail: signal.detail ?? '',
      at: now,
    });
    saidSinceLastTool = false;
  });
  // The phase the timeline records for each event once the session is over (a change found by the
  // rules starts at the first call that showed it): what ledgers and archived chunks carry.
  for (const e of events) {
    let recorded = state.spans[0]?.phase;
    for (const span of state.spans) if (span.start <= e.at) recorded = span.phase;
    e.recorded = recorded;
  }
  return { events, transitions };
}

/** Detection delays of the label changes no prompt announced; undefined for a change never caught. */
function detections(events) {
  const out = [];
  for (let i = 1; i < events.length; i++) {
    const e = events[i];
    if (e.label === events[i - 1].label || e.explicit) continue;
    let delay;
    for (let j = i; j < events.length && events[j].label === e.label; j++) {
      if (events[j].predicted === e.label) {
        delay = j - i;
        break;
      }
    }
    out.push(delay);
  }
  return out;
}

function median(values) {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function metrics(runs) {
  let events = 0;
  let correct = 0;
  let recordedCorrect = 0;
  let spurious = 0;
  let transitions = 0;
  const delays = [];
  let missed = 0;
  for (const { events: ev, transitions: tr } of runs) {
    events += ev.length;
    correct += ev.filter((e) => e.label === e.predicted).length;
    recordedCorrect += ev.filter((e) => e.label === e.recorded).length;
    transitions += tr.length;
    spurious += tr.filter((t) => ev[t.index] !== undefined && ev[t.index].label !== t.to).length;
    for (const d of detections(ev)) {
      if (d === undefined) missed++;
      else delays.push(d);
    }
  }
  return {
    sessions: runs.length,
    events,
    accuracy: events === 0 ? 0 : correct / events,
    recordedAccuracy: events === 0 ? 0 : recordedCorrect / events,
    spuriousPer100: events === 0 ? 0 : (spurious * 100) / events,
    detectionMedian: median(delays),
    detectionCount: delays.length,
    detectionMissed: missed,
    transitions,
  };
}

async function load() {
  return { signals: await loadTs('lib/phase/signals.ts'), tracker: await loadTs('lib/phase/tracker.ts') };
}

/** `{ dev, held, all }` metrics over the labelled sessions (seed 1 unless given; `seeds`: several, pooled). */
export async function evaluateTracker({ seed = 1, seeds = [seed] } = {}) {
  const modules = await load();
  const runs = seeds.flatMap((k) => sessions(k)).map((s) => ({ session: s, ...runSession(s, modules) }));
  const of = (half) => metrics(runs.filter((r) => half === undefined || r.session.half === half));
  return { dev: of('dev'), held: of('held'), all: of(undefined) };
}

// ---- report ---------------------------------------------------------------------------------------

const pct = (x) => `${(x * 100).toFixed(1)}%`;

function table(result) {
  const lines = [
    '| half | sessions | events | accuracy | spurious / 100 | detection median | detected | missed | transitions |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [half, m] of Object.entries(result)) {
    lines.push(
      `| ${half} | ${m.sessions} | ${m.events} | ${pct(m.accuracy)} | ${m.spuriousPer100.toFixed(2)} | ${m.detectionMedian ?? '–'} | ${m.detectionCount} | ${m.detectionMissed} | ${m.transitions} |`,
    );
  }
  return lines.join('\n');
}

/** The longest run of wrong events in a session. */
function worstStretch(events) {
  let best;
  let start = -1;
  for (let i = 0; i <= events.length; i++) {
    const wrong = i < events.length && events[i].label !== events[i].predicted;
    if (wrong && start < 0) start = i;
    if (!wrong && start >= 0) {
      if (best === undefined || i - start > best.end - best.start) best = { start, end: i };
      start = -1;
    }
  }
  return best;
}

function describe(run) {
  const { events, session } = run;
  const ok = events.filter((e) => e.label === e.predicted).length;
  const head = `- ${session.name}: ${pct(ok / events.length)} of ${events.length}`;
  const w = worstStretch(events);
  if (w === undefined) return head;
  const first = events[w.start];
  const calls = events
    .slice(w.start, w.end)
    .map((e) => `${e.kind}${e.detail ? ` ${e.detail}` : ''}`)
    .join('; ');
  return `${head}; worst: events ${w.start + 1}-${w.end} labelled ${first.label}, tracker said ${first.predicted}: ${calls}`;
}

function trace(run) {
  const lines = [`### ${run.session.name}`];
  run.events.forEach((e, i) => {
    const t = run.transitions.filter((x) => x.index === i).map((x) => `  → ${x.to} (${x.trigger})`);
    const mark = e.label === e.predicted ? ' ' : '✗';
    lines.push(
      `${mark} ${String(i + 1).padStart(3)} ${e.label.padEnd(14)} ${e.predicted.padEnd(14)} ${e.kind} ${e.detail}${e.explicit ? ' [after prompt]' : ''}${t.join('')}`,
    );
  });
  return lines.join('\n');
}

async function main() {
  const modules = await load();
  const args = process.argv.slice(2);
  const traceAt = args.indexOf('--trace');
  const seedAt = args.indexOf('--seed');
  const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : 1;
  const all = sessions(seed).map((s) => ({ session: s, ...runSession(s, modules) }));
  if (traceAt >= 0) {
    const needle = args[traceAt + 1] ?? '';
    for (const run of all.filter((r) => r.session.name.includes(needle))) console.log(`${trace(run)}\n`);
    return;
  }
  const result = await evaluateTracker({ seed });
  console.log('## Phase tracker on the labelled sessions\n');
  console.log(table(result));
  console.log('\n### dev sessions, worst stretch each\n');
  for (const run of all.filter((r) => r.session.half === 'dev')) console.log(describe(run));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

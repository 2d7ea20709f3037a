// Precision and recall of lib/phase/facts.ts on the labelled set (decisions-set.mjs): decisions from
// assistant replies, constraints from user prompts, per half (dev, held) and overall.
// Run directly, it prints a Markdown table and the dev half's false positives and negatives
// (the held half's are left out on purpose: patterns are tuned on dev only).
import { fileURLToPath } from 'node:url';
import { decisionsSet } from './decisions-set.mjs';
import { loadTs } from './load-ts.mjs';

const KINDS = /** @type {const} */ ([
  ['decisions', 'decision', 'assistant'],
  ['constraints', 'constraint', 'user'],
]);

const norm = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Labels matched to predicted facts, each fact used at most once: a maximum bipartite matching
 * (augmenting paths), so a fact containing two labels cannot starve a label it alone could match.
 * Returns, per label, the index of its fact or -1.
 */
function match(labels, texts) {
  const factOf = labels.map(() => -1);
  const labelOf = texts.map(() => -1);
  const fits = (l, f) => texts[f].includes(norm(labels[l]));
  const augment = (l, seen) => {
    for (let f = 0; f < texts.length; f++) {
      if (seen.has(f) || !fits(l, f)) continue;
      seen.add(f);
      if (labelOf[f] === -1 || augment(labelOf[f], seen)) {
        labelOf[f] = l;
        factOf[l] = f;
        return true;
      }
    }
    return false;
  };
  for (let l = 0; l < labels.length; l++) augment(l, new Set());
  return factOf;
}

const ratio = (a, b) => (b === 0 ? 1 : a / b);
const score = (c) => ({ precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn), tp: c.tp, fp: c.fp, fn: c.fn });

/** Scores and the mistakes behind them, for one kind over the whole set. */
async function evaluateKind(facts, kind, role, listKey) {
  const counts = { dev: { tp: 0, fp: 0, fn: 0 }, held: { tp: 0, fp: 0, fn: 0 } };
  const mistakes = [];
  for (const item of decisionsSet) {
    if (item.role !== role) continue;
    const predicted = (role === 'user' ? facts.userFacts(item.text) : facts.assistantFacts(item.text)).filter((f) => f.kind === kind);
    const labels = item[listKey];
    const factOf = match(
      labels,
      predicted.map((f) => norm(f.text)),
    );
    const used = new Set(factOf.filter((f) => f >= 0));
    const c = counts[item.half];
    c.tp += used.size;
    c.fn += labels.length - used.size;
    c.fp += predicted.length - used.size;
    labels.forEach((label, l) => {
      if (factOf[l] === -1) mistakes.push({ half: item.half, id: item.id, type: 'FN', text: label });
    });
    predicted.forEach((fact, f) => {
      if (!used.has(f)) mistakes.push({ half: item.half, id: item.id, type: 'FP', text: fact.text });
    });
  }
  const all = { tp: counts.dev.tp + counts.held.tp, fp: counts.dev.fp + counts.held.fp, fn: counts.dev.fn + counts.held.fn };
  return { scores: { dev: score(counts.dev), held: score(counts.held), all: score(all) }, mistakes };
}

async function run() {
  const facts = await loadTs('lib/phase/facts.ts');
  const out = {};
  const mistakes = {};
  for (const [listKey, kind, role] of KINDS) {
    const r = await evaluateKind(facts, kind, role, listKey);
    out[listKey] = r.scores;
    mistakes[listKey] = r.mistakes;
  }
  return { scores: out, mistakes };
}

/** `{ decisions: { dev, held, all }, constraints: { dev, held, all } }`, each `{ precision, recall, tp, fp, fn }`. */
export async function evaluateDecisions() {
  return (await run()).scores;
}

function report({ scores, mistakes }) {
  const f = (x) => x.toFixed(2);
  const lines = ['| kind | half | precision | recall | tp | fp | fn |', '|---|---|---|---|---|---|---|'];
  for (const [kind, byHalf] of Object.entries(scores)) {
    for (const half of ['dev', 'held', 'all']) {
      const s = byHalf[half];
      lines.push(`| ${kind} | ${half} | ${f(s.precision)} | ${f(s.recall)} | ${s.tp} | ${s.fp} | ${s.fn} |`);
    }
  }
  const items = decisionsSet.length;
  const dev = decisionsSet.filter((i) => i.half === 'dev').length;
  lines.push('', `${items} excerpts (${dev} dev, ${items - dev} held).`, '', '## Dev half: false positives and negatives', '');
  let any = false;
  for (const [kind, list] of Object.entries(mistakes)) {
    for (const m of list) {
      if (m.half !== 'dev') continue;
      any = true;
      lines.push(`- ${kind} ${m.type} \`${m.id}\`: ${m.text}`);
    }
  }
  if (!any) lines.push('(none)');
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(report(await run()));
}

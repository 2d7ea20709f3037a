// What SessionStart injects on startup, resume and clear: where the work stands (phase and why),
// what is pending, the user's constraints, the recent decisions, the phase timeline and the latest
// ledger, then a recall hint. Most important first, cut to a budget (never over 9,500 characters:
// Claude Code diverts longer hook text to a file). It repeats nothing Claude Code restores itself
// (CLAUDE.md, its auto memory): only what this plugin alone knows.
import { join } from 'node:path';
import { dedupe, testLine } from '../phase/ledger.ts';
import { type FactRecord, hasPhases, ledgerDir, type PhaseFile, readFacts, readPhaseFile, readProjectSessions } from '../phase/phase-store.ts';
import { decisionLine } from '../recall/views.ts';
import type { Logger } from '../runtime/log.ts';
import type { Store } from '../runtime/store.ts';
import { liveDecisions, timelineOf } from './session-digest.ts';

export const MAX_INJECT_CHARS = 9_500;
const CHARS_PER_TOKEN = 4;

export interface BriefEnv {
  store: Store;
  log: Logger;
  now: Date;
  projectRoot: string;
  sessionId: string;
  budgetTokens: number;
  /** How the user calls recall here (`/recall` or `/context-lifecycle:recall`). */
  recallCommand: string;
  /** Characters already taken by what comes before the brief (the status line). */
  reserved?: number;
}

interface Focus {
  session: string;
  file: PhaseFile;
  self: boolean;
}

/** The brief, or undefined when there is nothing to say yet (a new project). */
export function sessionBrief(env: BriefEnv): string | undefined {
  const focus = focusSession(env);
  const chain = liveDecisions(env.store, env.projectRoot, env.log);
  if (focus === undefined && chain.length === 0) return undefined;
  const facts = focus === undefined ? [] : readFacts(env.store, focus.session, env.log);
  const sections: string[][] = [];

  if (focus !== undefined) {
    const spans = focus.file.tracker.spans;
    const cur = spans.at(-1);
    if (cur !== undefined) {
      const whose = focus.self ? 'This session' : `The previous session (\`${focus.session}\`)`;
      const why = cur.by === 'start' ? '' : `, ${cur.trigger}`;
      sections.push([`${whose} is in the **${cur.phase}** phase (since ${cur.start.slice(0, 16).replace('T', ' ')}${why}).`]);
    }
    const pending = pendingItems(focus.file, facts);
    if (pending.length > 0) sections.push(['Pending:', ...pending.map((p) => `- ${p}`)]);
    const constraints = dedupe(facts.filter((f) => f.kind === 'constraint')).slice(-8);
    if (constraints.length > 0) sections.push(["The user's constraints:", ...constraints.map((c) => `- ${c.text}`)]);
  }
  if (chain.length > 0) sections.push(['Recent decisions (newest first):', ...chain.slice(0, 8).map(decisionLine)]);
  if (focus !== undefined) {
    const line = timelineOf(focus.file, env.now.toISOString());
    if (line !== '') sections.push([`Timeline: ${line}`]);
    const latest = latestLedger(env.store, focus.session, focus.file);
    if (latest !== undefined) sections.push([`Latest ledger: \`${latest}\``]);
    const test = Object.values(focus.file.work)
      .flatMap((w) => w.tests)
      .sort((a, b) => (a.t < b.t ? -1 : 1))
      .at(-1);
    if (test !== undefined) sections.push([`Last test run: ${testLine(test)}`]);
  }
  const hint = `Everything said or seen before is archived: \`${env.recallCommand} <words>\` finds it; \`${env.recallCommand} timeline\`, \`${env.recallCommand} decisions\`, \`${env.recallCommand} phase:<name>\` show phases, decisions and ledgers.`;
  const budget = Math.min(MAX_INJECT_CHARS - (env.reserved ?? 0), env.budgetTokens * CHARS_PER_TOKEN) - hint.length - 60;
  // Too small a budget for anything but the hint: say nothing rather than a header alone.
  if (budget < 200) return undefined;
  const out: string[] = ['## context-lifecycle: where the work stands', ''];
  let used = out.join('\n').length;
  for (const section of sections) {
    const kept: string[] = [];
    for (const line of section) {
      if (used + line.length + 1 > budget) break;
      kept.push(line);
      used += line.length + 1;
    }
    if (kept.length > (section.length > 1 ? 1 : 0)) out.push(...kept, '');
    if (used >= budget) break;
  }
  out.push(hint);
  return out.join('\n');
}

/** This session if it has phase data (resume, compact), else the project's latest other session. */
function focusSession(env: BriefEnv): Focus | undefined {
  const self = readPhaseFile(env.store, env.sessionId, env.log, env.now);
  if (self !== undefined && hasPhases(self)) return { session: env.sessionId, file: self, self: true };
  for (const session of readProjectSessions(env.store, env.projectRoot, env.log)) {
    if (session === env.sessionId) continue;
    const file = readPhaseFile(env.store, session, env.log, env.now);
    if (file !== undefined) return { session, file, self: false };
  }
  return undefined;
}

function pendingItems(file: PhaseFile, facts: readonly FactRecord[]): string[] {
  const out: string[] = [];
  for (const t of file.todos ?? []) if (t.status !== 'completed') out.push(`${t.status === 'in_progress' ? '(in progress) ' : ''}${t.content}`);
  const last = file.tracker.spans.at(-1)?.n ?? 0;
  const recent = facts.filter((f) => (f.kind === 'next-step' || f.kind === 'open-item') && f.n >= last - 1);
  for (const f of dedupe(recent).slice(-6)) out.push(f.text);
  return out.slice(0, 10);
}

function latestLedger(store: Store, session: string, file: PhaseFile): string | undefined {
  const keys = Object.keys(file.ledgers)
    .map(Number)
    .sort((a, b) => a - b);
  const ref = file.ledgers[String(keys.at(-1))];
  return ref === undefined ? undefined : (ref.l3 ?? join(ledgerDir(store, session), ref.file));
}

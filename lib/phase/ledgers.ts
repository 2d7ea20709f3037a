// The phase work of the hooks that read the transcript (Stop, PreCompact, SessionEnd, /recall):
// catch up with the transcript while reading facts from what was said, tag each archived chunk
// with the phase it was said in, then write the ledgers that are due, promote their decisions to
// the decision log, and mirror both into the project (L3).
import { join } from 'node:path';
import { readChunk, writeChunks } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import { chunkHash } from '../archive/hash.ts';
import { keywords } from '../archive/keywords.ts';
import { redactText } from '../archive/redact.ts';
import type { Config } from '../runtime/config.ts';
import { sanitizeName } from '../runtime/paths.ts';
import { ensureDir, pathExists, writeFileAtomic } from '../runtime/store.ts';
import { catchUpSession, eventsFile, readCursor, type SessionAdvance, type SessionEnv } from '../session/session-files.ts';
import { assistantFacts, type Fact, factKey, userFacts } from './facts.ts';
import { buildLedger, decisionId, decisionRecord, firstOf, ledgerFileName, renderLedger, superseded } from './ledger.ts';
import { foldEvents, syncPhase } from './observe.ts';
import {
  type DecisionRecord,
  decisionsFile,
  FACT_VERSION,
  type FactRecord,
  factsFile,
  type LedgerRef,
  ledgerDir,
  markDue,
  projectSessionsFile,
  readDecisions,
  readFacts,
  readPhaseFile,
  updatePhaseFile,
} from './phase-store.ts';
import { decisionFile, projectMemory, writeProjectFile } from './project-memory.ts';
import { parsePhaseName } from './signals.ts';
import { cut } from './span-work.ts';
import { type PhaseSpan, setPhase } from './tracker.ts';

export interface PhaseEnv extends SessionEnv {
  config: Pick<Config, 'projectMemory' | 'projectMemoryDir'>;
}

const GOAL_CHARS = 600;

/** How long before a prompt-started span its prompt may be stamped in the transcript. */
const PROMPT_LEAD_MS = 5_000;

/**
 * The span a chunk belongs to: the last one that started at or before its time. A user message is
 * stamped by the client before UserPromptSubmit opens the phase it asks for (0.3 to 0.5 s before, in
 * the real client), so a user chunk just before a span opened by a prompt belongs to that span.
 */
export function phaseAt(spans: readonly PhaseSpan[], time: string, userPrompt = false): PhaseSpan | undefined {
  let found: PhaseSpan | undefined = spans[0];
  const t = Date.parse(time);
  for (const span of spans) {
    if (span.start <= time) found = span;
    else if (!userPrompt || Date.parse(span.start) - t > PROMPT_LEAD_MS) break;
    // A span opened by a prompt, or one opened in the same moment (the session's first).
    else if (span.by === 'prompt' || span.by === 'explicit' || found === undefined || found === spans[0]) found = span;
  }
  return found;
}

/**
 * Catch up with the transcript (L2 complete up to now) and record the facts said since the last
 * time: decisions, constraints, requirements, next steps, open items; the goal; handoffs.
 */
export async function catchUpWithPhase(env: SessionEnv, sessionId: string, transcriptPath: string): Promise<SessionAdvance | undefined> {
  // The tool calls since the last fold first: the spans tag what was said, in order.
  await syncPhase(env, sessionId, eventsFile(env.store, sessionId));
  const now = env.now();
  const known = readPhaseFile(env.store, sessionId, env.log, now);
  const spans = known?.tracker.spans ?? [];
  const hasGoal = known?.goal !== undefined;
  const found: FactRecord[] = [];
  let goal: string | undefined;
  const handoffs: Array<{ phase: ReturnType<typeof parsePhaseName>; quote: string }> = [];
  // The assistant message a prompt answers ("Pinia." to "Pinia or Vuex?"): the pass's latest, else
  // the one the cursor recorded, read once (a prompt is the first line of a pass more often than not).
  let answered: string | undefined;
  let readBack = false;
  const offer = () => {
    if (answered === undefined && !readBack) {
      readBack = true;
      answered = saidBefore(env, sessionId);
    }
    return answered;
  };
  const onChunk = (chunk: Chunk) => {
    found.push(...factsOfChunk(chunk, spans, offer));
    if (chunk.type === 'assistant' && mainThread(chunk)) answered = chunk.text;
    goal ??= goalOf(chunk);
    if (chunk.type === 'assistant' && chunk.sidechain !== true) {
      const handoff = handoffTo(chunk.text);
      if (handoff !== undefined) handoffs.push(handoff);
    }
  };
  // Recorded under the cursor lock, before the cursor moves past the lines they came from.
  const beforeSave = () => recordFacts(env, sessionId, found.splice(0));
  const result = await catchUpSession(env, sessionId, transcriptPath, { onChunk, beforeSave });
  // Written once per session (the goal) and at handoffs: not a lock and a write on every Stop.
  if ((goal !== undefined && !hasGoal) || handoffs.length > 0) {
    await updatePhaseFile(env, sessionId, (file) => {
      if (file.goal === undefined && goal !== undefined) file.goal = goal;
      for (const h of handoffs) {
        if (h.phase === undefined) continue;
        const t = setPhase(file.tracker, h.phase, 'handoff', `handoff: "${h.quote}"`, env.now().toISOString());
        if (t !== undefined) markDue(file, t.span.n - 1);
      }
    });
  }
  return result;
}

/** Said in the session's own thread: not a subagent's, not Claude Code's own records. */
export const mainThread = (chunk: Chunk) => chunk.sidechain !== true && chunk.client !== true;

/**
 * The main thread's latest assistant text before this pass, as the cursor recorded it (the chunker
 * keeps its chunk ids): what a prompt that opens the pass answers. Undefined for a cursor of an
 * older version or a chunk gone from the archive.
 */
export function saidBefore(env: Pick<SessionEnv, 'store' | 'log' | 'now'>, sessionId: string): string | undefined {
  const ids = readCursor(env.store, sessionId, env.log, env.now())?.chunker?.said ?? [];
  const texts: string[] = [];
  for (const id of ids) {
    if (sanitizeName(id) !== id) continue;
    const parsed = readChunk(env.store, sessionId, id);
    if (parsed?.ok === true) texts.push(parsed.chunk.text);
  }
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** Tag a chunk with the phase it was said in (mutates it); returns that phase's span. */
export function tagPhase(chunk: Chunk, spans: readonly PhaseSpan[]): PhaseSpan | undefined {
  const span = phaseAt(spans, chunk.timestamp, chunk.type === 'user');
  if (span !== undefined) chunk.phase = span.phase;
  return span;
}

/**
 * Tag a chunk with the phase it was said in (mutates it) and read its facts. Subagent text and
 * Claude Code's own records (a typed slash command, a local command's output, which holds what
 * hooks printed, our steering included; `<command-name>…` in archives made before they were
 * marked) state nothing of the user's or the main thread's.
 */
export function factsOfChunk(chunk: Chunk, spans: readonly PhaseSpan[], answered?: string | (() => string | undefined)): FactRecord[] {
  const span = tagPhase(chunk, spans);
  if (chunk.type !== 'user' && chunk.type !== 'assistant') return [];
  if (!mainThread(chunk) || chunk.text.trimStart().startsWith('<')) return [];
  const facts: Fact[] = chunk.type === 'user' ? userFacts(chunk.text, answered) : assistantFacts(chunk.text);
  return facts.map((fact) => ({
    ...fact,
    v: FACT_VERSION,
    n: span?.n ?? 1,
    phase: span?.phase ?? 'unknown',
    ref: chunk.id,
    t: chunk.timestamp,
    key: factKey(fact.text),
  }));
}

/** The session's goal: its first real request. */
export function goalOf(chunk: Chunk): string | undefined {
  if (chunk.type !== 'user' || !mainThread(chunk) || chunk.text.trimStart().startsWith('<')) return undefined;
  return cut(chunk.text.trim(), GOAL_CHARS);
}

/** Append the facts not yet recorded for the session (by kind and key). */
export function recordFacts(env: SessionEnv, sessionId: string, found: readonly FactRecord[]): void {
  if (found.length === 0) return;
  const keyOf = (f: FactRecord) => `${f.kind}\n${f.key}`;
  const known = new Set(readFacts(env.store, sessionId, env.log).map(keyOf));
  const fresh = firstOf(
    found.filter((f) => f.key !== '' && !known.has(keyOf(f))),
    keyOf,
  );
  env.store.appendLines(factsFile(env.store, sessionId), fresh);
}

/** A handoff section in Claude's text that names the next phase ("## Handoff … to implementation"). */
export function handoffTo(text: string): { phase: ReturnType<typeof parsePhaseName>; quote: string } | undefined {
  const heading = /^#{1,4}[ \t]*(?:phase[ \t]+)?hand-?off\b[^\n]{0,80}$/im.exec(text);
  if (heading === null) return undefined;
  const section = text.slice(heading.index, heading.index + 600);
  const m = /\b(?:to|next|into|for)(?:[ \t]+the)?[ \t:]+(?:\*\*)?(planning|design|implementation|implementing|testing|tests|review)\b/i.exec(section);
  if (m === null) return undefined;
  const phase = parsePhaseName(m[1] as string);
  return phase === undefined ? undefined : { phase, quote: cut(heading[0].replace(/^#+\s*/, ''), 80) };
}

/**
 * Write the ledgers that are due (spans that ended), and with `current` the running span's too
 * (PreCompact, SessionEnd). Promotes each ledger's decisions to the decision log. Returns the
 * ledgers written.
 */
export async function writeLedgers(env: PhaseEnv, sessionId: string, options: { current: boolean; final?: boolean }): Promise<LedgerRef[]> {
  const written: LedgerRef[] = [];
  // Most Stops have nothing due: a read, no lock, no write.
  const peek = readPhaseFile(env.store, sessionId, env.log, env.now());
  if (peek === undefined || (!options.current && peek.due.length === 0)) return written;
  await updatePhaseFile(env, sessionId, async (file) => {
    foldEvents(file, env.log, eventsFile(env.store, sessionId), env.project.root);
    const spans = file.tracker.spans;
    const current = spans.at(-1);
    const now = env.now().toISOString();
    // The session ended: its last span ends now (a resume reopens it).
    if (options.final === true && current !== undefined && current.end === undefined) current.end = now;
    const targets = new Set(file.due);
    if (options.current && current !== undefined) targets.add(current.n);
    file.due = [];
    if (targets.size === 0) return;
    const facts = readFacts(env.store, sessionId, env.log);
    const memory = projectMemory(env.project.root, env.config);
    const decisions = facts.filter((f) => f.kind === 'decision' && targets.has(f.n));
    // Sessions of one project share the decision log: read, supersede and append under its lock.
    const ids =
      decisions.length === 0
        ? new Map<string, string>()
        : await env.store.withLock(decisionsFile(env.store, env.project.root), () => promoteDecisions(env, sessionId, decisions), {
            waitMs: Math.min(2_000, Math.max(100, (env.timeLeft?.() ?? 4_000) / 4)),
          });
    if (ids === undefined) {
      // The log is busy: the ledgers wait for the next Stop, PreCompact or SessionEnd.
      env.log.warn('decision log busy; ledgers left for the next turn');
      file.due = [...targets].filter((n) => n !== current?.n || options.final === true);
      return;
    }
    const firstLedger = Object.keys(file.ledgers).length === 0;
    for (const span of spans) {
      if (!targets.has(span.n)) continue;
      const work = file.work[String(span.n)];
      // A span without tool calls and without anything said in it has no ledger; nor has the
      // moment before the first prompt set a phase (what was said then holds for the session).
      // A session that only asked a question writes nothing into the project: a span of unknown
      // phase without tool calls has a ledger only when a decision was made in it.
      const hasContent = span.events > 0 || facts.some((f) => f.n === span.n) || work !== undefined;
      const decided = facts.some((f) => f.n === span.n && f.kind === 'decision');
      if (!hasContent || (span.phase === 'unknown' && span.events === 0 && !decided)) continue;
      const open = span === current && options.final !== true;
      const ledger = buildLedger({
        session: sessionId,
        project: env.project.root,
        span,
        work,
        goal: file.goal,
        facts,
        todos: work?.todos ?? file.todos,
        decisionIds: ids,
        now,
        open,
      });
      // Everything in it was redacted on the way in; once more over the whole, in case.
      const body = redactText(ledger.body);
      const text = renderLedger({ meta: ledger.meta, body });
      const name = ledgerFileName(span);
      ensureDir(ledgerDir(env.store, sessionId));
      writeFileAtomic(join(ledgerDir(env.store, sessionId), name), text);
      const ref: LedgerRef = { file: name, at: now };
      if (memory !== undefined) {
        const l3 = writeProjectFile(memory, `sessions/${sanitizeName(sessionId)}/${name}`, text, env.log);
        if (l3 !== undefined) ref.l3 = l3;
      }
      file.ledgers[String(span.n)] = ref;
      written.push(ref);
      archiveLedger(env, sessionId, span, body, work?.files ?? [], now);
    }
    // The timeline lists sessions newest first by this time: the start of the latest span written.
    const latest = spans.filter((s) => targets.has(s.n)).at(-1)?.start ?? now;
    if (written.length > 0 && (firstLedger || options.final === true))
      env.store.appendLine(projectSessionsFile(env.store, env.project.root), { v: 1, session: sessionId, t: latest });
  });
  return written;
}

/** The ledger as an L2 chunk, so `/recall` finds it with everything else (rewritten as it grows). */
function archiveLedger(env: PhaseEnv, sessionId: string, span: PhaseSpan, body: string, files: readonly string[], now: string): void {
  const chunk: Chunk = {
    version: 1,
    id: chunkHash(`${sessionId}\nledger\n${span.n}`),
    session: sessionId,
    project: env.project.root,
    phase: span.phase,
    type: 'ledger',
    files: [...files].slice(-20),
    timestamp: span.end ?? now,
    sourceUuids: [],
    keywords: keywords({ text: body, files }),
    title: `Phase ${span.n} ledger: ${span.phase}`,
    text: body,
  };
  writeChunks(env.store, sessionId, [chunk], { hash: chunkHash, replace: true });
}

/**
 * Append the decisions not yet in the project's log (by id), each with the earlier decisions it
 * supersedes, and write their L3 files. Returns fact key → id for the ledgers.
 */
function promoteDecisions(env: PhaseEnv, sessionId: string, facts: readonly FactRecord[]): Map<string, string> {
  const ids = new Map<string, string>();
  if (facts.length === 0) return ids;
  const log = readDecisions(env.store, env.project.root, env.log);
  const known = new Set(log.map((d) => d.id));
  const added: DecisionRecord[] = [];
  const memory = projectMemory(env.project.root, env.config);
  for (const fact of facts) {
    const id = decisionId(fact.key);
    ids.set(fact.key, id);
    if (known.has(id)) continue;
    known.add(id);
    const record = decisionRecord(fact, sessionId, id);
    const replaced = superseded(record, [...log, ...added], factKey);
    if (replaced.length > 0) record.supersedes = replaced;
    added.push(record);
    // One file per decision, never rewritten: a teammate's copy of the same decision stays as it is.
    if (memory !== undefined && !pathExists(join(memory.root, 'decisions', `${id}.md`)))
      writeProjectFile(memory, `decisions/${id}.md`, redactText(decisionFile(record)), env.log);
  }
  env.store.appendLines(decisionsFile(env.store, env.project.root), added);
  return ids;
}

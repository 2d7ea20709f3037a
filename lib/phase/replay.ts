// `ctxl ingest --ledgers`: phases and ledgers for a transcript the hooks never saw (history from
// before the install). The transcript is read once from the start and drives the same tracker, span
// work and fact extraction the hooks use, with each entry's own timestamp as the clock; then every
// span's ledger is written. A session the hooks tracked live is left alone.
import type { Chunk } from '../archive/chunk-file.ts';
import { type ChunkContext, chunksFromEntries, emptyChunkerState } from '../archive/chunker.ts';
import { chunkHash } from '../archive/hash.ts';
import { redactText, stripPrivate } from '../archive/redact.ts';
import { advanceTranscript } from '../transcript/reader.ts';
import { factsOfChunk, goalOf, handoffTo, mainThread, type PhaseEnv, recordFacts, writeLedgers } from './ledgers.ts';
import { applyCall, digestToolCall } from './observe.ts';
import { type FactRecord, hasPhases, type LedgerRef, markDue, newPhaseFile, type PhaseFile, readPhaseFile, updatePhaseFile } from './phase-store.ts';
import { promptPhase } from './signals.ts';
import { setPhase } from './tracker.ts';

interface PendingUse {
  name: string;
  input: unknown;
}

export async function replayPhases(env: PhaseEnv, sessionId: string, transcriptPath: string): Promise<LedgerRef[]> {
  const existing = readPhaseFile(env.store, sessionId, env.log, env.now());
  if (hasPhases(existing)) return []; // tracked live
  let file: PhaseFile | undefined;
  // The clock is the entries' own: a line without a timestamp (a leading `summary` title) takes the
  // last one seen, and lines before any timestamp do not start the phase file (it would begin today).
  let last: string | undefined;
  const facts: FactRecord[] = [];
  // The assistant message a prompt answers (a reply may make a decision: "Pinia." to "Pinia or Vuex?").
  let answered: string | undefined;
  const pending = new Map<string, PendingUse>();
  const chunker = emptyChunkerState();
  const context: ChunkContext = { session: sessionId, project: env.project.root, phase: 'unknown', now: env.now().toISOString(), hash: chunkHash };
  await advanceTranscript(transcriptPath, undefined, {
    visit: (line) => {
      for (const entry of line.entries) {
        if (entry.sidechain) continue;
        const t = entry.timestamp ?? last;
        if (t === undefined) continue;
        last = t;
        file ??= newPhaseFile(t);
        if (entry.kind === 'user-text' && !entry.meta && !entry.text.trimStart().startsWith('<')) {
          const said = promptPhase(redactText(stripPrivate(entry.text)));
          const change = said === undefined ? undefined : setPhase(file.tracker, said.phase, 'prompt', `prompt: "${said.quote}"`, t);
          if (change !== undefined) markDue(file, change.span.n - 1);
        } else if (entry.kind === 'assistant-text') {
          const handoff = handoffTo(redactText(stripPrivate(entry.text)));
          const change = handoff?.phase === undefined ? undefined : setPhase(file.tracker, handoff.phase, 'handoff', `handoff: "${handoff.quote}"`, t);
          if (change !== undefined) markDue(file, change.span.n - 1);
        } else if (entry.kind === 'tool-use') {
          pending.set(entry.id, { name: entry.name, input: entry.input });
        } else if (entry.kind === 'tool-result') {
          const use = pending.get(entry.toolUseId);
          if (use === undefined) continue;
          pending.delete(entry.toolUseId);
          const digest = digestToolCall({ tool: use.name, input: use.input, response: entry.structured, output: entry.text, ok: !entry.isError });
          applyCall(file, digest, t, env.project.root);
        }
      }
      const spans = file?.tracker.spans ?? [];
      for (const chunk of chunksFromEntries(line.entries, chunker, context) as Chunk[]) {
        facts.push(...factsOfChunk(chunk, spans, answered));
        if (chunk.type === 'assistant' && mainThread(chunk)) answered = chunk.text;
        const goal = file?.goal === undefined ? goalOf(chunk) : undefined;
        if (file !== undefined && goal !== undefined) file.goal = goal;
      }
    },
  });
  const replayed = file;
  if (replayed === undefined) return [];
  const end = last ?? env.now().toISOString();
  await updatePhaseFile(env, sessionId, (current) => {
    Object.assign(current, replayed);
    current.due = current.tracker.spans.map((s) => s.n);
    const lastSpan = current.tracker.spans.at(-1);
    if (lastSpan !== undefined && lastSpan.end === undefined) lastSpan.end = end;
  });
  recordFacts(env, sessionId, facts);
  return writeLedgers(env, sessionId, { current: true, final: true });
}

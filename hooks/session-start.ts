// SessionStart (startup, resume, clear, compact): register the session and inject a status line,
// then where the work stands: phase and timeline, pending items, constraints, recent decisions; and
// start the archive jobs any session left waiting (job-sweep.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sessionWindow } from '../lib/context/claude-settings.ts';
import { compactBrief } from '../lib/context/compact-brief.ts';
import { MAX_INJECT_CHARS, sessionBrief } from '../lib/context/session-brief.ts';
import { readSessionDigest } from '../lib/context/session-digest.ts';
import { statusLine } from '../lib/context/status-line.ts';
import { catchUpWithPhase } from '../lib/phase/ledgers.ts';
import { syncPhase } from '../lib/phase/observe.ts';
import { readPhaseFile, reopenLastSpan } from '../lib/phase/phase-store.ts';
import { budgetShape } from '../lib/runtime/config.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { recallCommandFor } from '../lib/runtime/paths.ts';
import { sessionStartInput } from '../lib/runtime/schemas.ts';
import { pathExists } from '../lib/runtime/store.ts';
import { sweepJobs } from '../lib/session/job-sweep.ts';
import { eventsFile, readCursor, touchSession } from '../lib/session/session-files.ts';
import { CHARS_PER_TOKEN, contextTokens } from '../lib/transcript/context-size.ts';

runHook({
  event: 'SessionStart',
  schema: sessionStartInput,
  handler: async (input, ctx) => {
    // A resumed session goes on in the phase it ended in: reopen its last span.
    if (input.source === 'resume') await reopenLastSpan(ctx, input.session_id);
    const session = await touchSession(ctx, {
      sessionId: input.session_id,
      cwd: input.cwd,
      transcriptPath: input.transcript_path,
      source: input.source,
      model: input.model,
      started: true,
    });
    // Almost always an empty folder; otherwise the jobs start in a process of their own.
    await sweepJobs(ctx, join(dirname(fileURLToPath(import.meta.url)), 'cli.mjs'));
    const recallCommand = recallCommandFor(ctx.env);
    const brief = (reserved = 0, window?: number) =>
      input.source === 'compact'
        ? afterCompaction(reserved, window)
        : sessionBrief({
            reserved,
            store: ctx.store,
            log: ctx.log,
            now: ctx.now(),
            projectRoot: ctx.project.root,
            sessionId: input.session_id,
            budgetTokens: ctx.config.sessionStartTokens,
            recallCommand,
          });
    // Right after a compaction: what the summary may have lost, within the Ledger zone's budget.
    const afterCompaction = (reserved: number, window: number | undefined) => {
      const digest = readSessionDigest({ store: ctx.store, log: ctx.log, now: ctx.now(), projectRoot: ctx.project.root }, input.session_id);
      if (digest === undefined) return undefined;
      const ledgerChars = window === undefined ? MAX_INJECT_CHARS : Math.round((window * budgetShape(ctx.config).zones.ledger) / 100) * CHARS_PER_TOKEN;
      return compactBrief(digest, { maxChars: Math.min(MAX_INJECT_CHARS - reserved, ledgerChars), recallCommand });
    };
    const windowOf = (model: string | undefined) =>
      sessionWindow({ env: ctx.env, config: ctx.config, projectRoot: ctx.project.root, models: [input.model, model, session?.model] });
    if (!ctx.config.sessionStartStatus) {
      await syncPhase(ctx, input.session_id, eventsFile(ctx.store, input.session_id));
      const text = brief(0, windowOf(readCursor(ctx.store, input.session_id, ctx.log, ctx.now())?.context.model));
      return text === undefined ? undefined : { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
    }
    // The transcript does not exist yet at startup. Otherwise read only what is new since the last
    // Stop; at a compaction the client writes the boundary after this hook, so that size is "before".
    let tokens = input.context_tokens;
    let cursor = readCursor(ctx.store, input.session_id, ctx.log, ctx.now());
    if (cursor !== undefined && input.transcript_path !== undefined && pathExists(input.transcript_path)) {
      // Catching up also folds the tool calls since the last Stop into the phase.
      cursor = (await catchUpWithPhase(ctx, input.session_id, input.transcript_path))?.cursor ?? cursor;
    } else await syncPhase(ctx, input.session_id, eventsFile(ctx.store, input.session_id));
    if (cursor !== undefined) tokens = contextTokens(cursor.context);
    const window = windowOf(cursor?.context.model);
    const phase = readPhaseFile(ctx.store, input.session_id, ctx.log, ctx.now())?.tracker.phase ?? 'unknown';
    const line = statusLine({ phase, contextTokens: tokens, window, source: input.source });
    const more = brief(line.length + 2, window);
    const text = more === undefined ? line : `${line}\n\n${more}`;
    return {
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text.length > MAX_INJECT_CHARS ? text.slice(0, MAX_INJECT_CHARS) : text },
    };
  },
});

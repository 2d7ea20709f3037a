// SessionStart (startup, resume, clear, compact): register the session and inject a status line,
// then where the work stands: phase and timeline, pending items, constraints, recent decisions.

import { sessionWindow } from '../lib/context/claude-settings.ts';
import { MAX_INJECT_CHARS, sessionBrief } from '../lib/context/session-brief.ts';
import { statusLine } from '../lib/context/status-line.ts';
import { catchUpWithPhase } from '../lib/phase/ledgers.ts';
import { syncPhase } from '../lib/phase/observe.ts';
import { readPhaseFile, reopenLastSpan } from '../lib/phase/phase-store.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { sessionStartInput } from '../lib/runtime/schemas.ts';
import { pathExists } from '../lib/runtime/store.ts';
import { eventsFile, readCursor, touchSession } from '../lib/session/session-files.ts';
import { contextTokens } from '../lib/transcript/context-size.ts';

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
    const brief = (reserved = 0) =>
      sessionBrief({
        reserved,
        store: ctx.store,
        log: ctx.log,
        now: ctx.now(),
        projectRoot: ctx.project.root,
        sessionId: input.session_id,
        budgetTokens: ctx.config.sessionStartTokens,
        recallCommand: ctx.env.CLAUDE_PLUGIN_ROOT === undefined ? '/recall' : '/context-lifecycle:recall',
      });
    if (!ctx.config.sessionStartStatus) {
      await syncPhase(ctx, input.session_id, eventsFile(ctx.store, input.session_id));
      const text = brief();
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
    const window = sessionWindow({
      env: ctx.env,
      config: ctx.config,
      projectRoot: ctx.project.root,
      models: [input.model, cursor?.context.model, session?.model],
    });
    const phase = readPhaseFile(ctx.store, input.session_id, ctx.log, ctx.now())?.tracker.phase ?? 'unknown';
    const line = statusLine({ phase, contextTokens: tokens, window, source: input.source });
    const more = brief(line.length + 2);
    const text = more === undefined ? line : `${line}\n\n${more}`;
    return {
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text.length > MAX_INJECT_CHARS ? text.slice(0, MAX_INJECT_CHARS) : text },
    };
  },
});

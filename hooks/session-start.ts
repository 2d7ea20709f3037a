// SessionStart (startup, resume, clear, compact): register the session and inject a status line.

import { sessionWindow } from '../lib/context/claude-settings.ts';
import { statusLine } from '../lib/context/status-line.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { sessionStartInput } from '../lib/runtime/schemas.ts';
import { pathExists } from '../lib/runtime/store.ts';
import { advanceSessionCursor, readCursor, touchSession } from '../lib/session/session-files.ts';
import { contextTokens } from '../lib/transcript/context-size.ts';

runHook({
  event: 'SessionStart',
  schema: sessionStartInput,
  handler: async (input, ctx) => {
    const session = await touchSession(ctx, {
      sessionId: input.session_id,
      cwd: input.cwd,
      transcriptPath: input.transcript_path,
      source: input.source,
      model: input.model,
      started: true,
    });
    if (!ctx.config.sessionStartStatus) return undefined;
    // The transcript does not exist yet at startup. Otherwise read only what is new since the last
    // Stop; at a compaction the client writes the boundary after this hook, so that size is "before".
    let tokens = input.context_tokens;
    let cursor = readCursor(ctx.store, input.session_id, ctx.log, ctx.now());
    if (cursor !== undefined && input.transcript_path !== undefined && pathExists(input.transcript_path)) {
      cursor = (await advanceSessionCursor(ctx, input.session_id, input.transcript_path))?.cursor ?? cursor;
    }
    if (cursor !== undefined) tokens = contextTokens(cursor.context);
    const window = sessionWindow({
      env: ctx.env,
      config: ctx.config,
      projectRoot: ctx.project.root,
      models: [input.model, cursor?.context.model, session?.model],
    });
    const text = statusLine({ phase: 'unknown', contextTokens: tokens, window, source: input.source });
    return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
  },
});

// SessionStart (startup, resume, clear, compact): register the session and inject a status line.

import { statusLine } from '../lib/context/status-line.ts';
import { contextWindow } from '../lib/context/window.ts';
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
    // The transcript does not exist yet at startup; after a compaction, read only what is new.
    let tokens = input.context_tokens;
    const known = readCursor(ctx.store, input.session_id, ctx.log, ctx.now());
    if (known !== undefined && input.transcript_path !== undefined && pathExists(input.transcript_path)) {
      const advanced = await advanceSessionCursor(ctx, input.session_id, input.transcript_path);
      if (advanced !== undefined) tokens = contextTokens(advanced.cursor.context);
    }
    const window = contextWindow({ model: input.model ?? session?.model, env: ctx.env, configured: ctx.config.windowTokens });
    const text = statusLine({ phase: 'unknown', contextTokens: tokens, window, source: input.source });
    return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
  },
});

// PostToolUse: append a compact record of the tool call to the session's event log, with its digest
// for the phase tracker (signal, files, command, test result, tasks); archive a large output to L2 at
// once; and, once the Working zone passes L0→L1, replace a large Bash/Read/Grep output in context with
// an L1 stub whose ref brings the full text back. The stub is returned only once the full text is
// on disk: in L2, or in the job that archives it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { archiveDir } from '../lib/archive/archive-store.ts';
import { toolPartId } from '../lib/archive/chunker.ts';
import { chunkHash } from '../lib/archive/hash.ts';
import { toolOutput } from '../lib/archive/tool-output.ts';
import { budgetNow } from '../lib/context/budget-store.ts';
import { buildStub, stubbable } from '../lib/context/stub.ts';
import { digestToolCall } from '../lib/phase/observe.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { recallCommandFor } from '../lib/runtime/paths.ts';
import { postToolUseInput } from '../lib/runtime/schemas.ts';
import { pathExists } from '../lib/runtime/store.ts';
import { eventsFile } from '../lib/session/session-files.ts';
import { archiveToolCall, INLINE_TEXT_CHARS, jobFile } from '../lib/session/tool-archive.ts';
import { toolEvent } from '../lib/session/tool-event.ts';

runHook({
  event: 'PostToolUse',
  schema: postToolUseInput,
  handler: async (input, ctx) => {
    const sid = input.session_id;
    // The output's text, once: the event, the archive and the stub all read it.
    const out = toolOutput(input.tool_response);
    const event = toolEvent(
      {
        tool: input.tool_name,
        toolUseId: input.tool_use_id,
        input: input.tool_input,
        response: input.tool_response,
        durationMs: input.duration_ms,
        output: out,
      },
      ctx.now(),
    );
    // The phase digest rides on the event line: no lock here; the next hook that needs the phase folds it.
    const ph = digestToolCall({ tool: input.tool_name, input: input.tool_input, response: input.tool_response, ok: true });
    // A subagent's calls are its own errand (an Explore agent reads a lot): the fold skips them.
    ctx.store.appendLine(eventsFile(ctx.store, sid), { ...event, ph, ...(input.agent_id === undefined ? {} : { agent: input.agent_id }) });
    const toolUseId = input.tool_use_id;
    if (toolUseId === undefined) return undefined;

    // A subagent's context is not the session's window: its calls are never stubbed. The tighter
    // threshold applies from L1→L2 on; whichever is smaller is the least ever stubbed.
    const least = Math.min(ctx.config.stubMinBytes, ctx.config.stubMinBytesTight);
    const candidate = ctx.config.stubs && input.agent_id === undefined && event.outBytes >= least && stubbable(input.tool_name, out);
    const budget = candidate ? await budgetNow(ctx, sid, input.transcript_path) : undefined;
    const minStub = budget === undefined || budget.level === 0 ? Number.POSITIVE_INFINITY : budget.level === 1 ? ctx.config.stubMinBytes : least;
    const stubbing = event.outBytes >= minStub;
    if (event.outBytes < ctx.config.archiveToolOutputBytes && !stubbing) return undefined;

    const head = { toolUseId, name: input.tool_name, input: input.tool_input, isError: false };
    const cliPath = join(dirname(fileURLToPath(import.meta.url)), 'cli.mjs');
    // An output over 128 K characters goes to a job that a detached process archives (a Read by its
    // file and a hash, anything else redacted): chunking 1 MB here would cost this tool call ~300 ms.
    let r: Awaited<ReturnType<typeof archiveToolCall>>;
    try {
      r = await archiveToolCall(
        ctx,
        sid,
        { ...head, response: input.tool_response },
        {
          minBytes: stubbing ? 0 : ctx.config.archiveToolOutputBytes,
          cliPath,
          spoolAbove: INLINE_TEXT_CHARS,
          output: out,
          ...(input.duration_ms === undefined ? {} : { startedAt: ctx.now().getTime() - input.duration_ms }),
        },
      );
    } catch (error) {
      // A full disk or an unwritable archive is not a bug of ours: the model keeps the full output,
      // Stop archives it from the transcript later, and the circuit breaker is not tripped.
      ctx.log.warn(`could not archive the ${input.tool_name} output ${toolUseId}; no stub`, error);
      return undefined;
    }
    ctx.log.debug(`archived a ${event.outBytes}-byte ${input.tool_name} output: ${r.deferred ? 'in the background' : `${r.chunks} chunks`}`);
    if (!stubbing || budget === undefined || (r.deferred && r.spooled !== true)) return undefined;
    const ref = toolPartId(chunkHash, sid, toolUseId, 0);
    // No stub unless the full text is on disk (archived, or its job written): a failed write leaves
    // the model the full output.
    const held = r.spooled === true ? pathExists(jobFile(ctx.store, sid, toolUseId)) : pathExists(join(archiveDir(ctx.store, sid), `${ref}.md`));
    if (!held) {
      ctx.log.warn(`no stub for ${input.tool_name} ${toolUseId}: its archive is missing`);
      return undefined;
    }
    const stub = buildStub({
      tool: input.tool_name,
      input: input.tool_input,
      response: input.tool_response,
      text: out.text,
      bytes: event.outBytes,
      ref,
      parts: r.parts,
      showCommand: `${recallCommandFor(ctx.env)} show`,
      reason: `working zone ${Math.round(budget.workingUse * 100)}% full`,
    });
    if (stub === undefined) return undefined;
    ctx.log.info(`stubbed a ${event.outBytes}-byte ${input.tool_name} output to ${stub.text.length} characters (${ref})`);
    return { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: stub.output } };
  },
});

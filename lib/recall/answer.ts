// `/recall …` answered inside Claude Code. The arguments arrive byte-exact in the hook input
// (UserPromptExpansion for a typed command, PreToolUse(Skill) when Claude invokes it), so no shell
// ever sees them. Before searching, the current session's L2 is brought up to date.

import { catchUpWithPhase } from '../phase/ledgers.ts';
import { type HookContext, usersFileOf } from '../runtime/hook-runtime.ts';
import { recallMarkdown } from './recall.ts';
import { echo } from './render.ts';

const MAX_CONTEXT_CHARS = 9_500; // Claude Code diverts hook text over 10,000 characters to a file

export function isRecallCommand(name: string | undefined): boolean {
  return name === 'recall' || name === 'context-lifecycle:recall';
}

export async function answerRecall(
  args: string,
  commandName: string,
  input: { session_id: string; transcript_path?: string | undefined },
  ctx: HookContext,
  sessionStats?: () => string[],
): Promise<string> {
  if (input.transcript_path !== undefined) {
    // What L2 already holds still answers when the transcript cannot be read.
    try {
      await catchUpWithPhase(ctx, input.session_id, input.transcript_path);
    } catch (error) {
      // Only the transcript's own failure (a file we may not read); our data dir's is a failure of ours.
      if (usersFileOf(error, ctx.store.root) === undefined) throw error;
      ctx.log.warn(`could not bring L2 up to date from ${input.transcript_path} before a /recall`, error);
    }
  }
  const text = await recallMarkdown(args, {
    store: ctx.store,
    log: ctx.log,
    now: ctx.now(),
    projectRoot: ctx.project.root,
    allProjects: false, // `--all-projects` in the arguments is read by recallMarkdown
    sessionId: input.session_id,
    ...(sessionStats === undefined ? {} : { sessionStats }),
    showCommand: `/${commandName} show`,
    // Index work stops in time to answer; what it did not reach is indexed by the next search.
    deadline: Date.now() + Math.max(0, ctx.timeLeft() - 2_000),
  });
  // The arguments as the heading echoes them (a pasted stack trace of 9,000 characters left no room for results).
  const body = `context-lifecycle recall results for \`/${commandName} ${echo(args)}\`:\n\n${text}`;
  return body.length > MAX_CONTEXT_CHARS ? `${body.slice(0, MAX_CONTEXT_CHARS - 1)}…` : body;
}

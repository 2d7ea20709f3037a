// `/phase` (and `/context-lifecycle:phase`): with a name, set the phase at once (the strongest
// signal); without, say where the session is and why. Answered by the hook, in one step.

import { eventsFile } from '../session/session-files.ts';
import { duration } from './ledger.ts';
import { setPhaseExplicitly, syncPhase } from './observe.ts';
import { readPhaseFile, shownSpans } from './phase-store.ts';
import { PHASES, parsePhaseName } from './signals.ts';

type Env = Parameters<typeof setPhaseExplicitly>[0];

export function isPhaseCommand(name: string | undefined): boolean {
  return name === 'phase' || name === 'context-lifecycle:phase';
}

/** `byClaude`: invoked through the Skill tool, not typed (the timeline says so). */
export async function answerPhase(args: string, sessionId: string, env: Env, byClaude = false): Promise<string> {
  const word = args.trim().split(/\s+/)[0] ?? '';
  if (word !== '') {
    const phase = parsePhaseName(word.replace(/[`'"]/g, ''));
    if (phase === undefined) return `context-lifecycle: "${word.slice(0, 40)}" is not a phase. Phases: ${PHASES.join(', ')}.`;
    const transition = await setPhaseExplicitly(env, sessionId, phase, eventsFile(env.store, sessionId), byClaude);
    const was = transition === undefined ? `already ${phase}` : `was ${transition.from}`;
    return `context-lifecycle: phase set to **${phase}** (${was}). The ledger of the phase that ended is written at the end of this turn.\n\n${status(sessionId, env)}`;
  }
  await syncPhase(env, sessionId, eventsFile(env.store, sessionId));
  return `context-lifecycle: ${status(sessionId, env)}`;
}

function status(sessionId: string, env: Env): string {
  const now = env.now();
  const file = readPhaseFile(env.store, sessionId, env.log, now);
  const spans = file === undefined ? [] : shownSpans(file);
  const cur = spans.at(-1);
  if (cur === undefined)
    return 'no phase recorded yet in this session: it is set by `/phase <name>`, by a clear statement in a prompt, or from the tool calls.';
  const lines = [
    `Current phase: **${cur.phase}** for ${duration(cur.start, now.toISOString())}, ${cur.by === 'start' ? 'since the session started' : cur.trigger}; ${cur.events} tool call${cur.events === 1 ? '' : 's'} since.`,
    '',
    'Timeline of this session:',
  ];
  for (const s of spans) {
    const counts = Object.entries(s.signals as Record<string, number>)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    lines.push(
      `${s.n}. ${s.phase}, ${duration(s.start, s.end ?? now.toISOString())}${s.end === undefined ? ' (now)' : ''}: ${s.by === 'start' ? 'from the start' : s.trigger}${counts === '' ? '' : ` (${counts})`}`,
    );
  }
  return lines.join('\n');
}

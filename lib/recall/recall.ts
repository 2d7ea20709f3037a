// The one entry point for `/recall` (hooks) and `ctxl recall/show` (CLI): parse, search, render.
import { join } from 'node:path';
import { readChunk } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import { toolPartId } from '../archive/chunker.ts';
import { chunkHash } from '../archive/hash.ts';
import { queryTerms } from '../archive/keywords.ts';
import { openIndex } from '../index/manifest.ts';
import { kindOrdinal } from '../index/segment.ts';
import type { Logger } from '../runtime/log.ts';
import { sanitizeName } from '../runtime/paths.ts';
import { listDir, pathExists, type Store, statSafe } from '../runtime/store.ts';
import { jobNeedsStart, pendingJobFor } from '../session/tool-archive.ts';
import { hasFilters, isEmpty, parseQuery, searchText } from './query.ts';
import { renderResults } from './render.ts';
import { type RecallResult, refreshForSearch, search } from './search.ts';
import { decisionsMarkdown, phaseLedgersMarkdown, timelineMarkdown } from './views.ts';
import { describeSpans, readTime } from './when.ts';

export interface RecallEnv {
  store: Store;
  log: Logger;
  now: Date;
  projectRoot: string;
  allProjects: boolean;
  /** How the user asks for a full chunk here: `/recall show`, `ctxl show`, … */
  showCommand: string;
  budgetTokens?: number;
  /** Epoch ms by which index work must stop (hooks). */
  deadline?: number;
  /** The session asking (listed first in the timeline). */
  sessionId?: string;
  /** Lines `stats` adds about the asking session (its context budget), from the layer above. */
  sessionStats?: () => string[];
}

export async function recallQuery(
  raw: string,
  env: RecallEnv,
  limit: number,
): Promise<{ query: string; results: RecallResult[]; hint?: string; when?: string }> {
  const query = parseQuery(raw, env.now);
  if (query.problems !== undefined) return { query: raw, results: [], hint: `${query.problems.join('; ')}.` };
  if (isEmpty(query))
    return { query: raw, results: [], hint: 'Give some words to look for, e.g. `/recall timeout config` or `/recall file:src/api.ts since:2d`.' };
  // Words only, and none the index holds ("the", "???"): every chunk would score 0.
  if (!hasFilters(query) && queryTerms(searchText(query)).length === 0)
    return { query: raw, results: [], hint: 'Nothing to look for: only common words or punctuation. Give words that name it, e.g. `/recall timeout config`.' };
  const results = await search(query, {
    store: env.store,
    log: env.log,
    now: env.now,
    projectRoot: env.allProjects ? undefined : env.projectRoot,
    limit,
    ...(env.deadline === undefined ? {} : { deadline: env.deadline }),
  });
  // The time the question names, said when nothing matched ("what happened yesterday" on a day
  // with no chunk): the user sees how the date was read.
  const when = results.length === 0 ? describeSpans(readTime(searchText(query), env.now).spans, env.now) : undefined;
  return { query: raw, results, ...(when === undefined ? {} : { when }) };
}

/** Whether `raw` asks for a view, not a search: `show <ref>`, or `stats`, `timeline`, `decisions` alone. */
export function isRecallView(raw: string): boolean {
  return /^(?:show\s+\S+|stats|timeline|decisions)$/.test(raw.trim());
}

/** Everything `/recall …` can be asked, as Markdown. */
export async function recallMarkdown(raw: string, env: RecallEnv): Promise<string> {
  // `/recall … --all-projects`: the only flag the command takes; everything else is the query.
  const flag = /(?:^|\s)--all-projects(?=\s|$)/;
  if (flag.test(raw)) env = { ...env, allProjects: true };
  const trimmed = raw.replace(new RegExp(flag.source, 'g'), ' ').trim();
  const [head = '', ...rest] = trimmed.split(/\s+/);
  if (head === 'show') return showMarkdown(rest.join(' ').replace(/[`'"]/g, ''), env);
  if (head === 'stats' && rest.length === 0) return statsMarkdown(env);
  const view = { store: env.store, log: env.log, now: env.now, projectRoot: env.projectRoot };
  if (head === 'timeline' && rest.length === 0) return timelineMarkdown(view, env.sessionId);
  if (head === 'decisions' && rest.length === 0) return decisionsMarkdown(view);
  const parsed = parseQuery(trimmed, env.now);
  const { phase: onlyPhase, ...others } = parsed;
  if (onlyPhase !== undefined && isEmpty(others)) {
    // `phase:<name>` alone: that phase's ledgers; with none yet, the phase's archive as a search.
    const ledgers = phaseLedgersMarkdown(view, onlyPhase);
    if (ledgers !== undefined) return ledgers;
  }
  const { query, results, hint, when } = await recallQuery(trimmed, env, 10);
  if (hint !== undefined) return hint;
  return renderResults(query, results, {
    showCommand: env.showCommand,
    ...(env.budgetTokens === undefined ? {} : { budgetTokens: env.budgetTokens }),
    ...(when === undefined ? {} : { when }),
  });
}

export function findChunk(store: Store, ref: string): Chunk | undefined {
  const id = sanitizeName(ref.trim());
  if (id === '') return undefined;
  for (const sessionId of listDir(join(store.root, 'sessions'))) {
    if (!pathExists(join(store.root, 'sessions', sessionId, 'archived', `${id}.md`))) continue;
    const read = readChunk(store, sessionId, id);
    if (read?.ok === true) return read.chunk;
  }
  return undefined;
}

const SHOW_MAX_CHARS = 9_000; // what a hook may inject stays under Claude Code's 10,000-character cap

export function showMarkdown(ref: string, env: RecallEnv, maxChars = SHOW_MAX_CHARS): string {
  if (ref.trim() === '') return 'No archived chunk named: give a ref, as in `show <ref>`. Refs come from `/recall <words>` results.';
  const chunk = findChunk(env.store, ref);
  if (chunk === undefined) {
    // A stubbed large output is chunked by a detached process a moment after its stub names it. A
    // job whose process is gone (or left untouched for a minute) starts again at the next Stop or
    // SessionEnd of its session.
    const pending = pendingJobFor(env.store, ref.trim(), chunkHash);
    if (pending === undefined) return `No archived chunk \`${ref}\`. Refs come from \`/recall <words>\` results.`;
    const age = env.now.getTime() - (statSafe(pending.file)?.mtimeMs ?? env.now.getTime());
    return pending.job.waiting !== true && jobNeedsStart(pending.job, age)
      ? `No archived chunk \`${ref}\` yet: archiving this large output was interrupted. It starts again at the end of the next turn of its session, or now with \`ctxl run-job ${pending.file}\`.`
      : `No archived chunk \`${ref}\` yet: large outputs are still being archived. Try again in a few seconds.`;
  }
  const head = `**${chunk.title}** (${chunk.type}${chunk.tool === undefined ? '' : ` ${chunk.tool}`}${chunk.sidechain === true ? ' in a subagent' : ''}, ${chunk.timestamp}, session ${chunk.session})${chunk.part === undefined ? '' : `, part ${chunk.part[0]} of ${chunk.part[1]}`}`;
  const body =
    chunk.text.length > maxChars
      ? `${chunk.text.slice(0, maxChars)}\n… (${chunk.text.length - maxChars} more characters: \`ctxl show ${chunk.id}\` prints all)`
      : chunk.text;
  // A long tool output is archived in parts: each one names the next, so a stub's ref leads through all.
  const next =
    chunk.part !== undefined && chunk.toolUseId !== undefined && chunk.part[0] < chunk.part[1]
      ? `\n\nNext part (${chunk.part[0] + 1} of ${chunk.part[1]}): \`${env.showCommand} ${toolPartId(chunkHash, chunk.session, chunk.toolUseId, chunk.part[0])}\``
      : '';
  return `${head}\n\n${body}${next}`;
}

export async function statsMarkdown(env: RecallEnv): Promise<string> {
  await refreshForSearch({ store: env.store, log: env.log, ...(env.deadline === undefined ? {} : { deadline: env.deadline }) });
  const { chunks, sessions, byKind } = archiveStats(env.store, env.log, env.allProjects ? undefined : env.projectRoot);
  const kinds = [...byKind].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`);
  return [
    `L2 archive for ${env.allProjects ? 'all projects' : env.projectRoot}: ${chunks} chunk${chunks === 1 ? '' : 's'} in ${sessions} session${sessions === 1 ? '' : 's'}.`,
    ...(kinds.length > 0 ? [`By type: ${kinds.join(', ')}.`] : []),
    ...(env.sessionStats?.() ?? []),
  ].join('\n');
}

/** Live chunks and sessions in scope, counted from the index columns. */
export function archiveStats(store: Store, log: Logger, projectRoot: string | undefined): { chunks: number; sessions: number; byKind: Map<string, number> } {
  const view = openIndex(store, log);
  const sessions = new Set<string>();
  const byKind = new Map<string, number>();
  let chunks = 0;
  try {
    for (const { reader, deleted } of view.segments) {
      const f = reader.footer;
      const project = projectRoot === undefined ? undefined : reader.project();
      const session = reader.session();
      const kindPhase = reader.kindPhase();
      for (let d = 0; d < reader.docs; d++) {
        if (deleted.has(d)) continue;
        if (project !== undefined && f.projects[project[d] as number] !== projectRoot) continue;
        chunks += 1;
        sessions.add(f.sessions[session[d] as number] ?? '');
        const kind = (f.kinds[kindOrdinal(kindPhase[d] as number)] ?? '').replace(/^tool:.*/, 'tool');
        byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
      }
    }
  } finally {
    view.close();
  }
  return { chunks, sessions: sessions.size, byKind };
}

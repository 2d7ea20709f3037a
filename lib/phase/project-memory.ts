// L3: project memory in the repository, under <project>/docs/memory/ (configurable, can be off).
// Small files that only ever get added or rewritten whole by the session that owns them, so a team
// sharing them through git never has a merge conflict: one ledger per phase span, one file per
// decision (a later decision names the ones it supersedes; the old file is never edited).
// Failure to write (a read-only checkout, a file where a folder should be) is logged once per
// process and never stops the data-dir copy, which is the one the plugin reads.
import { isAbsolute, join, relative } from 'node:path';
import type { Config } from '../runtime/config.ts';
import type { Logger } from '../runtime/log.ts';
import { ensureDir, pathExists, removeStaleTemps, writeFileAtomic } from '../runtime/store.ts';
import type { DecisionRecord } from './phase-store.ts';

export const L3_VERSION = 1;

export interface ProjectMemory {
  root: string;
  projectRoot: string;
}

export function projectMemory(projectRoot: string, config: Pick<Config, 'projectMemory' | 'projectMemoryDir'>): ProjectMemory | undefined {
  // A project that is no folder here (a Windows session's C:\… read on Linux) has no L3 to write.
  if (!config.projectMemory || !isAbsolute(projectRoot)) return undefined;
  return { root: join(projectRoot, config.projectMemoryDir), projectRoot };
}

/** Folders of L3 swept of temporary leftovers by this process. */
const swept = new Set<string>();

const README = `# Project memory

Written by context-lifecycle, a Claude Code plugin: what each coding session decided and did, kept
with the code. Safe to commit; every file is added once and rewritten only by the session that owns
it, so branches merge without conflicts.

- \`sessions/<session>/phase-<N>-<name>.md\`: a ledger for each phase of a session (planning,
  design, implementation, testing, review): goal, decisions with reasons, constraints, files,
  commands and test results, tasks, open items, next steps, and refs into the local archive.
- \`decisions/<id>.md\`: one decision per file. A decision that replaces earlier ones lists them
  under \`supersedes\`.

Secrets are redacted before anything is written here. Turn this off with \`"projectMemory": false\`
in \`.claude/context-lifecycle.json\`; everything keeps working from the plugin's data dir.
`;

let failed = false;

/** Write one file of L3; returns its path relative to the project, or undefined if it could not. */
export function writeProjectFile(memory: ProjectMemory, rel: string, text: string, log: Logger, now = Date.now()): string | undefined {
  const file = join(memory.root, rel);
  try {
    ensureDir(join(file, '..'), 0o755);
    // What a writer killed mid-write left beside it would be committed with the repository.
    for (const dir of [memory.root, join(file, '..')]) {
      if (swept.has(dir)) continue;
      swept.add(dir);
      removeStaleTemps(dir, now);
    }
    const readme = join(memory.root, 'README.md');
    if (!pathExists(readme)) writeFileAtomic(readme, README, { mode: 0o644 });
    writeFileAtomic(file, text, { mode: 0o644 });
    return relative(memory.projectRoot, file);
  } catch (error) {
    if (!failed) log.warn(`project memory: cannot write ${file} (${(error as Error).message}); the data dir keeps the copy`);
    failed = true;
    return undefined;
  }
}

export function decisionFile(decision: DecisionRecord): string {
  const meta: Record<string, unknown> = {
    version: L3_VERSION,
    kind: 'decision',
    id: decision.id,
    date: decision.t,
    session: decision.session,
    phase: decision.phase,
    supersedes: decision.supersedes ?? [],
    ref: decision.ref,
  };
  const lines = ['---', ...Object.entries(meta).map(([k, v]) => `${k}: ${JSON.stringify(v)}`), '---', '', `# ${decision.id}`, '', decision.text];
  if (decision.reason !== undefined && !decision.text.includes(decision.reason)) lines.push('', `**Why:** ${decision.reason}`);
  if (decision.rejected !== undefined) lines.push('', `**Rejected:** ${decision.rejected.join(', ')}`);
  if ((decision.supersedes ?? []).length > 0) lines.push('', `**Supersedes:** ${(decision.supersedes ?? []).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

// A project with one scripted session ingested through the compiled CLI, and its recall order: the
// ranking tests write a few chunks and ask which comes first.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { baseEnv, runCli } from './proc.ts';
import { type ScriptedTranscript, scriptedTranscript } from './scripted-transcript.ts';

/** Ingest the session `write` scripts into a project under `home`; returns its recall order. */
export function recallSandbox(
  home: string,
  sessionId: string,
  write: (t: ScriptedTranscript) => void,
  clock: { start?: number; stepMs?: number } = {},
): (query: string) => Array<string | undefined> {
  const project = join(home, 'project');
  mkdirSync(project);
  const env = baseEnv(home, { CTXL_HOME: join(home, 'data') });
  const t = scriptedTranscript(sessionId, project, clock);
  write(t);
  const file = join(home, 't.jsonl');
  t.write(file);
  expect(runCli(['ingest', file, '--cwd', project], env, project).status).toBe(0);
  return (query) => {
    const r = runCli(['recall', '--json', '--limit', '10', '--', ...query.split(' ')], env, project);
    expect(r.status).toBe(0);
    return (JSON.parse(r.stdout) as { results: Array<{ sourceUuids: string[] }> }).results.map((x) => x.sourceUuids[0]);
  };
}

/** The first source uuid of each result of `ctxl recall --json <args>` in a sandbox recallSandbox built under `home`. */
export function recallIds(home: string, args: readonly string[]): Array<string | undefined> {
  const project = join(home, 'project');
  const r = runCli(['recall', '--json', ...args], baseEnv(home, { CTXL_HOME: join(home, 'data') }), project);
  expect(r.status).toBe(0);
  return (JSON.parse(r.stdout) as { results: Array<{ sourceUuids: string[] }> }).results.map((x) => x.sourceUuids[0]);
}

/** What `ctxl recall <args>` prints (Markdown) in a sandbox recallSandbox built under `home`. */
export function recallText(home: string, args: readonly string[]): string {
  const r = runCli(['recall', ...args], baseEnv(home, { CTXL_HOME: join(home, 'data') }), join(home, 'project'));
  expect(r.status).toBe(0);
  return r.stdout;
}

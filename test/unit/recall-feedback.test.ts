// Pseudo-relevance feedback in ranking (lib/recall/search.ts): the words of the leading results
// reorder what the query matched, and bring in nothing it did not match.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from './helpers/proc.ts';
import { scriptedTranscript } from './helpers/scripted-transcript.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-feedback-');

describe('ranking with feedback from the leading results (ctxl recall)', () => {
  it('lifts a chunk that shares the best hit’s topic over an equal match off topic, and adds no chunk without a query word', () => {
    const home = tempDir();
    const project = join(home, 'project');
    mkdirSync(project);
    const env = baseEnv(home, { CTXL_HOME: join(home, 'data') });
    const t = scriptedTranscript('eeee5555-0000-4000-8000-000000000005', project);
    t.assistant('Session timeout and retry: the payments gateway client waits 45 seconds, then the payments gateway client retries once.');
    const topical = t.assistant('We raised the payments gateway client pool after the retry storm on Monday.');
    // As long, one query word as well, and newer (ties go to the newer): first without feedback.
    const offTopic = t.assistant('We split the stylesheet snapshot bundle after the retry flake on Monday.');
    const unmatched = t.assistant('The payments gateway client now logs its pool size at start.');
    for (let i = 0; i < 6; i++) t.assistant(`Unrelated note ${i}: the websocket heartbeat stays at 20 seconds for the dashboard.`);
    const file = join(home, 't.jsonl');
    t.write(file);
    expect(runCli(['ingest', file, '--cwd', project], env, project).status).toBe(0);

    const r = runCli(['recall', '--json', '--limit', '10', '--', 'session', 'timeout', 'retry'], env, project);
    expect(r.status).toBe(0);
    const order = (JSON.parse(r.stdout) as { results: Array<{ sourceUuids: string[] }> }).results.map((x) => x.sourceUuids[0]);
    expect(order.indexOf(topical)).toBeGreaterThan(0);
    expect(order.indexOf(topical)).toBeLessThan(order.indexOf(offTopic));
    // It shares the topic words but none of the query's: feedback only reorders what the query matched.
    expect(order).not.toContain(unmatched);
  });
});

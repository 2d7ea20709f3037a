// `ctxl recall` with a view's name (show <ref>, timeline, decisions, stats): the view, as `/recall`
// answers it, with the CLI's exit codes. With --json, words are always a query: the contract's JSON
// is `{query, results}` whatever they are. Words after `--` are always a query too.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli, runHookSync } from './helpers/proc.ts';
import { scriptedTranscript } from './helpers/scripted-transcript.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-recall-views-');
const SID = 'views-session';
const UNKNOWN = 'deadbeefdeadbeef';

interface JsonRecall {
  query: string;
  results: Array<{ ref: string; title: string }>;
}

/** A project with one session ingested with its phases (so timeline and decisions have data). */
function sandbox() {
  const home = tempDir();
  const project = join(home, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const env = baseEnv(home, { CTXL_HOME: join(home, 'data') });
  const s = scriptedTranscript(SID, project, { start: Date.parse('2026-03-02T09:00:00Z'), stepMs: 20_000 });
  s.user("Let's plan the export; the timeline is tight.");
  s.tool('Read', { file_path: join(project, 'src/export.ts') }, 'export {}');
  s.user("Now let's design the file format.");
  s.assistant("I'll use JSON lines instead of CSV because nested line items do not fit in columns.");
  const file = join(home, 'old.jsonl');
  s.write(file);
  // Run in the project: --cwd after `--` would be a word.
  const cli = (args: string[]) => runCli(args, env, project);
  const ingest = runCli(['ingest', file, '--cwd', project, '--ledgers', '--json'], env, project);
  expect(ingest.status, ingest.stderr).toBe(0);
  return { home, project, env, transcript: file, cli };
}

describe('ctxl recall <view>', () => {
  it('recall show <unknown ref> is an error as ctxl show is: one stderr line, exit 1, nothing on stdout', () => {
    const t = sandbox();
    const viaRecall = t.cli(['recall', 'show', UNKNOWN]);
    const viaShow = t.cli(['show', UNKNOWN]);
    expect(viaShow.status).toBe(1);
    expect(viaRecall.status).toBe(1);
    expect(viaRecall.stdout).toBe('');
    expect(viaRecall.stderr).toBe(viaShow.stderr);
    expect(viaRecall.stderr).toMatch(/^ctxl: No archived chunk `deadbeefdeadbeef`[^\n]*\n$/);
    // A known ref: the same text as ctxl show, exit 0.
    const ref = (JSON.parse(t.cli(['recall', 'JSON', 'lines', '--json']).stdout) as JsonRecall).results[0]?.ref as string;
    const shown = t.cli(['recall', 'show', ref]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toBe(t.cli(['show', ref]).stdout);
    expect(shown.stdout).toContain('JSON lines instead of CSV');
  });

  it('inside Claude Code, /recall show <unknown ref> still answers with a helpful line', () => {
    const t = sandbox();
    const input = {
      session_id: 'asking-session',
      transcript_path: join(t.home, 'none.jsonl'),
      cwd: t.project,
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'recall',
      command_args: `show ${UNKNOWN}`,
    };
    const r = runHookSync('user-prompt-expansion', JSON.stringify(input), t.env, { cwd: t.project });
    expect(r.status).toBe(0);
    const context = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context).toContain(`No archived chunk \`${UNKNOWN}\`. Refs come from \`/recall <words>\` results.`);
  });

  it.each([[['timeline']], [['stats']], [['decisions']], [['show', UNKNOWN]]])('recall %j --json is a search, in the contract JSON', (view) => {
    const t = sandbox();
    const r = t.cli(['recall', ...view, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout) as JsonRecall)).toEqual(['query', 'results']);
    expect((JSON.parse(r.stdout) as JsonRecall).query).toBe(view.join(' '));
  });

  it('recall timeline --json finds the word; ctxl timeline --json has the view', () => {
    const t = sandbox();
    const json = JSON.parse(t.cli(['recall', 'timeline', '--json']).stdout) as JsonRecall;
    expect(json.results.map((r) => r.title)).toContain("Let's plan the export; the timeline is tight.");
    const view = JSON.parse(t.cli(['timeline', '--json']).stdout) as { sessions: Array<{ session: string; spans: Array<{ phase: string }> }> };
    expect(view.sessions[0]?.session).toBe(SID);
    expect(view.sessions[0]?.spans.map((s) => s.phase)).toContain('design');
  });

  it('the word itself is still searched after --, or quoted', () => {
    const t = sandbox();
    const dashed = t.cli(['recall', '--json', '--', 'timeline']);
    expect(dashed.status, dashed.stderr).toBe(0);
    const json = JSON.parse(dashed.stdout) as JsonRecall;
    expect(json.query).toBe('timeline');
    expect(json.results.map((r) => r.title)).toContain("Let's plan the export; the timeline is tight.");
    const quoted = JSON.parse(t.cli(['recall', '"timeline"', '--json']).stdout) as JsonRecall;
    expect(quoted.results.map((r) => r.ref)).toEqual(json.results.map((r) => r.ref));
    // As Markdown too: a search, not the view.
    expect(t.cli(['recall', '--', 'timeline']).stdout).toMatch(/^Recall for `timeline`: \d+ hits?, best first/);
    expect(t.cli(['recall', 'timeline']).stdout).toMatch(/^Phase timeline of /);
    // Flags after -- are words.
    expect((JSON.parse(t.cli(['recall', '--json', '--', 'stats', '--limit']).stdout) as JsonRecall).query).toBe('stats --limit');
  });
});

// The workspace and the inputs: a temp folder with a git project, Claude-Code-style transcripts and one
// CTXL_HOME per scenario. A scenario knows its hook file, its stdin, how to put its state back before
// a run (outside the timed region) and how to check afterwards that the run did the real work.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { restore, snapshot } from './home-state.mjs';
import { processProblem, runNode } from './proc.mjs';
import { bashStdout, createConversation, promptText } from './synth.mjs';

export const KB = 1024;
const TAIL_BYTES = 20 * KB;
const SMALL_PREFIX_BYTES = 80 * KB;
const REAL_TRANSCRIPT = 'd-kimuson__claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl';

export const SID = {
  sessionStart: '0b7a9c1e-1111-4d2e-9a51-5e55a0000001',
  userPrompt: '0b7a9c1e-2222-4d2e-9a51-5e55a0000002',
  postToolUse: '0b7a9c1e-3333-4d2e-9a51-5e55a0000003',
  postToolUseFailure: '0b7a9c1e-4444-4d2e-9a51-5e55a0000004',
  postToolUseStub: '0b7a9c1e-3434-4d2e-9a51-5e55a0000034',
  postToolUseBig: '0b7a9c1e-3535-4d2e-9a51-5e55a0000035',
  postToolUseStubBash: '0b7a9c1e-3636-4d2e-9a51-5e55a0000036',
  preCompact: '0b7a9c1e-5555-4d2e-9a51-5e55a0000005',
  stop: '0b7a9c1e-6666-4d2e-9a51-5e55a0000006',
  sessionEnd: '0b7a9c1e-7777-4d2e-9a51-5e55a0000007',
  recall: '0b7a9c1e-9999-4d2e-9a51-5e55a0000009',
};

/**
 * Settings that change how Node itself starts. NODE_EXTRA_CA_CERTS (set on some CI and corporate
 * machines) makes every start parse a certificate bundle: tens of ms added to the floor and the hook
 * alike, which would shrink every ratio below what a user without it sees.
 */
export const NODE_START_ENV = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'NODE_COMPILE_CACHE', 'NODE_V8_COVERAGE'];

/** The environment every child gets: ours minus any CTXL_* setting that would change what a hook does and NODE_START_ENV. */
export function baseEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTXL_') && !NODE_START_ENV.includes(k)) env[k] = v;
  return env;
}

export function createWorkspace({ root, repo, distDir = join(repo, 'dist'), fixtures }) {
  const project = join(root, 'proj');
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(join(project, 'lib'), { recursive: true });
  const transcripts = join(root, 'claude', 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(transcripts, { recursive: true });
  const env = baseEnv();
  const dist = (name) => join(distDir, `${name}.mjs`);
  const floorFile = join(repo, 'bench', 'floor.mjs');
  const ws = { root, project, transcripts, env, dist, floorFile, fixtures, notes: [] };
  return ws;
}

const base = (ws, sid, event, extra, transcripts = ws.transcripts) => ({
  session_id: sid,
  transcript_path: join(transcripts, `${sid}.jsonl`),
  cwd: ws.project,
  ...extra,
  hook_event_name: event,
});

function scenario(ws, { id, label, hook, sid, input, desc, reset, check }) {
  const home = join(ws.root, 'homes', id);
  mkdirSync(home, { recursive: true });
  const s = {
    id,
    label,
    hook,
    file: ws.dist(hook),
    sid,
    home,
    cwd: ws.project,
    env: { ...ws.env, CTXL_HOME: home },
    input: Buffer.from(JSON.stringify(input)),
    transcript: input.transcript_path,
    desc,
    sessionDir: join(home, 'sessions', sid),
    reset: () => reset?.(s),
    check: (r) => processProblem(r) ?? check?.(s, r),
  };
  return s;
}

/** Block (outside any timed region) until `done()` or the timeout. */
function waitUntil(done, timeoutMs) {
  const until = Date.now() + timeoutMs;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!done() && Date.now() < until) Atomics.wait(cell, 0, 0, 25);
}

/**
 * Wait until no detached archive job of this workspace runs (PostToolUse starts one for a large
 * output after it has answered). Every timed run, floors included, starts without one: a job still
 * chunking the last run's output, indexing it or saving its code cache would slow whichever run
 * comes next, the floor as much as the hook. Its job file goes before the process ends, so the
 * process itself is looked for (Linux: /proc; elsewhere only the job file is waited for).
 */
export function waitForJobs(ws, timeoutMs = 10_000) {
  waitUntil(() => !jobRunning(ws.root), timeoutMs);
}

function jobRunning(root) {
  if (process.platform !== 'linux') return false;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    if (cmd.includes('\0run-job\0') && cmd.includes(root)) return true;
  }
  return false;
}

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};
const sizeOf = (file) => (existsSync(file) ? statSync(file).size : 0);
const noStdout = (r) => (r.stdout.trim() === '' ? undefined : `unexpected stdout: ${r.stdout.slice(0, 80)}`);
/** A JSON hook answers with nothing or with one JSON object (reference §2.2). */
const quietOrJson = (r) => {
  if (r.stdout.trim() === '') return undefined;
  try {
    const v = JSON.parse(r.stdout);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return undefined;
  } catch {}
  return `stdout is neither empty nor a JSON object: ${r.stdout.slice(0, 80)}`;
};

// ---- transcripts ----

/** Whole turns of a fresh conversation whose size lands in [min, max] (tries a few seeds). */
function tailTurns(ws, sid, min, max) {
  for (let seed = 1000; seed < 1200; seed++) {
    const conv = createConversation({ seed, sessionId: sid, cwd: ws.project, parentUuid: '5ee0ff5e-0000-4000-a000-000000000000' });
    const t = conv.take(min);
    if (t.bytes <= max) return t;
  }
  throw new Error(`could not synthesize a tail of ${min}..${max} bytes`);
}

/**
 * A transcript with a saved cursor: write `prefix`, run the hook once so it saves its own cursor (and
 * whatever else it keeps) there, snapshot CTXL_HOME, then append `tail`. reset() restores the snapshot,
 * so every run reads the same `tail` into the same state. `pristine` is the home before that first
 * read (no cursor at all), for the read-from-0 case.
 */
function withCursor(s, writePrefix, tail) {
  const prefixBytes = writePrefix(s.transcript);
  rmSync(s.sessionDir, { recursive: true, force: true });
  s.pristine = snapshot(s.home);
  const r = runNode([s.file], { input: s.input, cwd: s.cwd, env: s.env });
  const problem = processProblem(r);
  const cursorFile = join(s.sessionDir, 'cursor.json');
  const cursor = readJson(cursorFile);
  if (problem !== undefined || cursor?.offset !== prefixBytes) {
    throw new Error(`${s.label}: preparing the cursor failed (${problem ?? `cursor offset ${cursor?.offset} ≠ prefix ${prefixBytes}`})`);
  }
  appendFileSync(s.transcript, tail);
  s.cursorFile = cursorFile;
  s.prepared = snapshot(s.home);
  s.prefixBytes = prefixBytes;
  s.size = sizeOf(s.transcript);
  s.newBytes = s.size - prefixBytes;
}

const restorePrepared = (s) => restore(s.prepared);
const checkCursorAtEnd = (s, r) => {
  const c = readJson(s.cursorFile);
  if (c?.offset !== s.size) return `cursor offset ${c?.offset} after the run, expected ${s.size} (new data not read)`;
  // PreCompact answers in plain text (it steers the summary); the others in JSON or not at all.
  return s.hook === 'pre-compact' ? undefined : quietOrJson(r);
};

function realTranscript(ws) {
  const file = ws.fixtures === undefined ? undefined : join(ws.fixtures, REAL_TRANSCRIPT);
  if (file !== undefined && existsSync(file)) return { file, name: REAL_TRANSCRIPT.split('/')[0] };
  return undefined;
}

/** Split a file at the line boundary that leaves the new part closest to `want` bytes. */
function splitNear(buf, want) {
  let best = -1;
  for (let i = buf.indexOf(0x0a); i !== -1 && i < buf.length - 1; i = buf.indexOf(0x0a, i + 1)) {
    const rest = buf.length - (i + 1);
    if (best === -1 || Math.abs(rest - want) < Math.abs(buf.length - best - want)) best = i + 1;
  }
  return best;
}

// ---- the scenarios ----

export function hookScenarios(ws) {
  const list = [];

  list.push(
    scenario(ws, {
      id: 'session-start',
      label: 'SessionStart',
      hook: 'session-start',
      sid: SID.sessionStart,
      desc: 'source=startup, new session, no transcript yet',
      input: base(ws, SID.sessionStart, 'SessionStart', { source: 'startup' }),
      // startup = a session we have never seen: drop its folder each time.
      reset: (s) => rmSync(s.sessionDir, { recursive: true, force: true }),
      check: (s, r) => {
        let out;
        try {
          out = JSON.parse(r.stdout);
        } catch {
          return `stdout is not JSON: ${r.stdout.slice(0, 80)}`;
        }
        if (typeof out?.hookSpecificOutput?.additionalContext !== 'string') return 'no additionalContext';
        return existsSync(join(s.sessionDir, 'session.json')) ? undefined : 'session.json not written';
      },
    }),
  );

  const prompt = promptText(7, 600);
  list.push(
    scenario(ws, {
      id: 'user-prompt-submit',
      label: 'UserPromptSubmit',
      hook: 'user-prompt-submit',
      sid: SID.userPrompt,
      desc: `prompt of ${prompt.length} chars`,
      input: base(ws, SID.userPrompt, 'UserPromptSubmit', { prompt_id: '346be254-cb56-47e4-8cd5-e55d6d64d4c7', permission_mode: 'default', prompt }),
      reset: (s) => {
        s.before = readJson(join(s.sessionDir, 'session.json'))?.prompts ?? 0;
      },
      check: (s, r) => {
        const after = readJson(join(s.sessionDir, 'session.json'))?.prompts;
        return after === s.before + 1 ? quietOrJson(r) : `session.json prompts ${after}, expected ${s.before + 1}`;
      },
    }),
  );

  const stdout = bashStdout(11, 4 * KB);
  const toolBase = {
    prompt_id: '5e2906c2-0c2e-4c47-9d61-8d4f7f0a1b2c',
    permission_mode: 'default',
    effort: { level: 'medium' },
    tool_name: 'Bash',
    tool_input: { command: 'npx vitest run test/unit --reporter=verbose', description: 'Run the unit tests' },
    tool_use_id: 'toolu_01A9bench0000000000000001',
  };
  const eventsCheck = (ok) => (s, r) => {
    const file = join(s.sessionDir, 'events.jsonl');
    if (sizeOf(file) <= s.before) return 'events.jsonl did not grow';
    const last = readFileSync(file, 'utf8').trimEnd().split('\n').pop();
    const ev = JSON.parse(last);
    return ev.tool === 'Bash' && ev.ok === ok ? quietOrJson(r) : `unexpected event ${last.slice(0, 80)}`;
  };
  const eventsBefore = (s) => {
    s.before = sizeOf(join(s.sessionDir, 'events.jsonl'));
  };
  list.push(
    scenario(ws, {
      id: 'post-tool-use',
      label: 'PostToolUse',
      hook: 'post-tool-use',
      sid: SID.postToolUse,
      desc: `Bash, ${(Buffer.byteLength(stdout) / KB).toFixed(1)} KB stdout`,
      input: base(ws, SID.postToolUse, 'PostToolUse', {
        ...toolBase,
        tool_response: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
        duration_ms: 2841,
      }),
      reset: eventsBefore,
      check: eventsCheck(true),
    }),
  );

  // PostToolUse at L0→L1: a Read of a 1 MB file (Read is never persisted by the client), archived
  // to L2 and answered with a stub. The transcript's last usage puts the Working zone at ~70%.
  const stubSid = SID.postToolUseStub;
  const stubTranscript = join(ws.transcripts, `${stubSid}.jsonl`);
  const usageLine = {
    type: 'assistant',
    sessionId: stubSid,
    uuid: 'a5ee0000-0000-4000-a000-000000000001',
    timestamp: '2026-11-29T10:00:00.000Z',
    isSidechain: false,
    requestId: 'req_bench_stub',
    message: {
      id: 'msg_bench_stub',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'tool_use', id: 'toolu_01A9bench00000000000000st', name: 'Read', input: { file_path: join(ws.project, 'lib', 'big.ts') } }],
      usage: { input_tokens: 2_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 110_000, output_tokens: 80 },
    },
  };
  writeFileSync(stubTranscript, `${JSON.stringify(usageLine)}\n`);
  const bigLines = [];
  for (let i = 0; bigLines.join('\n').length < 1024 * KB; i++) bigLines.push(...bashStdout(100 + i, 4 * KB).split('\n'));
  const bigContent = bigLines.join('\n').slice(0, 1024 * KB);
  // The file the Read returned: its archive job reads the lines again from it.
  writeFileSync(join(ws.project, 'lib', 'big.ts'), bigContent);
  const bigRead = (sid, toolUseId) =>
    base(ws, sid, 'PostToolUse', {
      ...toolBase,
      tool_name: 'Read',
      tool_input: { file_path: join(ws.project, 'lib', 'big.ts') },
      tool_use_id: toolUseId,
      tool_response: {
        type: 'text',
        file: {
          filePath: join(ws.project, 'lib', 'big.ts'),
          content: bigContent,
          numLines: bigContent.split('\n').length,
          startLine: 1,
          totalLines: bigContent.split('\n').length,
        },
      },
      duration_ms: 41,
    });
  // The detached job that archives the output runs after the hook has answered; it is let finish
  // before the next timed run, so its CPU does not slow the runs being measured.
  const jobsDone = (x) => {
    waitUntil(() => !existsSync(join(x.home, 'jobs')) || readdirSync(join(x.home, 'jobs')).length === 0, 10_000);
    waitForJobs(ws);
  };
  // The same 1 MB Read below L0→L1: archived (by a job), no stub. The difference is what stubbing costs.
  const lowSid = SID.postToolUseBig;
  writeFileSync(
    join(ws.transcripts, `${lowSid}.jsonl`),
    `${JSON.stringify({ ...usageLine, sessionId: lowSid, message: { ...usageLine.message, usage: { ...usageLine.message.usage, cache_read_input_tokens: 20_000 } } })}\n`,
  );
  list.push(
    scenario(ws, {
      id: 'post-tool-use-big',
      label: 'PostToolUse (1 MB Read, no stub)',
      hook: 'post-tool-use',
      sid: lowSid,
      desc: 'Read of 1 MB at ~0% of the Working zone: archived by a job, no stub',
      input: bigRead(lowSid, 'toolu_01A9bench00000000000000bg'),
      reset: (x) => {
        jobsDone(x);
        rmSync(join(x.sessionDir, 'archived'), { recursive: true, force: true });
      },
      check: (_x, r) => (r.stdout.trim() === '' ? undefined : `unexpected stdout: ${r.stdout.slice(0, 80)}`),
    }),
  );
  list.push(
    scenario(ws, {
      id: 'post-tool-use-stub',
      label: 'PostToolUse (stub, 1 MB Read)',
      hook: 'post-tool-use',
      sid: stubSid,
      desc: 'Read of 1 MB at ~70% of the Working zone: archived and stubbed',
      input: bigRead(stubSid, 'toolu_01A9bench00000000000000st'),
      // Each run archives the output afresh, as the first (and only) PostToolUse of that call would.
      reset: (x) => {
        jobsDone(x);
        rmSync(join(x.sessionDir, 'archived'), { recursive: true, force: true });
      },
      check: (_x, r) => (r.stdout.includes('"updatedToolOutput"') ? undefined : `no stub: ${r.stdout.slice(0, 80)}`),
    }),
  );

  // The stub a session meets most: a test run's 40 KB of output at ~70% of the Working zone, archived
  // inside the hook (no job: it is under the spool size) and answered with a stub.
  const bashStubSid = SID.postToolUseStubBash;
  writeFileSync(
    join(ws.transcripts, `${bashStubSid}.jsonl`),
    `${JSON.stringify({ ...usageLine, sessionId: bashStubSid, message: { ...usageLine.message, content: [{ type: 'tool_use', id: 'toolu_01A9bench0000000000000sb', name: 'Bash', input: toolBase.tool_input }] } })}\n`,
  );
  const testRun = bashStdout(17, 40 * KB);
  list.push(
    scenario(ws, {
      id: 'post-tool-use-stub-bash',
      label: 'PostToolUse (stub, 40 KB Bash)',
      hook: 'post-tool-use',
      sid: bashStubSid,
      desc: `Bash of ${(Buffer.byteLength(testRun) / KB).toFixed(0)} KB at ~70% of the Working zone: archived and stubbed in the hook`,
      input: base(ws, bashStubSid, 'PostToolUse', {
        ...toolBase,
        tool_use_id: 'toolu_01A9bench0000000000000sb',
        tool_response: { stdout: testRun, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
        duration_ms: 5120,
      }),
      reset: (x) => rmSync(join(x.sessionDir, 'archived'), { recursive: true, force: true }),
      check: (_x, r) => (r.stdout.includes('"updatedToolOutput"') ? undefined : `no stub: ${r.stdout.slice(0, 80)}`),
    }),
  );

  const error = `Exit code 1\n${bashStdout(13, 1500)}`;
  list.push(
    scenario(ws, {
      id: 'post-tool-use-failure',
      label: 'PostToolUseFailure',
      hook: 'post-tool-use-failure',
      sid: SID.postToolUseFailure,
      desc: `Bash, exit 1, ${(Buffer.byteLength(error) / KB).toFixed(1)} KB error`,
      input: base(ws, SID.postToolUseFailure, 'PostToolUseFailure', { ...toolBase, error, is_interrupt: false, duration_ms: 3012 }),
      reset: eventsBefore,
      check: eventsCheck(false),
    }),
  );

  // PreCompact: a real transcript, cursor saved about 20 KB before its end.
  const pre = scenario(ws, {
    id: 'pre-compact',
    label: 'PreCompact',
    hook: 'pre-compact',
    sid: SID.preCompact,
    desc: '',
    input: base(ws, SID.preCompact, 'PreCompact', { prompt_id: '127b4929-6c1d-4e8e-8a0f-0d6b2f1a9e01', trigger: 'auto', custom_instructions: null }),
    reset: restorePrepared,
    check: checkCursorAtEnd,
  });
  const real = realTranscript(ws);
  if (real !== undefined) {
    const buf = readFileSync(real.file);
    const cut = splitNear(buf, TAIL_BYTES);
    withCursor(
      pre,
      (path) => {
        writeFileSync(path, buf.subarray(0, cut));
        return cut;
      },
      buf.subarray(cut),
    );
    pre.desc = `auto; real ${(pre.size / KB).toFixed(0)} KB transcript (${real.name}), cursor saved, ${(pre.newBytes / KB).toFixed(1)} KB new`;
  } else {
    ws.notes.push(`real transcript ${REAL_TRANSCRIPT} not found under ${ws.fixtures}; PreCompact uses a synthesized one`);
    const tail = tailTurns(ws, SID.preCompact, TAIL_BYTES, TAIL_BYTES + 4 * KB);
    withCursor(pre, (path) => createConversation({ seed: 5, sessionId: SID.preCompact, cwd: ws.project }).writeTo(path, SMALL_PREFIX_BYTES), tail.text);
    pre.desc = `auto; synthesized transcript ${(pre.size / KB).toFixed(0)} KB, cursor saved, ${(pre.newBytes / KB).toFixed(1)} KB new`;
  }
  list.push(pre);

  list.push(stopScenario(ws, { id: 'stop', prefixBytes: SMALL_PREFIX_BYTES }));

  list.push(
    scenario(ws, {
      id: 'session-end',
      label: 'SessionEnd',
      hook: 'session-end',
      sid: SID.sessionEnd,
      desc: 'reason=other, known session',
      input: base(ws, SID.sessionEnd, 'SessionEnd', { prompt_id: '346be254-cb56-47e4-8cd5-e55d6d64d4c7', reason: 'other' }),
      check: (s, r) => {
        const rec = readJson(join(s.sessionDir, 'session.json'));
        return rec?.endReason === 'other' ? quietOrJson(r) : 'session.json not marked closed';
      },
    }),
  );
  return list;
}

let sharedTail;

/**
 * Stop on a synthesized transcript: `prefixBytes` already read (cursor saved), then the same ~20 KB
 * turn(s). Every size is one session (SID.stop) with its own CTXL_HOME and transcript folder, so the
 * small prefix is the start of the big one and the new bytes are identical.
 */
export function stopScenario(ws, { id, prefixBytes, label = 'Stop' }) {
  const sid = SID.stop;
  const transcripts = id === 'stop' ? ws.transcripts : join(ws.root, 'claude', 'projects', id);
  mkdirSync(transcripts, { recursive: true });
  const s = scenario(ws, {
    id,
    label,
    hook: 'stop',
    sid,
    desc: '',
    input: base(
      ws,
      sid,
      'Stop',
      {
        prompt_id: '346be254-cb56-47e4-8cd5-e55d6d64d4c7',
        permission_mode: 'default',
        effort: { level: 'medium' },
        stop_hook_active: false,
        last_assistant_message: 'Done: the reader now resumes from the saved cursor and the tests pass.',
        background_tasks: [],
        session_crons: [],
      },
      transcripts,
    ),
    reset: restorePrepared,
    check: checkCursorAtEnd,
  });
  sharedTail ??= tailTurns(ws, sid, TAIL_BYTES, TAIL_BYTES + 4 * KB);
  withCursor(s, (path) => createConversation({ seed: 42, sessionId: sid, cwd: ws.project }).writeTo(path, prefixBytes), sharedTail.text);
  s.desc = `${fmtBytes(s.size)} transcript, cursor saved, ${(s.newBytes / KB).toFixed(1)} KB new`;
  return s;
}

const RECALL_TRANSCRIPT_BYTES = 1024 * KB;
const RECALL_QUERY = 'cursor transcript anchor';

/**
 * The /recall hooks (UserPromptExpansion for a typed `/recall …`, PreToolUse(Skill) when Claude calls
 * it): a session whose ~1 MB transcript Stop has already archived, then a query. The home is restored
 * before each run, so each run searches the same L2 with nothing new to catch up on.
 */
export function recallScenarios(ws) {
  const sid = SID.recall;
  const common = { prompt_id: '9c1f7e2a-4b3d-4e5f-8a6b-7c8d9e0f1a2b', permission_mode: 'default' };
  const specs = [
    {
      id: 'user-prompt-expansion',
      label: 'UserPromptExpansion',
      event: 'UserPromptExpansion',
      desc: `/recall ${RECALL_QUERY}`,
      extra: {
        expansion_type: 'slash_command',
        command_name: 'recall',
        command_args: RECALL_QUERY,
        command_source: 'plugin',
        prompt: `/recall ${RECALL_QUERY}`,
      },
    },
    {
      id: 'pre-tool-use',
      label: 'PreToolUse',
      event: 'PreToolUse',
      desc: `Skill recall "${RECALL_QUERY}"`,
      extra: {
        effort: { level: 'medium' },
        tool_name: 'Skill',
        tool_input: { skill: 'recall', args: RECALL_QUERY },
        tool_use_id: 'toolu_01A9bench0000000000000009',
      },
    },
  ];
  const out = [];
  for (const spec of specs) {
    if (!existsSync(ws.dist(spec.id))) {
      ws.notes.push(`dist/${spec.id}.mjs not found: ${spec.label} not measured`);
      continue;
    }
    const transcripts = join(ws.root, 'claude', 'projects', spec.id);
    mkdirSync(transcripts, { recursive: true });
    const s = scenario(ws, {
      id: spec.id,
      label: spec.label,
      hook: spec.id,
      sid,
      desc: '',
      input: base(ws, sid, spec.event, { ...common, ...spec.extra }, transcripts),
      reset: restorePrepared,
      check: (_s, r) => {
        let v;
        try {
          v = JSON.parse(r.stdout);
        } catch {
          return `stdout is not JSON: ${r.stdout.slice(0, 80)}`;
        }
        const text = v?.hookSpecificOutput?.additionalContext;
        return typeof text === 'string' && text.length > 0 ? undefined : 'no additionalContext with the recall results';
      },
    });
    // The session as the hooks would have left it: SessionStart registered it, Stop archived it.
    const startInput = Buffer.from(JSON.stringify(base(ws, sid, 'SessionStart', { source: 'startup' }, transcripts)));
    let r = runNode([ws.dist('session-start')], { input: startInput, cwd: s.cwd, env: s.env });
    let problem = processProblem(r);
    const size = createConversation({ seed: 77, sessionId: sid, cwd: ws.project }).writeTo(s.transcript, RECALL_TRANSCRIPT_BYTES);
    const stopInput = Buffer.from(JSON.stringify(base(ws, sid, 'Stop', { ...common, stop_hook_active: false }, transcripts)));
    if (problem === undefined) {
      r = runNode([ws.dist('stop')], { input: stopInput, cwd: s.cwd, env: s.env });
      s.cursorFile = join(s.sessionDir, 'cursor.json');
      problem = processProblem(r) ?? (readJson(s.cursorFile)?.offset === size ? undefined : 'Stop did not read the whole transcript');
    }
    // An earlier /recall built and saved the search index; since then one more turn was archived, so a
    // run loads the index, adds that turn's chunks and searches (the usual case, not a cold build).
    if (problem === undefined) {
      r = runNode([s.file], { input: s.input, cwd: s.cwd, env: s.env });
      problem = processProblem(r);
      // A search that finds nothing is cheaper than a real one: say so if that is what we measure.
      if (!/\b[0-9a-f]{16}\b/.test(r.stdout)) ws.notes.push(`${spec.label}: the recall query found no L2 reference; its figures are for an empty search`);
    }
    const turn = tailTurns(ws, sid, TAIL_BYTES, TAIL_BYTES + 4 * KB);
    appendFileSync(s.transcript, turn.text);
    if (problem === undefined) {
      r = runNode([ws.dist('stop')], { input: stopInput, cwd: s.cwd, env: s.env });
      problem = processProblem(r) ?? (readJson(s.cursorFile)?.offset === size + turn.bytes ? undefined : 'Stop did not read the new turn');
    }
    if (problem !== undefined) throw new Error(`${spec.label}: preparing the archive failed (${problem})`);
    s.prepared = snapshot(s.home);
    s.desc = `${spec.desc}; ${fmtBytes(size + turn.bytes)} session archived, index saved one turn ago`;
    out.push(s);
  }
  return out;
}

/** The same Stop with no cursor at all: the whole transcript is read from byte 0. */
export function fromZeroOf(s) {
  return {
    ...s,
    id: `${s.id}-from-0`,
    desc: `${fmtBytes(s.size)} transcript read from byte 0 (no cursor)`,
    reset: () => restore(s.pristine),
  };
}

export function fmtBytes(n) {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024).toFixed(0)} KB`;
}

/** The floor run for a scenario: same stdin, cwd and env, but bench/floor.mjs. */
export function floorOf(ws, s) {
  return { ...s, id: `${s.id}:floor`, label: 'floor', file: ws.floorFile, reset: () => waitForJobs(ws), check: (r) => processProblem(r) ?? noStdout(r) };
}

/** Log lines at warn or error that a scenario's hooks wrote into its CTXL_HOME. */
export function logProblems(s) {
  const file = join(s.home, 'logs', 'ctxl.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return { level: 'error', msg: l };
      }
    })
    .filter((e) => e.level === 'warn' || e.level === 'error');
}

export function resolveFixtures(repo, override) {
  const dir = resolve(repo, override ?? '../shared/fixtures/transcripts');
  return existsSync(dir) ? dir : undefined;
}

// The texts that carry a session across a compaction, all pure: the digest of a phase file and its
// facts (lib/context/session-digest.ts), each phase's priorities (priorities.ts), PreCompact's
// steering (steering.ts), SessionStart(compact)'s brief (compact-brief.ts) and Stop's advice
// (advice.ts). Also the exact values they carry: small edits as "old → new" (lib/phase/span-work.ts).
import { describe, expect, it } from 'vitest';
import { adviceFor, compactFocus } from '../../lib/context/advice.ts';
import { computeBudget } from '../../lib/context/budget.ts';
import { compactBrief } from '../../lib/context/compact-brief.ts';
import { prioritized, sectionOrder } from '../../lib/context/priorities.ts';
import { constraintId, type DigestItem, digestOf, itemLine, type SessionDigest } from '../../lib/context/session-digest.ts';
import { STEERING_MAX_CHARS, steeringText } from '../../lib/context/steering.ts';
import { factKey } from '../../lib/phase/facts.ts';
import { decisionId } from '../../lib/phase/ledger.ts';
import type { FactRecord, PhaseFile } from '../../lib/phase/phase-store.ts';
import type { Phase } from '../../lib/phase/signals.ts';
import {
  applyDigest,
  type CallDigest,
  editChange,
  emptyWork,
  keyChanges,
  moveWorkSince,
  type SpanWork,
  type TestRecord,
  valueChangeKey,
} from '../../lib/phase/span-work.ts';
import type { PhaseSpan } from '../../lib/phase/tracker.ts';

// ---------------------------------------------------------------------------------------------
// Builders.

const T0 = '2026-11-29T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

const span = (n: number, phase: Phase, start: number, end?: number, by: PhaseSpan['by'] = 'tools', trigger = 'tools: 2 source edits'): PhaseSpan => ({
  n,
  phase,
  start: at(start),
  ...(end === undefined ? {} : { end: at(end) }),
  by,
  trigger,
  signals: {},
  events: 3,
});

function phaseFile(spans: PhaseSpan[], work: Record<string, SpanWork> = {}, extra: Partial<PhaseFile> = {}): PhaseFile {
  return {
    version: 1,
    tracker: { version: 1, phase: spans.at(-1)?.phase ?? 'unknown', spans, recent: [], quiet: 0, dropped: 0 },
    work,
    due: [],
    ledgers: {},
    ...extra,
  };
}

let refs = 0;
const fact = (kind: FactRecord['kind'], text: string, n = 1, extra: Partial<FactRecord> = {}): FactRecord => ({
  v: 1,
  kind,
  text,
  n,
  phase: 'design',
  ref: `ref-${++refs}`,
  t: at(n),
  key: factKey(text),
  ...extra,
});

const testRun = (command: string, passed: number, failed: number, minutes: number, failures: string[] = []): TestRecord => ({
  runner: 'vitest',
  passed,
  failed,
  skipped: 0,
  failures,
  command,
  t: at(minutes),
});

const NOW = at(30);
const noLedgers = () => undefined;

/** An empty digest to build on. */
const digest = (over: Partial<SessionDigest> = {}): SessionDigest => ({
  phase: 'implementation',
  timeline: '',
  sequence: '',
  decisions: [],
  constraints: [],
  requirements: [],
  open: [],
  next: [],
  values: [],
  files: [],
  tests: [],
  failures: [],
  ledgers: [],
  ...over,
});

/** A digest with every section non-empty, `n` items each, texts of `chars` characters. */
function fullDigest(phase: string, n: number, chars: number): SessionDigest {
  const text = (kind: string, i: number) => `${kind} ${i} ${'word '.repeat(Math.ceil(chars / 5))}`.slice(0, chars);
  const items = (kind: string, id?: (i: number) => string): DigestItem[] =>
    Array.from({ length: n }, (_, i) => ({ ...(id === undefined ? {} : { id: id(i) }), text: text(kind, i), ref: `c-${kind}-${i}` }));
  return digest({
    phase,
    timeline: 'planning 5m → design 10m → implementation 15m (now)',
    sequence: 'planning → design → implementation',
    since: at(15),
    trigger: 'tools: 2 source edits',
    goal: 'Build a paginated API client',
    decisions: items('decision', (i) => `D-${String(i).padStart(8, '0')}`),
    constraints: items('constraint', (i) => `C-${String(i).padStart(8, '0')}`),
    requirements: items('requirement'),
    open: items('open'),
    next: items('next'),
    values: items('value'),
    files: Array.from({ length: n }, (_, i) => `src/module-${i}.ts`),
    tests: Array.from({ length: n }, (_, i) => text('`npm test` (vitest): 5 passed, 1 failed', i)),
    failures: Array.from({ length: n }, (_, i) => text(`test ${i} fails`, i)),
    ledgers: ['docs/ledgers/phase-1-planning.md', 'docs/ledgers/phase-2-design.md'],
  });
}

// ---------------------------------------------------------------------------------------------
// span-work: exact values from small edits.

describe('valueChangeKey and keyChanges', () => {
  const change = (text: string, t = '1', file = 'a.ts') => ({ file, text, t });
  it('a change of literals only is a value change; an added line, a renamed call or a bare literal is not', () => {
    for (const text of [
      'maxRetries = 3 → maxRetries = 6',
      'ACCESS_TOKEN_TTL: "1h", → ACCESS_TOKEN_TTL: "15m",',
      'pydantic==2.8.0 → pydantic==2.7.4',
      'timeout: 30s → timeout: 45s',
      'port = 80 → port = 8443; host = "a" → host = "b"',
      'const MAX_RETRIES = 3; → const MAX_RETRIES = 6;',
      '"timeout": 30, → "timeout": 60,',
      '"typescript": "^5.4.0", → "typescript": "^5.6.2",',
    ])
      expect(valueChangeKey(change(text)), text).toBeDefined();
    for (const text of [
      '(nothing) → import numpy as np',
      'foo(1) → bar(1)',
      'from x import A → from x import A, B',
      '"a" → "b"',
      'v1 → v2',
      'a = 1 ⏎ b = 2 → a = 3',
    ])
      expect(valueChangeKey(change(text)), text).toBeUndefined();
  });

  it('the same setting in two files is two settings; value changes survive the cap on the others', () => {
    const list = keyChanges(
      [change('n = 1 → n = 2', '1', 'a.ts'), change('n = 1 → n = 5', '2', 'b.ts'), change('(nothing) → x()', '3'), change('(nothing) → y()', '4')],
      { values: 5, other: 1 },
    );
    expect(list.map((c) => `${c.file}: ${c.text}`)).toEqual(['a.ts: (nothing) → y()', 'a.ts: n = 1 → n = 2', 'b.ts: n = 1 → n = 5']);
  });

  it('a chain goes on only from the value it reached: two settings of the same shape stay two lines', () => {
    const list = keyChanges(
      [change('timeout = 30 → timeout = 60', '1'), change('timeout = 5 → timeout = 10', '2'), change('timeout = 60 → timeout = 90', '3')],
      {
        values: 5,
        other: 5,
      },
    );
    expect(list.map((c) => c.text)).toEqual(['timeout = 5 → timeout = 10', 'timeout = 30 → timeout = 60 → timeout = 90']);
  });

  it('a long chain shows its first value and its latest', () => {
    const list = keyChanges(
      Array.from({ length: 10 }, (_, i) => change(`n = ${i} → n = ${i + 1}`, String(i))),
      { values: 5, other: 5 },
    );
    expect(list.map((c) => c.text)).toEqual(['n = 0 → … → n = 7 → n = 8 → n = 9 → n = 10']);
  });

  it('over its cap, a span keeps room for the edits that set no value', () => {
    const work = emptyWork();
    const edit = (chg: string): CallDigest => ({ k: 'edit-source', files: ['/p/a.ts'], ok: true, chg });
    for (let i = 0; i < 20; i++) applyDigest(work, edit(`limit${i} = 1 → limit${i} = 2`), at(i), '/p');
    for (let i = 0; i < 5; i++) applyDigest(work, edit(`(nothing) → call${i}()`), at(20 + i), '/p');
    expect(work.changes?.filter((c) => c.text.startsWith('(nothing)'))).toHaveLength(5);
    expect(work.changes).toHaveLength(20);
  });

  it('over its cap, a span drops the oldest change that sets no value first', () => {
    const work = emptyWork();
    const edit = (chg: string): CallDigest => ({ k: 'edit-source', files: ['/p/a.ts'], ok: true, chg });
    applyDigest(work, edit('limit = 10 → limit = 20'), at(0), '/p');
    for (let i = 1; i <= 25; i++) applyDigest(work, edit(`(nothing) → call${i}()`), at(i), '/p');
    expect(work.changes).toHaveLength(20);
    expect(work.changes?.[0]?.text).toBe('limit = 10 → limit = 20');
    expect(work.changes?.at(-1)?.text).toBe('(nothing) → call25()');
  });
});

describe('editChange', () => {
  it('redacts each line before cutting, so a secret at the end of a long line never survives in part', () => {
    const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2)}`.slice(0, 40);
    const change = editChange({ old_string: 'TOKEN = "old"', new_string: `TOKEN = ${'y'.repeat(195)} "${token}"` }) ?? '';
    expect(change).not.toContain('ghp_');
    expect(change).not.toContain(token.slice(0, 12));
  });

  it('a small Edit gives "old → new" of the changed lines only', () => {
    expect(editChange({ file_path: '/p/a.ts', old_string: 'const timeout = 30000;', new_string: 'const timeout = 45000;' })).toBe(
      'const timeout = 30000; → const timeout = 45000;',
    );
    const change = editChange({
      file_path: '/p/a.ts',
      old_string: 'export const config = {\n  retries: 3,\n  timeoutMs: 30000,\n};',
      new_string: 'export const config = {\n  retries: 3,\n  timeoutMs: 45000,\n};',
    });
    expect(change).toBe('timeoutMs: 30000, → timeoutMs: 45000,');
  });

  it('an added line shows "(nothing) →"; a pure deletion has no value to keep', () => {
    expect(editChange({ old_string: 'a: 1,\n}', new_string: 'a: 1,\nb: 2,\n}' })).toBe('(nothing) → b: 2,');
    expect(editChange({ old_string: 'a: 1,\nb: 2,\n}', new_string: 'a: 1,\n}' })).toBeUndefined();
  });

  it('joins up to three changed lines with ⏎ and ignores blank ones', () => {
    expect(editChange({ old_string: 'x\nhost = "a"\n\nport = 80\ny', new_string: 'x\nhost = "b"\n\nport = 8443\ny' })).toBe(
      'host = "a" → host = "b"; port = 80 → port = 8443',
    );
  });

  it('large or multi-hunk rewrites give undefined', () => {
    expect(editChange({ old_string: '1\n2\n3\n4', new_string: '5\n6\n7\n8' })).toBeUndefined();
    // two changes five lines apart: one hunk of five lines between them
    expect(editChange({ old_string: 'A\ns1\ns2\ns3\nB', new_string: 'A2\ns1\ns2\ns3\nB2' })).toBeUndefined();
    expect(editChange({ old_string: 'x'.repeat(2_001), new_string: 'y' })).toBeUndefined();
    expect(editChange({ old_string: 'x', new_string: 'y'.repeat(2_001) })).toBeUndefined();
    expect(editChange({ file_path: '/p/a.ts', content: 'a whole file' })).toBeUndefined();
    expect(editChange({ old_string: 'same', new_string: 'same' })).toBeUndefined();
  });

  // Two hunks two lines apart fall in one three-line window, so the unchanged line between them is
  // reported as if it had changed ("x1 ⏎ same ⏎ x3 → y1 ⏎ same ⏎ y3"): neither the changed lines only
  // nor undefined for a multi-hunk edit.
  it('a two-hunk edit does not report the unchanged line between the hunks as changed', () => {
    const change = editChange({ old_string: 'retries = 3\nname = "svc"\ntimeout = 30', new_string: 'retries = 5\nname = "svc"\ntimeout = 45' });
    expect(change === undefined || !change.includes('name = "svc"')).toBe(true);
  });

  it('MultiEdit: each edit, "; "-separated, at most three; one large edit makes it undefined', () => {
    expect(
      editChange({
        file_path: '/p/a.toml',
        edits: [
          { old_string: 'port = 80', new_string: 'port = 8443' },
          { old_string: 'host = "a"', new_string: 'host = "b"' },
        ],
      }),
    ).toBe('port = 80 → port = 8443; host = "a" → host = "b"');
    const four = ['a', 'c', 'e', 'g'].map((c) => ({ old_string: c, new_string: c.toUpperCase() }));
    expect(editChange({ edits: four })).toBe('a → A; c → C; e → E');
    expect(
      editChange({
        edits: [
          { old_string: 'port = 80', new_string: 'port = 8443' },
          { old_string: 'x'.repeat(3_000), new_string: 'y' },
        ],
      }),
    ).toBeUndefined();
    expect(editChange({ edits: [] })).toBeUndefined();
  });

  it('cuts the text at 240 characters', () => {
    const change = editChange({ old_string: `v = "${'a'.repeat(200)}"`, new_string: `v = "${'b'.repeat(200)}"` });
    expect(change).toHaveLength(240);
    expect(change?.endsWith('…')).toBe(true);
    expect(change?.startsWith(`v = "${'a'.repeat(200)}" → v = "`)).toBe(true);
  });
});

describe('applyDigest and moveWorkSince keep work.changes', () => {
  const edit = (file: string, chg: string | undefined): CallDigest => ({ k: 'edit-source', ok: true, files: [file], ...(chg === undefined ? {} : { chg }) });

  it('records a change with the first file, relative to the root, most recent last', () => {
    const work = emptyWork();
    applyDigest(work, edit('/p/src/a.ts', 'x = 1 → x = 2'), at(1), '/p');
    applyDigest(work, edit('/p/src/b.ts', undefined), at(2), '/p');
    applyDigest(work, edit('/elsewhere/c.ts', 'y → z'), at(3), '/p');
    expect(work.changes).toEqual([
      { file: 'src/a.ts', text: 'x = 1 → x = 2', t: at(1) },
      { file: '/elsewhere/c.ts', text: 'y → z', t: at(3) },
    ]);
    expect(work.files).toEqual(['src/a.ts', 'src/b.ts', '/elsewhere/c.ts']);
  });

  it('a call that is no edit, or an edit without files, records no change', () => {
    const work = emptyWork();
    applyDigest(work, { k: 'read', ok: true, files: ['/p/a.ts'], chg: 'a → b' }, at(1));
    applyDigest(work, { k: 'edit-source', ok: true, chg: 'a → b' }, at(2));
    expect(work.changes).toBeUndefined();
  });

  it('keeps the last 20 changes', () => {
    const work = emptyWork();
    for (let i = 0; i < 25; i++) applyDigest(work, edit('/p/a.ts', `v = ${i} → v = ${i + 1}`), at(i));
    expect(work.changes).toHaveLength(20);
    expect(work.changes?.[0]?.text).toBe('v = 5 → v = 6');
    expect(work.changes?.at(-1)?.text).toBe('v = 24 → v = 25');
  });

  it('moveWorkSince moves the changes from `since` on to the new span, before its own', () => {
    const from = emptyWork();
    for (const [i, f] of ['a', 'b', 'c', 'd'].entries()) applyDigest(from, edit(`/p/${f}.ts`, `${f} → ${f.toUpperCase()}`), at(i), '/p');
    const to: SpanWork = { ...emptyWork(), changes: [{ file: 'z.ts', text: 'z → Z', t: at(10) }] };
    moveWorkSince(from, to, at(2));
    expect(from.changes?.map((c) => c.text)).toEqual(['a → A', 'b → B']);
    expect(to.changes?.map((c) => c.text)).toEqual(['c → C', 'd → D', 'z → Z']);
    expect(from.files).toEqual(['a.ts', 'b.ts']);
    expect(to.files).toEqual(['c.ts', 'd.ts']);
  });

  it('moveWorkSince leaves `to` without changes when none moved, and copes with older work lacking them', () => {
    const from = emptyWork();
    applyDigest(from, edit('/p/a.ts', 'a → A'), at(1));
    const to = emptyWork();
    moveWorkSince(from, to, at(5));
    expect(to.changes).toBeUndefined();
    expect(from.changes).toHaveLength(1);
    const old = emptyWork();
    moveWorkSince(old, to, at(0));
    expect(old.changes).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// The digest.

describe('digestOf', () => {
  const spans = [span(1, 'unknown', 0, 0, 'start', 'session start'), span(2, 'planning', 0, 5, 'prompt'), span(3, 'implementation', 5)];
  spans[0] = { ...(spans[0] as PhaseSpan), events: 0 };

  it('phase, since, trigger, timeline and sequence from the spans (the empty unknown start left out)', () => {
    const d = digestOf(phaseFile(spans, {}, { goal: 'Build a paginated API client' }), [], [], NOW, noLedgers);
    expect(d.phase).toBe('implementation');
    expect(d.since).toBe(at(5));
    expect(d.trigger).toBe('tools: 2 source edits');
    expect(d.timeline).toBe('planning 5m → implementation 25m (now)');
    expect(d.sequence).toBe('planning → implementation');
    expect(d.goal).toBe('Build a paginated API client');
  });

  it('no trigger for the span that started the session; no phase file at all: unknown, empty', () => {
    const d = digestOf(phaseFile([span(1, 'unknown', 0, undefined, 'start', 'session start')]), [], [], NOW, noLedgers);
    expect(d.trigger).toBeUndefined();
    expect(d.since).toBe(T0);
    const none = digestOf(undefined, [fact('constraint', 'Never commit to main.')], [], NOW, noLedgers);
    expect(none).toMatchObject({ phase: 'unknown', timeline: '', sequence: '', files: [], tests: [], failures: [], ledgers: [] });
    expect(none.since).toBeUndefined();
    expect(none.constraints.map((c) => c.text)).toEqual(['Never commit to main.']);
  });

  it('decisions: the project’s live ones (oldest first, at most 5) before this session’s, by id, deduplicated', () => {
    const own = [
      fact('decision', "I'll use an LRU map because memory is bounded.", 2, { reason: 'memory is bounded' }),
      fact('decision', 'Decision: retries stay at 3.', 3, { reason: 'the API allows it' }),
      fact('decision', 'decision: retries stay at 3', 3),
    ];
    const chain = Array.from({ length: 7 }, (_, i) => ({ id: `D-0000000${i}`, text: `Project decision ${i}`, ref: `p-${i}`, session: 'old' }));
    // The newest of the chain repeats one of ours: listed once, as ours.
    chain[0] = { id: decisionId(own[1]?.key ?? ''), text: 'Decision: retries stay at 3.', ref: 'p-x', session: 'old' };
    const d = digestOf(phaseFile(spans), own, chain, NOW, noLedgers);
    expect(d.decisions.map((x) => x.id)).toEqual([
      'D-00000005',
      'D-00000004',
      'D-00000003',
      'D-00000002',
      'D-00000001',
      decisionId(factKey("I'll use an LRU map because memory is bounded.")),
      decisionId(factKey('Decision: retries stay at 3.')),
    ]);
    // A reason the text already holds is not repeated; the ref comes along.
    expect(d.decisions.at(-2)).toEqual({ id: d.decisions.at(-2)?.id, text: "I'll use an LRU map because memory is bounded.", ref: own[0]?.ref });
    expect(d.decisions.at(-1)).toEqual({ id: d.decisions.at(-1)?.id, text: 'Decision: retries stay at 3.', reason: 'the API allows it', ref: own[1]?.ref });
  });

  it('constraints get [C-…] ids; requirements none; an empty ref is left out', () => {
    const d = digestOf(
      phaseFile(spans),
      [fact('constraint', 'Never commit to main.', 1, { ref: '' }), fact('requirement', 'It must support cursors.', 2)],
      [],
      NOW,
      noLedgers,
    );
    expect(d.constraints).toEqual([{ id: constraintId(factKey('Never commit to main.')), text: 'Never commit to main.' }]);
    expect(d.constraints[0]?.id).toMatch(/^C-[0-9a-f]{8}$/);
    expect(d.requirements).toEqual([{ text: 'It must support cursors.', ref: expect.stringMatching(/^ref-/) }]);
  });

  it('open items and next steps of the current and the previous span only; open todos after them', () => {
    const facts = [
      fact('open-item', 'TODO: old span item', 1),
      fact('open-item', 'Still need to handle 429s.', 2),
      fact('open-item', 'Unresolved: cursor format.', 3),
      fact('next-step', 'Next: the old step', 1),
      fact('next-step', 'Next: write the tests.', 3),
    ];
    const file = phaseFile(
      spans,
      {},
      {
        todos: [
          { content: 'Design', status: 'completed' },
          { content: 'Implement pagination', status: 'in_progress' },
          { content: 'Document', status: 'pending' },
        ],
      },
    );
    const d = digestOf(file, facts, [], NOW, noLedgers);
    expect(d.open.map((o) => o.text)).toEqual(['Still need to handle 429s.', 'Unresolved: cursor format.', '(in progress) Implement pagination', 'Document']);
    expect(d.next.map((o) => o.text)).toEqual(['Next: write the tests.']);
  });

  it('values: value facts, then the latest other edits, then the value changes; files of the current span, newest first', () => {
    const work: Record<string, SpanWork> = {
      '2': { ...emptyWork(), files: ['docs/plan.md'], changes: [{ file: 'docs/plan.md', text: 'v1 → v2', t: at(3) }] },
      '3': {
        ...emptyWork(),
        files: Array.from({ length: 12 }, (_, i) => `src/f${i}.ts`),
        changes: [
          { file: 'src/client.ts', text: 'timeoutMs: 30000 → timeoutMs: 45000', t: at(9) },
          { file: 'src/cfg.ts', text: 'port = 80 → port = 8443', t: at(7) },
        ],
      },
    };
    const d = digestOf(phaseFile(spans, work), [fact('value', 'Bumped zod to 3.23.8.', 3)], [], NOW, noLedgers);
    expect(d.values.map((v) => v.text)).toEqual([
      'Bumped zod to 3.23.8.',
      '`docs/plan.md`: v1 → v2',
      '`src/cfg.ts`: port = 80 → port = 8443',
      '`src/client.ts`: timeoutMs: 30000 → timeoutMs: 45000',
    ]);
    expect(d.files).toEqual([
      'src/f11.ts',
      'src/f10.ts',
      'src/f9.ts',
      'src/f8.ts',
      'src/f7.ts',
      'src/f6.ts',
      'src/f5.ts',
      'src/f4.ts',
      'src/f3.ts',
      'src/f2.ts',
    ]);
  });

  it('values: of the value facts the first 4 and the last 8; an early value change outlives the later edits', () => {
    const facts = Array.from({ length: 20 }, (_, i) => fact('value', `Set limit ${'abcdefghijklmnopqrst'[i]} to ${i}.`, 3));
    // The setting planted first, then many edits that set no value (imports, calls).
    const changes = [
      { file: 'src/retry.go', text: 'maxRetries = 3 → maxRetries = 6', t: at(1) },
      ...Array.from({ length: 30 }, (_, i) => ({ file: 'src/c.ts', text: `(nothing) → import m${i} from "m${i}";`, t: at(2 + i) })),
    ];
    const d = digestOf(phaseFile(spans, { '3': { ...emptyWork(), changes } }), facts, [], NOW, noLedgers);
    expect(d.values.map((v) => v.text)).toEqual([
      ...[0, 1, 2, 3, 12, 13, 14, 15, 16, 17, 18, 19].map((i) => `Set limit ${'abcdefghijklmnopqrst'[i]} to ${i}.`),
      ...[22, 23, 24, 25, 26, 27, 28, 29].map((i) => `\`src/c.ts\`: (nothing) → import m${i} from "m${i}";`),
      '`src/retry.go`: maxRetries = 3 → maxRetries = 6',
    ]);
    expect(d.values[0]?.ref).toMatch(/^ref-/);
  });

  it('values: one setting changed several times is one line, its first value and its latest', () => {
    const changes = Array.from({ length: 20 }, (_, i) => ({ file: 'src/c.ts', text: `v = ${i} → v = ${i + 1}`, t: at(i) }));
    const d = digestOf(phaseFile(spans, { '3': { ...emptyWork(), changes } }), [], [], NOW, noLedgers);
    expect(d.values.map((v) => v.text)).toEqual(['`src/c.ts`: v = 0 → … → v = 17 → v = 18 → v = 19 → v = 20']);
  });

  it('tests: the last three runs as lines; failures of failing runs, marked when the same command passed later', () => {
    const work: Record<string, SpanWork> = {
      '2': { ...emptyWork(), tests: [testRun('npm test', 4, 2, 4, ['a > one', 'a > two'])] },
      '3': {
        ...emptyWork(),
        tests: [testRun('npm test', 6, 0, 8), testRun('npx vitest run b', 1, 1, 9, ['b > three']), testRun('npm run e2e', 3, 0, 10)],
      },
    };
    const d = digestOf(phaseFile(spans, work), [], [], NOW, noLedgers);
    expect(d.tests).toEqual([
      '`npm test` (vitest): 6 passed, 0 failed',
      '`npx vitest run b` (vitest): 1 passed, 1 failed; failing: b > three',
      '`npm run e2e` (vitest): 3 passed, 0 failed',
    ]);
    expect(d.failures).toEqual(['a > one (`npm test`, passes since)', 'a > two (`npm test`, passes since)', 'b > three (`npx vitest run b`)']);
  });

  it('tests: a green run whose runner prints no counts (go test without -v) says so, and marks earlier failures fixed', () => {
    const goRun = (failed: number, minutes: number, failures: string[] = []): TestRecord => ({
      ...testRun('go test ./...', 0, failed, minutes, failures),
      runner: 'go',
      ...(failed === 0 ? { uncounted: true as const } : {}),
    });
    const d = digestOf(phaseFile(spans, { '3': { ...emptyWork(), tests: [goRun(1, 8, ['TestRefill']), goRun(0, 9)] } }), [], [], NOW, noLedgers);
    expect(d.tests).toEqual([
      '`go test ./...` (go): 0 passed, 1 failed; failing: TestRefill',
      '`go test ./...` (go): passed (no per-test counts in the output)',
    ]);
    expect(d.failures).toEqual(['TestRefill (`go test ./...`, passes since)']);
  });

  it('ledgers: the last three in span order, through ledgerPath, unknown ones dropped', () => {
    const ledger = (file: string) => ({ file, at: NOW });
    const file = phaseFile(
      spans,
      {},
      {
        ledgers: {
          '10': ledger('phase-10-review.md'),
          '2': ledger('phase-2-planning.md'),
          '3': ledger('phase-3-x.md'),
          '4': ledger('phase-4-y.md'),
          '9': ledger('gone'),
        },
      },
    );
    const d = digestOf(file, [], [], NOW, (n) => (n === 9 ? undefined : `L/${file.ledgers[String(n)]?.file}`));
    expect(d.ledgers).toEqual(['L/phase-3-x.md', 'L/phase-4-y.md', 'L/phase-10-review.md']);
  });

  it('keeps at most 12 items per list, the newest', () => {
    const facts = Array.from({ length: 30 }, (_, i) => fact('constraint', `Never touch module number ${['a', 'b', 'c', 'd', 'e', 'f'][i % 6]}${i}.`, 3));
    const d = digestOf(phaseFile(spans), facts, [], NOW, noLedgers);
    expect(d.constraints).toHaveLength(12);
    expect(d.constraints.at(-1)?.text).toBe('Never touch module number f29.');
  });

  it('itemLine: [id] text Why: reason (ref `…`), on one line; refs can be left out', () => {
    const item: DigestItem = { id: 'D-12345678', text: 'Use zod\n  for validation.', reason: 'typed', ref: 'c-1' };
    expect(itemLine(item)).toBe('[D-12345678] Use zod for validation. Why: typed (ref `c-1`)');
    expect(itemLine(item, false)).toBe('[D-12345678] Use zod for validation. Why: typed');
    expect(itemLine({ text: 'plain' })).toBe('plain');
  });
});

// ---------------------------------------------------------------------------------------------
// Priorities.

describe('priorities', () => {
  const firsts = (phase: string) => prioritized(fullDigest(phase, 2, 40), { refs: true }).map((s) => s.name);

  it.each([
    ['planning', ['requirements', 'constraints']],
    ['design', ['decisions']],
    ['implementation', ['files', 'tests']],
    ['testing', ['failures']],
    ['review', ['open']],
  ] as const)('%s keeps %j first', (phase, first) => {
    expect(firsts(phase).slice(0, first.length)).toEqual([...first]);
    expect(sectionOrder(phase).slice(0, first.length)).toEqual([...first]);
  });

  it('every phase orders all nine sections once; an unknown phase gets the default order', () => {
    for (const phase of ['planning', 'design', 'implementation', 'testing', 'review', 'unknown', 'something-else']) {
      expect([...sectionOrder(phase)].sort()).toEqual(['constraints', 'decisions', 'failures', 'files', 'next', 'open', 'requirements', 'tests', 'values']);
    }
    expect(sectionOrder('something-else')).toEqual(sectionOrder('unknown'));
  });

  it('review calls its open items "Findings and open items"; other phases "Open items"', () => {
    const title = (phase: string) => prioritized(fullDigest(phase, 1, 20), { refs: false }).find((s) => s.name === 'open')?.title;
    expect(title('review')).toBe('Findings and open items');
    expect(prioritized(fullDigest('review', 1, 20), { refs: false })[0]?.title).toBe('Findings and open items');
    expect(title('implementation')).toBe('Open items');
  });

  it('drops empty sections and renders items with or without refs', () => {
    const d = digest({ phase: 'design', decisions: [{ id: 'D-1', text: 'Use zod.', ref: 'c-1' }], files: ['src/a.ts'] });
    expect(prioritized(d, { refs: true })).toEqual([
      { name: 'decisions', title: 'Decisions', lines: ['[D-1] Use zod. (ref `c-1`)'] },
      { name: 'files', title: 'Files being changed', lines: ['`src/a.ts`'] },
    ]);
    expect(prioritized(d, { refs: false })[0]?.lines).toEqual(['[D-1] Use zod.']);
    expect(prioritized(digest(), { refs: true })).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// PreCompact steering.

describe('steeringText', () => {
  const longFacts = (): FactRecord[] => {
    const kinds: FactRecord['kind'][] = ['decision', 'constraint', 'requirement', 'open-item', 'next-step', 'value'];
    return Array.from({ length: 200 }, (_, i) =>
      fact(
        kinds[i % kinds.length] as FactRecord['kind'],
        `Fact number ${'abcdefghij'[i % 10]}${i} says ${'something rather long and detailed '.repeat(12)}`,
        3,
      ),
    );
  };
  const file = () =>
    phaseFile(
      [span(1, 'planning', 0, 5, 'prompt'), span(2, 'design', 5, 12, 'explicit'), span(3, 'implementation', 12)],
      { '3': { ...emptyWork(), files: ['src/a.ts'], tests: [testRun('npm test', 3, 1, 20, ['api > pages'])] } },
      { ledgers: { '2': { file: 'phase-2-design.md', l3: 'docs/ledgers/phase-2-design.md', at: NOW } } },
    );
  const build = (now = NOW) => digestOf(file(), longFacts(), [], now, (n) => (n === 2 ? 'docs/ledgers/phase-2-design.md' : undefined));
  const inPhase = (phase: Phase) => {
    const f = file();
    const last = f.tracker.spans.at(-1) as PhaseSpan;
    f.tracker.spans[f.tracker.spans.length - 1] = { ...last, phase };
    return digestOf(f, longFacts(), [], NOW, () => undefined);
  };

  it('is deterministic: the same digest gives the same text, whatever the clock', () => {
    const a = steeringText(build(), { recallCommand: '/recall' });
    expect(a).toBeDefined();
    expect(steeringText(build(), { recallCommand: '/recall' })).toBe(a);
    expect(steeringText(build(at(500)), { recallCommand: '/recall' })).toBe(a);
  });

  it('stays under STEERING_MAX_CHARS with 200 long facts, and under a smaller maxChars', () => {
    expect(STEERING_MAX_CHARS).toBe(3_000);
    const text = steeringText(build(), { recallCommand: '/recall' }) ?? '';
    expect(text.length).toBeGreaterThan(2_000);
    expect(text.length).toBeLessThanOrEqual(STEERING_MAX_CHARS);
    for (const maxChars of [800, 1_200, 2_000])
      expect((steeringText(build(), { recallCommand: '/recall', maxChars }) ?? '').length).toBeLessThanOrEqual(maxChars);
  });

  it('names the phase and the sequence, keeps ids, lists what may be summarised and where the ledgers are', () => {
    const text = steeringText(build(), { recallCommand: '/recall' }) ?? '';
    const lines = text.split('\n');
    expect(lines[0]).toBe('Context-lifecycle notes for this summary. The session is in the implementation phase (so far: planning → design → implementation).');
    expect(lines[1]).toContain('[D-…] decisions, [C-…] constraints');
    expect(text).toMatch(/^- \[D-[0-9a-f]{8}\] Fact number /m);
    // Implementation keeps its files and tests first.
    expect(lines[2]).toBe('Files being changed:');
    expect(lines[3]).toBe('- `src/a.ts`');
    expect(lines[4]).toBe('Latest test runs:');
    expect(lines.at(-1)).toBe(
      'May be summarised briefly: tool outputs, file contents that were read, and earlier discussion: their full text is archived and `/recall <words>` finds it; phase ledgers: `docs/ledgers/phase-2-design.md`.',
    );
    // Refs stay out of the steering (they would only lengthen the summary).
    expect(text).not.toContain('(ref `');
  });

  it('in the design phase, decisions and constraints come first, with their ids', () => {
    const lines = (steeringText(inPhase('design'), { recallCommand: '/recall' }) ?? '').split('\n');
    expect(lines[2]).toBe('Decisions:');
    // Every section gets two before any gets more: at least two decisions, then the constraints.
    const constraintsAt = lines.indexOf("The user's constraints:");
    expect(constraintsAt).toBeGreaterThanOrEqual(5);
    expect(lines.slice(3, constraintsAt).every((l) => /^- \[D-[0-9a-f]{8}\] Fact number /.test(l))).toBe(true);
    expect(lines[constraintsAt + 1]).toMatch(/^- \[C-[0-9a-f]{8}\] Fact number /);
  });

  // With many long facts the 3,000 characters could be spent on the phase's first sections; the
  // user's constraints, which the head promises by id, must still be there.
  it.each(['implementation', 'testing'] as const)('%s steering under pressure keeps at least one [C-…] constraint', (phase) => {
    const text = steeringText(inPhase(phase), { recallCommand: '/recall' }) ?? '';
    expect(text.length).toBeLessThanOrEqual(STEERING_MAX_CHARS);
    expect(text).toMatch(/^- \[D-[0-9a-f]{8}\] /m);
    expect(text).toMatch(/^- \[C-[0-9a-f]{8}\] /m);
  });

  it('holds no timestamps or durations', () => {
    const text = steeringText(build(), { recallCommand: '/recall' }) ?? '';
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toMatch(/\b\d{1,2}:\d{2}\b/);
    expect(text).not.toMatch(/\b\d+(?:s|m|h|d)\b/);
    expect(text).not.toContain('(now)');
  });

  it('clips items to 220 characters and takes at most 6 per section', () => {
    const text = steeringText(build(), { recallCommand: '/recall', maxChars: 100_000 }) ?? '';
    const items = text.split('\n').filter((l) => l.startsWith('- '));
    expect(Math.max(...items.map((l) => l.length))).toBe(222);
    const sections = text.split('\n').filter((l) => /^[A-Z][^:]*:$/.test(l));
    expect(sections.length).toBeGreaterThanOrEqual(7);
    for (const [i, title] of sections.entries()) {
      const start = text.split('\n').indexOf(title);
      const end = i + 1 < sections.length ? text.split('\n').indexOf(sections[i + 1] as string) : text.split('\n').length - 2;
      expect(end - start - 1, title).toBeLessThanOrEqual(6);
    }
  });

  it('nothing to keep and no ledgers: undefined; ledgers alone still give the note', () => {
    expect(steeringText(digest(), { recallCommand: '/recall' })).toBeUndefined();
    const text = steeringText(digest({ phase: 'design', ledgers: ['L/phase-1.md'] }), { recallCommand: '/context-lifecycle:recall' });
    expect(text).toBe(
      [
        'Context-lifecycle notes for this summary. The session is in the design phase.',
        'Keep the following word for word in the summary, with their ids ([D-…] decisions, [C-…] constraints), most important first:',
        '',
        'May be summarised briefly: tool outputs, file contents that were read, and earlier discussion: their full text is archived and `/context-lifecycle:recall <words>` finds it; phase ledgers: `L/phase-1.md`.',
      ].join('\n'),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// SessionStart(compact) brief.

describe('compactBrief', () => {
  /** Section title → its item lines, in the order they appear. */
  function sectionsOf(text: string): Map<string, string[]> {
    const out = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const line of text.split('\n')) {
      if (/^[A-Z][^:]{0,40}:$/.test(line)) {
        current = [];
        out.set(line.slice(0, -1), current);
      } else if (line.startsWith('- ') && current !== undefined) current.push(line);
      else if (line === '') current = undefined;
    }
    return out;
  }

  it.each([1_500, 4_000, 9_500])('stays under maxChars %i with huge inputs', (maxChars) => {
    for (const chars of [60, 150, 1_000]) {
      const text = compactBrief(fullDigest('implementation', 200, chars), { maxChars, recallCommand: '/recall' });
      expect(text).toBeDefined();
      expect((text ?? '').length).toBeLessThanOrEqual(maxChars);
    }
  });

  it('gives every non-empty section items before any section gets more than 4', () => {
    for (const phase of ['planning', 'design', 'implementation', 'testing', 'review']) {
      const d = fullDigest(phase, 30, 150);
      const text = compactBrief(d, { maxChars: 9_500, recallCommand: '/recall' }) ?? '';
      const sections = sectionsOf(text);
      const counts = prioritized(d, { refs: true }).map((s) => sections.get(s.title)?.length ?? 0);
      expect(Math.max(...counts), phase).toBeGreaterThan(4);
      for (const n of counts) expect(n, `${phase}: ${counts.join(',')}`).toBeGreaterThanOrEqual(4);
      // The extra room goes to the phase's first section.
      expect(counts[0], phase).toBe(Math.max(...counts));
    }
  });

  it('with little room, no section gets more than 4 and the first ones are served first', () => {
    const d = fullDigest('testing', 30, 150);
    const sections = sectionsOf(compactBrief(d, { maxChars: 1_500, recallCommand: '/recall' }) ?? '');
    const counts = prioritized(d, { refs: true }).map((s) => sections.get(s.title)?.length ?? 0);
    expect(Math.max(...counts)).toBeLessThanOrEqual(4);
    expect(counts[0]).toBeGreaterThan(0);
    expect([...sections.keys()][0]).toBe('Failing tests');
  });

  it('head, newest items in their order, refs, ledgers and the recall commands', () => {
    const d = digest({
      phase: 'design',
      since: '2026-11-29T10:05:00.000Z',
      trigger: 'prompt: "let\'s design"',
      timeline: 'planning 5m → design 25m (now)',
      goal: 'A cache for the client',
      decisions: Array.from({ length: 6 }, (_, i) => ({ id: `D-0000000${i}`, text: `Decision ${i}.`, ref: `c-${i}` })),
      constraints: [{ id: 'C-00000001', text: 'Never commit to main.', ref: 'c-9' }],
      ledgers: ['docs/ledgers/phase-1-planning.md'],
    });
    const text = compactBrief(d, { maxChars: 4_000, recallCommand: '/recall' });
    expect(text).toBe(
      [
        '## context-lifecycle: what the compaction summary may have lost',
        '',
        'Phase: **design** since 2026-11-29 10:05, prompt: "let\'s design". Timeline: planning 5m → design 25m (now).',
        'Goal: A cache for the client',
        '',
        'Decisions:',
        '- [D-00000000] Decision 0. (ref `c-0`)',
        '- [D-00000001] Decision 1. (ref `c-1`)',
        '- [D-00000002] Decision 2. (ref `c-2`)',
        '- [D-00000003] Decision 3. (ref `c-3`)',
        '- [D-00000004] Decision 4. (ref `c-4`)',
        '- [D-00000005] Decision 5. (ref `c-5`)',
        '',
        "The user's constraints:",
        '- [C-00000001] Never commit to main. (ref `c-9`)',
        '',
        'Phase ledgers: `docs/ledgers/phase-1-planning.md`. Everything else said or seen is archived: `/recall <words>` finds it, `/recall show <ref>` prints a ref in full.',
      ].join('\n'),
    );
  });

  it('when only some fit, keeps the newest of a section', () => {
    const d = digest({
      phase: 'design',
      decisions: Array.from({ length: 50 }, (_, i) => ({ id: `D-${String(i).padStart(8, '0')}`, text: `Decision ${i} ${'x'.repeat(80)}` })),
    });
    const items = sectionsOf(compactBrief(d, { maxChars: 1_500, recallCommand: '/recall' }) ?? '').get('Decisions') ?? [];
    expect(items.length).toBeGreaterThan(4);
    expect(items.at(-1)).toContain('[D-00000049]');
    expect(items[0]).toContain(`[D-${String(50 - items.length).padStart(8, '0')}]`);
  });

  it('every kept item carries its ref', () => {
    const text = compactBrief(fullDigest('design', 20, 80), { maxChars: 9_500, recallCommand: '/recall' }) ?? '';
    const sections = sectionsOf(text);
    for (const title of ['Decisions', "The user's constraints", 'Requirements', 'Open items', 'Next steps', 'Exact values set']) {
      const items = sections.get(title) ?? [];
      expect(items.length, title).toBeGreaterThan(0);
      for (const item of items) expect(item, title).toMatch(/\(ref `c-[a-z]+-\d+`\)$/);
    }
  });

  it('nothing to say: undefined; a maxChars too small for the frame: undefined', () => {
    expect(compactBrief(digest(), { maxChars: 4_000, recallCommand: '/recall' })).toBeUndefined();
    expect(compactBrief(fullDigest('design', 3, 50), { maxChars: 200, recallCommand: '/recall' })).toBeUndefined();
    // A timeline alone is enough for a head.
    expect(compactBrief(digest({ timeline: 'design 5m (now)' }), { maxChars: 4_000, recallCommand: '/recall' })).toContain('Timeline: design 5m (now).');
  });
});

// ---------------------------------------------------------------------------------------------
// Stop's advice.

describe('adviceFor and compactFocus', () => {
  const budget = (contextTokens: number) =>
    computeBudget({
      window: 200_000,
      contextTokens,
      systemTokens: 20_000,
      ledgerTokens: 0,
      zones: { system: 10, ledger: 10, working: 65, buffer: 15 },
      thresholds: [60, 75, 90],
      autoCompactAt: 167_000,
    });
  const WHERE = (use: number, tokens: string) => `working zone ${use}% full (${tokens} of 200,000 tokens; Claude Code compacts at 167,000)`;
  const design = digest({
    phase: 'design',
    decisions: Array.from({ length: 6 }, (_, i) => ({ id: `D-0000000${i}`, text: `d${i}` })),
  });

  it('L0→L1: a systemMessage for the user only, with the /compact focus', () => {
    const advice = adviceFor(1, budget(97_000), design, { showCommand: '/recall show' });
    expect(advice).toEqual({
      systemMessage: `context-lifecycle L0→L1: ${WHERE(61, '97,000')}; large tool outputs now enter the context as stubs (full text in the archive). To compact on your terms: /compact keep decisions D-00000002, D-00000003, D-00000004, D-00000005, the interfaces agreed and the constraints`,
    });
    expect(Object.keys(advice)).toEqual(['systemMessage']);
  });

  it('L1→L2: the /compact focus for the user, and a note for Claude', () => {
    const advice = adviceFor(2, budget(117_000), design, { showCommand: '/recall show' });
    expect(advice.systemMessage).toBe(
      `context-lifecycle L1→L2: ${WHERE(76, '117,000')}; large tool outputs now enter the context as stubs (full text in the archive). To compact on your terms: /compact keep decisions D-00000002, D-00000003, D-00000004, D-00000005, the interfaces agreed and the constraints`,
    );
    expect(advice.additionalContext?.split('\n')).toEqual([
      `Context note (context-lifecycle, L1→L2): the ${WHERE(76, '117,000')}.`,
      'Large tool outputs reach you as stubs; `/recall show <ref>` brings any of them back. Prefer targeted reads (offset/limit, grep) over whole files.',
      'State decisions, constraints and exact values plainly in your replies: they are archived and re-injected after a compaction.',
    ]);
  });

  it('L2→L3: mentions the ledger written and the decisions promoted, and asks Claude for a handoff', () => {
    const advice = adviceFor(3, budget(137_000), design, { showCommand: '/recall show', ledger: 'docs/ledgers/phase-2-design.md' });
    expect(advice.systemMessage).toContain(
      '; large tool outputs now enter the context as stubs (full text in the archive); the phase ledger is written (docs/ledgers/phase-2-design.md) and its decisions promoted to project memory.',
    );
    expect(advice.systemMessage.startsWith(`context-lifecycle L2→L3: ${WHERE(92, '137,000')}`)).toBe(true);
    expect(advice.systemMessage).toContain('To compact on your terms: /compact keep decisions');
    const lines = advice.additionalContext?.split('\n') ?? [];
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('A compaction is near: finish the current step, then end your reply with a short handoff: done, next, open questions.');
    // Without a ledger, it says only what happened.
    expect(adviceFor(3, budget(137_000), design, { showCommand: '/recall show' }).systemMessage).not.toContain('ledger');
  });

  it('additionalContext only from L1→L2 on; systemMessage always', () => {
    for (const crossed of [1, 2, 3] as const) {
      const advice = adviceFor(crossed, budget(150_000), undefined, { showCommand: '/recall show' });
      expect(advice.systemMessage.length).toBeGreaterThan(0);
      expect(advice.additionalContext === undefined).toBe(crossed < 2);
    }
  });

  it('compactFocus: what each phase keeps', () => {
    expect(compactFocus(undefined)).toBe('keep the decisions, constraints and open items');
    expect(compactFocus(digest({ phase: 'planning' }))).toBe("keep the requirements, the user's constraints and the decisions");
    expect(compactFocus(digest({ phase: 'design', decisions: [{ text: 'no id' }, { id: 'D-1', text: 'x' }] }))).toBe(
      'keep decisions D-1, the interfaces agreed and the constraints',
    );
    expect(compactFocus(digest({ phase: 'implementation', files: ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'] }))).toBe(
      'keep the state of a.ts, b.ts, c.ts, d.ts, the last test results and the decisions',
    );
    expect(compactFocus(digest({ phase: 'implementation' }))).toBe('keep the state of the files being changed, the last test results and the decisions');
    expect(
      compactFocus(digest({ phase: 'testing', failures: ['a > one (`npm test`)', 'b > two (`npm test`, passes since)', 'c > three (`x`)', 'd > four (`x`)'] })),
    ).toBe('keep the failing tests (b > two, c > three, d > four), what was tried and the decisions');
    expect(compactFocus(digest({ phase: 'testing' }))).toBe('keep the failing tests, what was tried and the decisions');
    expect(compactFocus(digest({ phase: 'review' }))).toBe('keep the review findings, open items and the decisions');
    expect(compactFocus(digest({ phase: 'unknown' }))).toBe('keep the decisions, the constraints and the open items');
  });
});

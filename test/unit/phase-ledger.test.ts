// The pure parts of ledgers: rendering and reading back, durations, which decisions supersede which.
import { describe, expect, it } from 'vitest';
import { factKey } from '../../lib/phase/facts.ts';
import { buildLedger, decisionId, duration, type LedgerInput, parseLedgerMeta, renderLedger, superseded } from '../../lib/phase/ledger.ts';
import type { DecisionRecord, FactRecord } from '../../lib/phase/phase-store.ts';
import { emptyWork } from '../../lib/phase/span-work.ts';

const decision = (id: string, text: string, chosen?: string, rejected?: string[]): DecisionRecord => ({
  v: 1,
  id,
  t: '2026-11-01T10:00:00.000Z',
  session: 's',
  phase: 'design',
  text,
  ref: 'r',
  ...(chosen === undefined ? {} : { chosen }),
  ...(rejected === undefined ? {} : { rejected }),
});

describe('superseded', () => {
  it('a decision that rejects an earlier choice by name supersedes it; a longer name does not match a shorter one', () => {
    const rtl = decision('D-1', "I'll use React Testing Library instead of Enzyme", 'React Testing Library', ['Enzyme']);
    const pg = decision('D-2', "We'll go with Postgres", 'Postgres');
    const preact = decision('D-3', "We'll go with Preact instead of React", 'Preact', ['React']);
    const sqlite = decision('D-4', 'Switched from Postgres to SQLite', 'SQLite', ['the Postgres']);
    expect(superseded(preact, [rtl, pg], factKey)).toEqual([]);
    expect(superseded(sqlite, [rtl, pg, preact], factKey)).toEqual(['D-2']);
    expect(superseded(decision('D-5', 'no rejection', 'x'), [pg], factKey)).toEqual([]);
  });

  it('ids are stable for the same text and differ for different decisions', () => {
    expect(decisionId(factKey('Use zod for validation.'))).toBe(decisionId(factKey('use zod for validation')));
    expect(decisionId(factKey('Use zod for validation.'))).not.toBe(decisionId(factKey('Use valibot for validation.')));
    expect(decisionId('x')).toMatch(/^D-[0-9a-f]{8}$/);
  });
});

describe('buildLedger and renderLedger', () => {
  const fact = (kind: FactRecord['kind'], text: string, n: number, extra: Partial<FactRecord> = {}): FactRecord => ({
    v: 1,
    kind,
    text,
    n,
    phase: 'design',
    ref: `ref-${n}`,
    t: '2026-11-01T10:00:00.000Z',
    key: factKey(text),
    ...extra,
  });
  const input = (over: Partial<LedgerInput> = {}): LedgerInput => ({
    session: 'sess',
    project: '/p',
    span: {
      n: 2,
      phase: 'design',
      start: '2026-11-01T10:00:00.000Z',
      end: '2026-11-01T11:05:00.000Z',
      by: 'prompt',
      trigger: 'prompt: "let\'s design"',
      signals: {},
      events: 3,
    },
    work: { ...emptyWork(), files: ['docs/design.md'], reads: 4 },
    goal: 'A cache for the client',
    facts: [
      fact('decision', "I'll use an LRU map because memory is bounded.", 2, { reason: 'memory is bounded' }),
      fact('decision', 'Decision: retries stay at 3.', 1),
      fact('constraint', 'Never commit to main.', 1),
      fact('next-step', 'Next: implement the map.', 2),
    ],
    todos: [
      { content: 'Design', status: 'completed' },
      { content: 'Implement', status: 'pending' },
    ],
    decisionIds: new Map(),
    now: '2026-11-01T11:06:00.000Z',
    open: false,
    ...over,
  });

  it('holds the span decisions, every constraint, files, tasks, open items and next steps', () => {
    const { meta, body } = buildLedger(input());
    expect(meta).toMatchObject({ version: 1, kind: 'phase-ledger', n: 2, phase: 'design', status: 'closed', end: '2026-11-01T11:05:00.000Z' });
    expect(meta.decisions).toHaveLength(1);
    expect(body).toContain('(1h 5m)');
    expect(body).toContain('LRU map');
    expect(body).not.toContain('retries stay at 3'); // another span's decision
    expect(body).toContain('Never commit to main.');
    expect(body).toContain('`docs/design.md`');
    expect(body).toContain('\n\n4 file reads besides.');
    expect(body).toContain('[x] Design');
    expect(body).toContain('Implement (task list)');
    expect(body).toContain('Next: implement the map.');
  });

  it('an open span says so and has no end; the file reads back', () => {
    const ledger = buildLedger(input({ open: true }));
    expect(ledger.meta.status).toBe('open');
    expect(ledger.meta.end).toBeUndefined();
    expect(ledger.body).toContain('(in progress)');
    const text = renderLedger(ledger);
    expect(parseLedgerMeta(text)).toMatchObject({ n: 2, phase: 'design', status: 'open' });
    // Hand edits: an unquoted value and an extra key still read; a missing version does not.
    expect(parseLedgerMeta(text.replace('status: "open"', 'status: open\nnote: mine'))).toMatchObject({ status: 'open' });
    expect(parseLedgerMeta(text.replace('version: 1\n', ''))).toBeUndefined();
    expect(parseLedgerMeta('no frontmatter')).toBeUndefined();
  });
});

describe('duration', () => {
  it('reads as a person would say it', () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    expect(duration(at(0), at(40_000))).toBe('40s');
    expect(duration(at(0), at(25 * 60_000))).toBe('25m');
    expect(duration(at(0), at(68 * 60_000))).toBe('1h 8m');
    expect(duration(at(0), at(50 * 3_600_000))).toBe('2d 2h');
    expect(duration(at(10), at(0))).toBe('?');
  });
});

// lib/context/budget.ts and lib/context/window.ts: the four zones (the buffer at least what Claude Code
// keeps free, System and Ledger overflows taken out of Working), levels at their exact thresholds,
// one announcement per crossing with hysteresis, the bar, lines and JSON; the window of a model and
// where Claude Code compacts by itself (reference §6 "Threshold computation").
import { describe, expect, it } from 'vitest';
import {
  type AdviceState,
  adviseCrossing,
  type Budget,
  type BudgetInput,
  budgetJson,
  computeBudget,
  LEVEL_NAMES,
  type Level,
  levelFor,
  zoneBar,
  zoneLines,
} from '../../lib/context/budget.ts';
import { autoCompactAt, CLIENT_DEFAULT_MODEL, contextWindow, DEFAULT_WINDOW, modelWindow, ONE_MILLION, windowNotes } from '../../lib/context/window.ts';

const THRESHOLDS = [60, 75, 90] as const;

/** The defaults: a 200K window, zones 10/10/65/15, Claude Code compacting at 167,000. */
const input = (over: Partial<BudgetInput> = {}): BudgetInput => ({
  window: 200_000,
  contextTokens: 50_000,
  systemTokens: 20_000,
  ledgerTokens: 0,
  zones: { system: 10, ledger: 10, working: 65, buffer: 15 },
  thresholds: THRESHOLDS,
  autoCompactAt: 167_000,
  ...over,
});

/** A round layout: Working is exactly 100,000 tokens (zones 10/10/50/30 of 200K, buffer 60,000). */
const round = (contextTokens: number | undefined, over: Partial<BudgetInput> = {}) =>
  computeBudget(input({ contextTokens, zones: { system: 10, ledger: 10, working: 50, buffer: 30 }, ...over }));

describe('computeBudget: zones', () => {
  it('splits a 200K window: the buffer grows to window − autoCompactAt and Working gives way', () => {
    const b = computeBudget(input());
    expect(b.window).toBe(200_000);
    expect(b.contextTokens).toBe(50_000);
    expect(b.measured).toBe(true);
    expect(b.autoCompactAt).toBe(167_000);
    expect(b.zones).toEqual({
      system: { tokens: 20_000, size: 20_000 },
      ledger: { tokens: 0, size: 20_000 },
      // 65% would be 130,000, but the buffer is 33,000 (not 30,000): 200,000 − 33,000 − 40,000.
      working: { tokens: 30_000, size: 127_000 },
      buffer: { tokens: 0, size: 33_000 },
    });
    expect(b.workingUse).toBeCloseTo(30_000 / 127_000, 12);
    expect(b.level).toBe(0);
  });

  it('keeps the configured buffer when it is larger than what Claude Code keeps free (1M window)', () => {
    const b = computeBudget(input({ window: 1_000_000, contextTokens: 400_000, systemTokens: 100_000, autoCompactAt: 967_000 }));
    expect(b.zones.buffer.size).toBe(150_000);
    expect(b.zones.working).toEqual({ tokens: 300_000, size: 650_000 });
    expect(b.zones.system.size + b.zones.ledger.size + b.zones.working.size + b.zones.buffer.size).toBe(1_000_000);
  });

  it('the buffer is never below window − autoCompactAt, whatever the zones say', () => {
    const b = computeBudget(input({ zones: { system: 10, ledger: 10, working: 79, buffer: 1 }, autoCompactAt: 150_000 }));
    expect(b.zones.buffer.size).toBe(50_000);
    expect(b.zones.working.size).toBe(110_000);
    // The Working zone ends where the buffer starts, at or before the point Claude Code compacts.
    expect(b.zones.system.size + b.zones.ledger.size + b.zones.working.size).toBeLessThanOrEqual(b.autoCompactAt);
  });

  it('a System zone larger than its share takes the excess out of Working, never out of the buffer', () => {
    const b = computeBudget(input({ contextTokens: 90_000, systemTokens: 50_000 }));
    expect(b.zones.system).toEqual({ tokens: 50_000, size: 50_000 });
    expect(b.zones.buffer.size).toBe(33_000);
    expect(b.zones.working).toEqual({ tokens: 40_000, size: 97_000 });
  });

  it('a Ledger larger than its share takes the excess out of Working, never out of the buffer', () => {
    const b = computeBudget(input({ contextTokens: 100_000, systemTokens: 20_000, ledgerTokens: 35_000 }));
    expect(b.zones.ledger).toEqual({ tokens: 35_000, size: 35_000 });
    expect(b.zones.buffer.size).toBe(33_000);
    expect(b.zones.working).toEqual({ tokens: 45_000, size: 112_000 });
  });

  it('System and Ledger never hold more than the context (after a compaction the first usage may exceed it)', () => {
    const b = computeBudget(input({ contextTokens: 12_000, systemTokens: 15_000, ledgerTokens: 8_000 }));
    expect(b.zones.system).toEqual({ tokens: 12_000, size: 20_000 });
    expect(b.zones.ledger).toEqual({ tokens: 0, size: 20_000 });
    expect(b.zones.working.tokens).toBe(0);
    expect(b.workingUse).toBe(0);
  });

  it('without a measured System zone, assumes its share (or the whole context while smaller)', () => {
    expect(computeBudget(input({ contextTokens: 5_000, systemTokens: undefined })).zones.system).toEqual({ tokens: 5_000, size: 20_000 });
    const b = computeBudget(input({ contextTokens: 60_000, systemTokens: undefined, ledgerTokens: 4_000 }));
    expect(b.zones.system).toEqual({ tokens: 20_000, size: 20_000 });
    expect(b.zones.ledger).toEqual({ tokens: 4_000, size: 20_000 });
    expect(b.zones.working.tokens).toBe(36_000);
  });

  it('nothing measured: zero tokens, level 0, measured false (an explicit 0 is not a measure either)', () => {
    for (const contextTokens of [undefined, 0]) {
      const b = computeBudget(input({ contextTokens, systemTokens: undefined }));
      expect(b.measured).toBe(false);
      expect(b.contextTokens).toBe(0);
      expect(b.level).toBe(0);
      expect(b.workingUse).toBe(0);
      expect(Object.values(b.zones).map((z) => z.tokens)).toEqual([0, 0, 0, 0]);
    }
  });

  it('counts what reaches into the buffer, and lets workingUse pass 1 just before a compaction', () => {
    const b = computeBudget(input({ contextTokens: 180_000 }));
    expect(b.zones.buffer).toEqual({ tokens: 13_000, size: 33_000 });
    expect(b.zones.working.tokens).toBe(160_000);
    expect(b.workingUse).toBeCloseTo(160_000 / 127_000, 12);
    expect(b.level).toBe(3);
  });

  it('clamps nonsense input: a window of 0 becomes 1, negative tokens become 0', () => {
    const b = computeBudget(input({ window: 0, contextTokens: -5, systemTokens: undefined, ledgerTokens: -3, autoCompactAt: 0 }));
    expect(b.window).toBe(1);
    expect(b.contextTokens).toBe(0);
    expect(b.measured).toBe(false);
    expect(b.zones.working.size).toBe(1);
    expect(b.zones.ledger.tokens).toBe(0);
  });
});

describe('computeBudget: a configured window smaller than the one Claude Code compacts by', () => {
  it("keeps the Buffer at its share: Claude Code's headroom is measured from its own, larger window", () => {
    const b = computeBudget(input({ window: 50_000, contextTokens: 14_000, systemTokens: 8_000, ledgerTokens: 1_000, autoCompactAt: 167_000 }));
    expect(b.zones.buffer.size).toBe(7_500);
    expect(b.zones.working.size).toBe(29_500); // 50K − 7.5K buffer − 8K System (over its 5K) − 5K Ledger
    expect(b.level).toBe(0);
  });
});

describe('computeBudget: a first request larger than any system prompt', () => {
  it('counts at most 35% of the window as System (a forked session starts with its history)', () => {
    const b = computeBudget(input({ contextTokens: 150_000, systemTokens: 121_000 }));
    expect(b.zones.system.tokens).toBe(70_000);
    expect(b.zones.working.tokens).toBe(80_000);
  });
});

describe('computeBudget and levelFor: levels at their exact thresholds', () => {
  it.each([
    [79_999, 0],
    [80_000, 1],
    [94_999, 1],
    [95_000, 2],
    [109_999, 2],
    [110_000, 3],
    [200_000, 3],
  ] as const)('context %i (20,000 of it System, Working 100,000) is level %i', (context, level) => {
    const b = round(context);
    expect(b.zones.working.size).toBe(100_000);
    expect(b.level).toBe(level);
  });

  it('levelFor: each threshold starts its level', () => {
    expect([0, 59.999, 60, 74.999, 75, 89.999, 90, 150].map((p) => levelFor(p, THRESHOLDS))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(levelFor(10, [10, 20, 30])).toBe(1);
  });

  it('follows configured thresholds', () => {
    expect(round(70_000, { thresholds: [50, 70, 95] }).level).toBe(1);
    expect(round(90_000, { thresholds: [50, 70, 95] }).level).toBe(2);
    expect(round(114_999, { thresholds: [50, 70, 95] }).level).toBe(2);
    expect(round(115_000, { thresholds: [50, 70, 95] }).level).toBe(3);
  });

  // Float noise: 0.29 * 100 is 28.999999999999996 (0.57 and 0.58 likewise); a Working zone exactly at
  // a configured 29/57/58 threshold (CTXL_LEVELS takes any whole percentages) must still reach it.
  it('a Working zone exactly at a configured threshold of 29, 57 or 58 reaches that level', () => {
    expect(round(20_000 + 29_000, { thresholds: [29, 57, 58] }).level).toBe(1);
    expect(round(20_000 + 57_000, { thresholds: [29, 57, 58] }).level).toBe(2);
    expect(round(20_000 + 58_000, { thresholds: [29, 57, 58] }).level).toBe(3);
  });
});

describe('adviseCrossing', () => {
  const at = (usePercent: number): Pick<Budget, 'level' | 'workingUse'> => ({ workingUse: usePercent / 100, level: levelFor(usePercent, THRESHOLDS) });
  /** Feeds a sequence of Working-zone uses; returns what each step announced. */
  const run = (uses: number[], start: Level = 0) => {
    let state: AdviceState = { announced: start };
    const crossed: Array<Level | undefined> = [];
    for (const use of uses) {
      const r = adviseCrossing(state, at(use), THRESHOLDS, 5);
      state = r.state;
      crossed.push(r.crossed);
    }
    return { crossed, state };
  };

  it('announces each crossing once, as the level reached', () => {
    expect(run([10, 59, 60, 61, 70, 75, 80, 89, 90, 95])).toEqual({
      crossed: [undefined, undefined, 1, undefined, undefined, 2, undefined, undefined, 3, undefined],
      state: { announced: 3 },
    });
  });

  it('announces a jump from 0 to L1→L2 once, as 2 (not 1 then 2)', () => {
    expect(run([30, 80, 82])).toEqual({ crossed: [undefined, 2, undefined], state: { announced: 2 } });
    expect(run([5, 97])).toEqual({ crossed: [undefined, 3], state: { announced: 3 } });
  });

  it('a session hovering around 75% hears about it once', () => {
    const { crossed, state } = run([76, 74, 75.5, 72, 76, 70.5, 79, 74.9, 75]);
    expect(crossed).toEqual([2, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(state).toEqual({ announced: 2 });
  });

  it('re-arms once the use falls more than 5 points under the announced threshold', () => {
    expect(run([76, 69.9, 76])).toEqual({ crossed: [2, undefined, 2], state: { announced: 2 } });
    // Below 70 the announcement drops to L1 (60 − 5 = 55 is still far): nothing is said on the way down.
    expect(adviseCrossing({ announced: 2 }, at(65), THRESHOLDS, 5)).toEqual({ state: { announced: 1 }, crossed: undefined });
    // From 3 to the middle of L2: only the L3 announcement re-arms.
    expect(adviseCrossing({ announced: 3 }, at(80), THRESHOLDS, 5)).toEqual({ state: { announced: 2 }, crossed: undefined });
    expect(run([80, 91], 3).crossed).toEqual([undefined, 3]);
  });

  it('a compaction that empties the window re-arms every level', () => {
    expect(adviseCrossing({ announced: 3 }, at(2), THRESHOLDS, 5)).toEqual({ state: { announced: 0 }, crossed: undefined });
    expect(run([2, 61], 3).crossed).toEqual([undefined, 1]);
  });

  it('a use that falls but stays within 5 points keeps the announcement', () => {
    expect(adviseCrossing({ announced: 1 }, at(56), THRESHOLDS, 5)).toEqual({ state: { announced: 1 }, crossed: undefined });
    expect(adviseCrossing({ announced: 3 }, at(86), THRESHOLDS, 5)).toEqual({ state: { announced: 3 }, crossed: undefined });
  });

  it('hysteresis 0 re-arms as soon as the use is under the threshold', () => {
    expect(adviseCrossing({ announced: 2 }, at(74.9), THRESHOLDS, 0)).toEqual({ state: { announced: 1 }, crossed: undefined });
  });

  // "falls `hysteresis` points (or more) below the threshold": exactly 5 under (75% for 80%) re-arms.
  it('re-arms when the use is exactly `hysteresis` points under the threshold', () => {
    const thresholds = [60, 80, 90] as const;
    const exact = { workingUse: 0.75, level: levelFor(75, thresholds) };
    expect(adviseCrossing({ announced: 2 }, exact, thresholds, 5).state).toEqual({ announced: 1 });
  });
});

describe('zoneBar, zoneLines, budgetJson', () => {
  // System full (20,000), Ledger 10,000 of 20,000, Working 50,000 of 100,000, Buffer 60,000 empty.
  const half = () => round(80_000, { ledgerTokens: 10_000 });

  it('draws the four zones in 40 cells of 5,000 tokens', () => {
    const b = half();
    expect(b.zones).toEqual({
      system: { tokens: 20_000, size: 20_000 },
      ledger: { tokens: 10_000, size: 20_000 },
      working: { tokens: 50_000, size: 100_000 },
      buffer: { tokens: 0, size: 60_000 },
    });
    const bar = zoneBar(b);
    expect(bar).toBe(`[${'█'.repeat(4)}${'▓'.repeat(2)}${'░'.repeat(2)}${'█'.repeat(10)}${'·'.repeat(10)}${' '.repeat(12)}]`);
    expect(bar.length).toBe(42);
  });

  it('draws an overfull context with the buffer cells marked, width as asked', () => {
    const b = round(150_000);
    // Working 130,000 of 100,000 (capped in the bar), 10,000 into the 60,000 buffer.
    expect(b.zones.buffer.tokens).toBe(10_000);
    expect(zoneBar(b, 20)).toBe(`[${'█'.repeat(2)}${'░'.repeat(2)}${'█'.repeat(10)}!${' '.repeat(5)}]`);
    const empty = zoneBar(round(undefined, { systemTokens: undefined }));
    expect(empty).toBe(`[${'░'.repeat(8)}${'·'.repeat(20)}${' '.repeat(12)}]`);
  });

  it('zoneLines: name, tokens of size, share, level name and where Claude Code compacts', () => {
    expect(zoneLines(half())).toEqual([
      'System   20,000 of 20,000 tokens (100%)',
      'Ledger   10,000 of 20,000 tokens (50%)',
      'Working  50,000 of 100,000 tokens (50%) · level none',
      'Buffer   60,000 tokens kept free; Claude Code compacts at 167,000',
    ]);
    expect(zoneLines(round(100_000))[2]).toBe('Working  80,000 of 100,000 tokens (80%) · level L1→L2');
  });

  it('budgetJson: exactly the reported keys, workingUse rounded to 3 decimals', () => {
    const b = computeBudget(input({ contextTokens: 97_000 }));
    const json = budgetJson(b);
    expect(Object.keys(json).sort()).toEqual(['autoCompactAt', 'contextTokens', 'level', 'levelName', 'measured', 'window', 'workingUse', 'zones']);
    expect(json).toEqual({
      window: 200_000,
      contextTokens: 97_000,
      measured: true,
      autoCompactAt: 167_000,
      workingUse: 0.606,
      level: 1,
      levelName: 'L0→L1',
      zones: b.zones,
    });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('LEVEL_NAMES names the step each level starts', () => {
    expect(LEVEL_NAMES).toEqual(['none', 'L0→L1', 'L1→L2', 'L2→L3']);
  });
});

describe('autoCompactAt (reference §6, 2.1.332)', () => {
  it('window − min(max output, 20K) − 13K: 200K → 167,000; 1M → 967,000; a 100K window → 67,000', () => {
    expect(autoCompactAt(200_000, {})).toBe(167_000);
    expect(autoCompactAt(1_000_000, {})).toBe(967_000);
    expect(autoCompactAt(100_000, {})).toBe(67_000);
  });

  it('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE can only lower the threshold', () => {
    // effective window 180,000: 50% → 90,000; 95% → 171,000 is above 167,000, so 167,000 stays.
    expect(autoCompactAt(200_000, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' })).toBe(90_000);
    expect(autoCompactAt(200_000, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '95' })).toBe(167_000);
    expect(autoCompactAt(200_000, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '100' })).toBe(167_000);
    expect(autoCompactAt(200_000, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '1' })).toBe(1_800);
    expect(autoCompactAt(1_000_000, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '70' })).toBe(686_000);
    expect(autoCompactAt(100_000, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '25' })).toBe(20_000);
  });

  it.each(['0', '101', '-5', 'abc', '', ' '])('ignores a CLAUDE_AUTOCOMPACT_PCT_OVERRIDE of %j', (value) => {
    expect(autoCompactAt(200_000, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: value })).toBe(167_000);
  });

  it('CLAUDE_CODE_MAX_OUTPUT_TOKENS below 20K frees more of the window; above 20K it is capped', () => {
    expect(autoCompactAt(200_000, { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '8000' })).toBe(179_000);
    expect(autoCompactAt(200_000, { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '20000' })).toBe(167_000);
    expect(autoCompactAt(200_000, { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '64000' })).toBe(167_000);
    // with the percentage override, of the larger effective window: floor(192,000 × 0.5)
    expect(autoCompactAt(200_000, { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '8000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' })).toBe(96_000);
  });

  it.each(['0', '-100', '1.5', 'lots', ''])('ignores a CLAUDE_CODE_MAX_OUTPUT_TOKENS of %j', (value) => {
    expect(autoCompactAt(200_000, { CLAUDE_CODE_MAX_OUTPUT_TOKENS: value })).toBe(167_000);
  });

  it('with auto-compaction off, the hard limit: effective window − 3,000', () => {
    expect(autoCompactAt(200_000, { DISABLE_AUTO_COMPACT: '1' })).toBe(177_000);
    expect(autoCompactAt(200_000, { DISABLE_COMPACT: '1' })).toBe(177_000);
    expect(autoCompactAt(1_000_000, { DISABLE_AUTO_COMPACT: '1', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' })).toBe(977_000);
    expect(autoCompactAt(200_000, { DISABLE_AUTO_COMPACT: '1', CLAUDE_CODE_MAX_OUTPUT_TOKENS: '10000' })).toBe(187_000);
    expect(autoCompactAt(200_000, { DISABLE_AUTO_COMPACT: '0' })).toBe(167_000);
  });
});

describe('modelWindow and contextWindow', () => {
  it('knows the 1M models, the [1m] suffix and the client default; everything else is 200K', () => {
    expect(DEFAULT_WINDOW).toBe(200_000);
    expect(ONE_MILLION).toBe(1_000_000);
    expect(modelWindow(undefined, {})).toBe(modelWindow(CLIENT_DEFAULT_MODEL, {}));
    expect(modelWindow(undefined, {})).toBe(1_000_000);
    expect(modelWindow('claude-opus-5-5', {})).toBe(1_000_000);
    expect(modelWindow('  Claude-Opus-5  ', {})).toBe(1_000_000);
    expect(modelWindow('opus', {})).toBe(1_000_000);
    expect(modelWindow('claude-sonnet-4-5[1m]', {})).toBe(1_000_000);
    expect(modelWindow('claude-sonnet-4-5-20250929', {})).toBe(200_000);
    expect(modelWindow('claude-opus-4-5-20251101', {})).toBe(200_000);
    expect(modelWindow('claude-opus-50', {})).toBe(200_000);
    expect(modelWindow('gpt-9-turbo', {})).toBe(200_000);
    expect(modelWindow('', {})).toBe(200_000);
  });

  it('CLAUDE_CODE_DISABLE_1M_CONTEXT=1 makes every model 200K; CLAUDE_CODE_MAX_CONTEXT_TOKENS sets it', () => {
    expect(modelWindow('claude-opus-5-5', { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' })).toBe(200_000);
    expect(modelWindow('claude-sonnet-4-5[1m]', { CLAUDE_CODE_DISABLE_1M_CONTEXT: '1' })).toBe(200_000);
    expect(modelWindow('my-gateway-model', { CLAUDE_CODE_MAX_CONTEXT_TOKENS: '300000' })).toBe(300_000);
  });

  it.each(['0', '-1', '1.5', 'big', ''])('ignores a CLAUDE_CODE_MAX_CONTEXT_TOKENS of %j', (value) => {
    expect(modelWindow('gpt-9-turbo', { CLAUDE_CODE_MAX_CONTEXT_TOKENS: value })).toBe(200_000);
    expect(modelWindow('claude-opus-5-5', { CLAUDE_CODE_MAX_CONTEXT_TOKENS: value })).toBe(1_000_000);
  });

  it('the model is the first defined, non-empty candidate, then ANTHROPIC_MODEL, then the client default', () => {
    expect(contextWindow({ models: [undefined, 'claude-sonnet-4-5', 'claude-opus-5-5'], env: {}, configured: 0 })).toBe(200_000);
    expect(contextWindow({ models: ['', 'claude-opus-5-5'], env: {}, configured: 0 })).toBe(1_000_000);
    expect(contextWindow({ models: [undefined], env: { ANTHROPIC_MODEL: 'claude-haiku-4-5' }, configured: 0 })).toBe(200_000);
    expect(contextWindow({ models: [], env: {}, configured: 0 })).toBe(1_000_000);
  });

  it('our own windowTokens wins over everything', () => {
    expect(contextWindow({ models: ['claude-opus-5-5'], env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' }, configured: 123_456 })).toBe(123_456);
  });

  it('an auto-compact window of 100K–1M lowers the window, clamped to the model; the env var wins over the setting', () => {
    const opus = { models: ['claude-opus-5-5'], configured: 0 };
    expect(contextWindow({ ...opus, env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000' } })).toBe(500_000);
    expect(contextWindow({ ...opus, env: {}, autoCompactWindow: 400_000 })).toBe(400_000);
    expect(contextWindow({ ...opus, env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '300000' }, autoCompactWindow: 400_000 })).toBe(300_000);
    expect(contextWindow({ models: ['claude-sonnet-4-5'], configured: 0, env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000' } })).toBe(200_000);
    expect(contextWindow({ ...opus, env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000' } })).toBe(100_000);
  });

  it.each(['99999', '1000001', 'abc', '150000.5', '-200000', ''])('ignores a CLAUDE_CODE_AUTO_COMPACT_WINDOW of %j', (value) => {
    expect(contextWindow({ models: ['claude-opus-5-5'], env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: value }, configured: 0 })).toBe(1_000_000);
  });

  it('an auto-compact window setting out of range is ignored', () => {
    expect(contextWindow({ models: ['claude-opus-5-5'], env: {}, configured: 0, autoCompactWindow: 50_000 })).toBe(1_000_000);
    expect(contextWindow({ models: ['claude-opus-5-5'], env: {}, configured: 0, autoCompactWindow: 2_000_000 })).toBe(1_000_000);
  });
});

describe('windowNotes: the fallbacks worth one log line', () => {
  const input = (models: Array<string | undefined>, env: Record<string, string> = {}, autoCompactWindow?: number) => ({
    models,
    env,
    configured: 0,
    ...(autoCompactWindow === undefined ? {} : { autoCompactWindow }),
  });

  it('says nothing for known models and sane overrides', () => {
    for (const m of ['claude-sonnet-4-5', 'claude-opus-5-5[1m]', 'opus', 'sonnet[1m]', undefined]) expect(windowNotes(input([m]))).toEqual([]);
    expect(windowNotes(input(['claude-sonnet-4-5'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' }))).toEqual([]);
    expect(windowNotes(input(['claude-sonnet-4-5'], {}, 400_000))).toEqual([]);
  });

  it('names an unknown model and the default it assumed, unless the window is given another way', () => {
    expect(windowNotes(input(['my-gateway-model']))).toEqual([
      'unknown model "my-gateway-model": window assumed 200,000 tokens (set windowTokens or CLAUDE_CODE_MAX_CONTEXT_TOKENS)',
    ]);
    expect(windowNotes(input(['my-gateway-model'], { CLAUDE_CODE_MAX_CONTEXT_TOKENS: '128000' }))).toEqual([]);
    expect(windowNotes({ ...input(['my-gateway-model']), configured: 64_000 })).toEqual([]);
  });

  it('names an override Claude Code ignores', () => {
    expect(windowNotes(input(['claude-sonnet-4-5'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '50000' }))).toEqual([
      'CLAUDE_CODE_AUTO_COMPACT_WINDOW=50000 ignored (Claude Code takes a whole number from 100000 to 1000000)',
    ]);
    expect(windowNotes(input(['claude-sonnet-4-5'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '1.5e5' }))).toHaveLength(1);
    expect(windowNotes(input(['claude-sonnet-4-5'], {}, 5))).toEqual(['autoCompactWindow 5 ignored (Claude Code takes 100000 to 1000000)']);
    // The window those inputs give is the model's own.
    expect(contextWindow(input(['claude-sonnet-4-5'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '50000' }))).toBe(DEFAULT_WINDOW);
  });
});

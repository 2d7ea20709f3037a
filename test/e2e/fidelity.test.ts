// Fidelity through a real auto-compaction, plugin ON versus OFF (test/support/fidelity.ts has the
// scenario and the measurement): the details planted early must reach the model right after the
// compaction and be found by `ctxl recall`, and stubs must make the context smaller than without the
// plugin at the same step. The OFF run is the control: it must compact too and lose every detail.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type FidelityResult, fidelityTable, runFidelity } from '../support/fidelity.ts';

describe('details planted early survive an auto-compaction (plugin ON vs OFF, real client)', () => {
  const bin = inject('claudeBin');
  let result: FidelityResult;

  beforeAll(async () => {
    result = await runFidelity({ bin });
    console.log(`[e2e] fidelity figures\n${fidelityTable(result)}`);
  });

  it('every run exited 0 and the scenario held (no failed tool call, no detail in the summary or the fill)', () => {
    expect(result.on.exitCodes.length).toBeGreaterThan(3);
    expect(result.off.exitCodes.length).toBeGreaterThan(3);
    expect([...result.on.exitCodes, ...result.off.exitCodes].every((c) => c === 0)).toBe(true);
    expect(result.problems).toEqual([]);
  });

  it('no hook went wrong: no problem in the debug logs, no hook error attachment in the transcript', () => {
    expect(result.on.hookProblems).toEqual([]);
    expect(result.on.hookErrorsDuringExecution).toBe(0);
    expect(result.on.hookErrorAttachments).toBe(0);
    expect(result.off.hookProblems).toEqual([]);
  });

  it('the client auto-compacted in both runs', () => {
    for (const f of [result.on, result.off]) {
      expect(f.compactions).toBeGreaterThanOrEqual(1);
      expect(f.compactTrigger).toBe('auto');
      expect(f.tokensAfterCompaction).toBeDefined();
    }
  });

  it('without the plugin every planted detail is gone after the compaction (the control)', () => {
    expect(result.details.filter((d) => d.offSeen).map((d) => d.id)).toEqual([]);
    expect(result.fidelityOff).toBe(0);
  });

  it('with the plugin the model sees at least 80% of the details right after the compaction, more than without', () => {
    const missed = result.details.filter((d) => !d.onSeen).map((d) => d.id);
    expect(result.fidelityOn, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(0.8);
    expect(result.fidelityOff).toBeLessThan(result.fidelityOn);
  });

  it('ctxl recall finds every detail in its top 3 from a natural question', () => {
    const missed = result.details.filter((d) => !d.recallTop3).map((d) => d.id);
    expect(result.recallShare, `missed: ${missed.join(', ')}`).toBe(1);
  });

  it('stubs make the last request before the compaction smaller than without the plugin at the same step', () => {
    expect(result.tokens.step).toBeDefined();
    expect(result.tokens.onCompactedBefore).toBe(false);
    expect(result.tokens.on).toBeDefined();
    expect(result.tokens.on ?? Number.POSITIVE_INFINITY).toBeLessThan(result.tokens.off ?? 0);
    expect(result.stubs.stubbed).toBeGreaterThan(0);
  });
});

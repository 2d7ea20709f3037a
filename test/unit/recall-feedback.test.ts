// Pseudo-relevance feedback in ranking (lib/recall/search.ts): the words of the leading results
// reorder what the query matched, and bring in nothing it did not match.
import { describe, expect, it } from 'vitest';
import { recallSandbox } from './helpers/recall-sandbox.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-feedback-');

describe('ranking with feedback from the leading results (ctxl recall)', () => {
  it('lifts a chunk that shares the best hit’s topic over an equal match off topic, and adds no chunk without a query word', () => {
    let topical = '';
    let offTopic = '';
    let unmatched = '';
    const recall = recallSandbox(tempDir(), 'eeee5555-0000-4000-8000-000000000005', (t) => {
      t.assistant('Session timeout and retry: the payments gateway client waits 45 seconds, then the payments gateway client retries once.');
      topical = t.assistant('We raised the payments gateway client pool after the retry storm on Monday.');
      // As long, one query word as well, and newer (ties go to the newer): first without feedback.
      offTopic = t.assistant('We split the stylesheet snapshot bundle after the retry flake on Monday.');
      unmatched = t.assistant('The payments gateway client now logs its pool size at start.');
      for (let i = 0; i < 6; i++) t.assistant(`Unrelated note ${i}: the websocket heartbeat stays at 20 seconds for the dashboard.`);
    });
    const order = recall('session timeout retry');
    expect(order.indexOf(topical)).toBeGreaterThan(0);
    expect(order.indexOf(topical)).toBeLessThan(order.indexOf(offTopic));
    // It shares the topic words but none of the query's: feedback only reorders what the query matched.
    expect(order).not.toContain(unmatched);
  });
});

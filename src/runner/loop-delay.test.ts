import { describe, expect, it } from 'vitest';
import { watchLoopDelay, worseLoopDelay } from './loop-delay.js';

describe('watchLoopDelay', () => {
  it('reports the delay beyond its tick, never below 0, once stopped (and the same when stopped again)', async () => {
    const watch = watchLoopDelay();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const delay = watch.stop();
    expect(delay).not.toBeNull();
    expect(delay!.p50).toBeGreaterThanOrEqual(0);
    expect(delay!.p99).toBeGreaterThanOrEqual(delay!.p50);
    expect(delay!.max).toBeGreaterThanOrEqual(delay!.p99);
    expect(watch.stop()).toBe(delay);
  });
  it('keeps the worse of two measurements of one run, figure by figure', () => {
    expect(worseLoopDelay({ p50: 1, p99: 4, max: 9 }, { p50: 2, p99: 3, max: 12 })).toEqual({
      p50: 2,
      p99: 4,
      max: 12,
    });
    expect(worseLoopDelay(null, { p50: 2, p99: 3, max: 12 })).toEqual({ p50: 2, p99: 3, max: 12 });
    expect(worseLoopDelay(null, null)).toBeNull();
  });
});

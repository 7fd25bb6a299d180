import { describe, expect, it } from 'vitest';
import { judgeStep, median, stepMs } from './judge.js';

describe('bench:load step judging', () => {
  it('runs each step for seconds and at least a thousand sends, within a cap', () => {
    expect(stepMs(100)).toBe(10_000);
    expect(stepMs(200)).toBe(5_000);
    expect(stepMs(1000)).toBe(3_000);
    expect(stepMs(10)).toBe(10_000);
  });

  it('keeps up under the lag bound, and says why it fell behind otherwise', () => {
    const base = { rate: 1000, durationMs: 3000, sent: 3000, dropped: 0, steadyLagP99Ms: 1.2, loopDelayP99Ms: 0.8 };
    expect(judgeStep(base)).toBe('kept up');
    expect(judgeStep({ ...base, dropped: 1 })).toBe('fell behind: sent too few');
    expect(judgeStep({ ...base, sent: 2900 })).toBe('fell behind: sent too few');
    expect(judgeStep({ ...base, steadyLagP99Ms: 9 })).toBe('fell behind: sends waited (not its event loop)');
    expect(judgeStep({ ...base, steadyLagP99Ms: 9, loopDelayP99Ms: 12 })).toBe('fell behind: its event loop was busy');
    expect(judgeStep({ ...base, steadyLagP99Ms: null })).toBe('fell behind: sends waited (not its event loop)');
  });

  it('takes medians of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { createLoadGapPools } from './load-gaps.js';
import { windowBounds } from './load-window.js';

const record = (arrival: number, gaps: number[], outcome: 'ok' | 'http_error' = 'ok') => ({
  outcome,
  scheduled_offset_ms: arrival,
  sent_offset_ms: arrival + 1,
  answer_gaps_ms: gaps,
});

describe('createLoadGapPools: ITL of a load run by window', () => {
  it('pools every gap of the ok requests of each window, one sample per gap, by arrival', () => {
    const pools = createLoadGapPools(windowBounds(10_000, 1_000, 1_000));
    pools.add(record(500, [100, 100])); // warm-up
    pools.add(record(2_000, [10, 20, 30]));
    pools.add(record(8_999, [40]));
    pools.add(record(3_000, [5_000], 'http_error')); // never a latency
    pools.add(record(9_000, [7])); // cool-down starts at 9,000
    const stats = pools.stats();
    expect(stats.warmup).toMatchObject({ count: 2, min: 100, max: 100 });
    expect(stats.measured).toMatchObject({ count: 4, mean: 25, min: 10, max: 40 });
    // The histogram's precision (metrics/pooled-latency): within 0.1% of the nearest-rank sample.
    expect(Math.abs(stats.measured!.p50 - 20)).toBeLessThanOrEqual(0.02);
    expect(stats.cooldown).toMatchObject({ count: 1, p95: 7 });
  });

  it('is null in a window without gaps (a full response has none)', () => {
    const pools = createLoadGapPools(windowBounds(10_000, 0, 0));
    pools.add(record(100, []));
    expect(pools.stats()).toEqual({ warmup: null, measured: null, cooldown: null });
  });
});

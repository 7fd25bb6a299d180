import { describe, expect, it } from 'vitest';
import { LatencyStatsSchema } from '../records/summary.js';
import { createPooledLatency } from './pooled-latency.js';
import { latencyStats } from './stats.js';

describe('createPooledLatency', () => {
  it('is null until a sample arrives', () => {
    expect(createPooledLatency().stats()).toBeNull();
  });

  it('keeps count, mean, min and max exact to the microsecond', () => {
    const pool = createPooledLatency();
    for (const ms of [12.3456, 0.0004, 7, 1000.5]) pool.record(ms);
    const stats = pool.stats();
    expect(stats).toMatchObject({ count: 4, min: 0, max: 1000.5 });
    expect(stats?.mean).toBeCloseTo((12.346 + 0 + 7 + 1000.5) / 4, 9);
    expect(LatencyStatsSchema.parse(stats)).toEqual(stats);
  });

  it('ignores values that are not latencies', () => {
    const pool = createPooledLatency();
    for (const ms of [Number.NaN, -1, Infinity]) pool.record(ms);
    expect(pool.stats()).toBeNull();
  });

  it('keeps percentiles within 0.1% of the exact ones over a wide range', () => {
    const pool = createPooledLatency();
    // A dense log-uniform spread from 0.05 ms to ~22 s (neighbours 0.065% apart), shuffled.
    const values = Array.from({ length: 20_000 }, (_, i) => 0.05 * Math.exp((13 * ((i * 7919) % 20_000)) / 20_000));
    for (const v of values) pool.record(v);
    const pooled = pool.stats();
    const exact = latencyStats(values);
    expect(pooled?.count).toBe(20_000);
    for (const key of ['p50', 'p90', 'p95', 'p99', 'p99_9'] as const) {
      const want = exact?.[key] ?? Number.NaN;
      // Nearest rank vs interpolation adds at most the gap between neighbouring samples; these
      // samples are dense, so 0.1% + 1 µs covers both.
      expect(Math.abs((pooled?.[key] ?? Number.NaN) - want)).toBeLessThanOrEqual(want * 2e-3 + 1e-3);
    }
    expect(pooled?.max).toBeCloseTo(exact?.max ?? Number.NaN, 3);
  });

  it('never reports a percentile above the largest sample', () => {
    const pool = createPooledLatency();
    pool.record(12.345);
    expect(pool.stats()).toMatchObject({ p50: 12.345, p99_9: 12.345, max: 12.345 });
  });

  it('gives the same figures in any order', () => {
    const values = Array.from({ length: 500 }, (_, i) => ((i * 7919) % 1009) / 7);
    const a = createPooledLatency();
    const b = createPooledLatency();
    for (const v of values) a.record(v);
    for (const v of [...values].reverse()) b.record(v);
    expect(b.stats()).toEqual(a.stats());
  });
});

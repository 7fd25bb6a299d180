/**
 * @module metrics/pooled-latency
 * Latency samples pooled in bulk (the inter-part answer gaps of every request: hundreds per answer)
 * go into an HdrHistogram instead of an array, so memory stays flat however long the run
 * (docs/reference/metrics.md: "a mergeable histogram for per-gap samples").
 *
 * Precision: values are recorded in whole microseconds (a gap is rounded to the nearest µs) at 3
 * significant digits, so a percentile is within 0.1% of a sample value at or near that rank
 * (HdrHistogram returns the highest value equivalent to the nearest-rank sample, then clamped to
 * [min, max]); count, mean, min and max are exact up to the 1 µs rounding. Percentiles therefore
 * follow HdrHistogram's nearest-rank rule, not the linear interpolation of stats.percentile.
 */
import { build, type Histogram } from 'hdr-histogram-js';
import type { LatencyStats } from '../records/summary.js';

const SIGNIFICANT_DIGITS = 3;
const MICROS_PER_MS = 1000;

/** A pool of latency samples in ms, summarised as LatencyStats. */
export interface PooledLatency {
  /** Adds one sample in ms; negative and non-finite values are ignored (they are not latencies). */
  record(ms: number): void;
  /** The statistics so far; null when nothing was recorded. */
  stats(): LatencyStats | null;
}

interface PoolState {
  histogram: Histogram | null;
  count: number;
  /** Sum of whole µs: exact integer arithmetic, so the mean does not depend on the order of samples. */
  sumUs: number;
  minUs: number;
  maxUs: number;
}

/** Creates an empty pool; its histogram is allocated on the first sample. */
export function createPooledLatency(): PooledLatency {
  const state: PoolState = { histogram: null, count: 0, sumUs: 0, minUs: Infinity, maxUs: -Infinity };
  const histogram = () => (state.histogram ??= build({ numberOfSignificantValueDigits: SIGNIFICANT_DIGITS }));
  return {
    record(ms) {
      if (!Number.isFinite(ms) || ms < 0) return;
      const us = Math.round(ms * MICROS_PER_MS);
      histogram().recordValue(us);
      state.count += 1;
      state.sumUs += us;
      state.minUs = Math.min(state.minUs, us);
      state.maxUs = Math.max(state.maxUs, us);
    },
    stats() {
      const h = state.histogram;
      if (h === null || state.count === 0) return null;
      const at = (p: number) => Math.min(Math.max(h.getValueAtPercentile(p), state.minUs), state.maxUs) / MICROS_PER_MS;
      return {
        count: state.count,
        mean: state.sumUs / state.count / MICROS_PER_MS,
        min: state.minUs / MICROS_PER_MS,
        p50: at(50),
        p90: at(90),
        p95: at(95),
        p99: at(99),
        p99_9: at(99.9),
        max: state.maxUs / MICROS_PER_MS,
      };
    },
  };
}

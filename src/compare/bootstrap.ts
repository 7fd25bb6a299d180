/**
 * @module compare/bootstrap
 * The statistics of a comparison, all seeded and deterministic:
 * - a paired percentile bootstrap of the mean per-question difference (scores and rates);
 * - an independent two-sample percentile bootstrap of latency statistics, giving intervals of
 *   current − baseline and current / baseline from the same resamples, and the standard error of
 *   the difference (the spread of the resampled differences) that its p-value uses;
 * - the exact two-sided sign test.
 * Repeats: a question's value is the mean over its tries (metrics/question-value), so the paired
 * bootstrap resamples questions with all their repeats (a cluster bootstrap; metrics/clustered
 * does the same for one run's intervals) and its m is the number of questions, never of tries.
 * Intervals are percentile intervals: the 2.5th and 97.5th percentiles (metrics/stats `percentile`,
 * linear interpolation) of the B resampled statistics.
 */
import { LATENCY_STATS, type LatencyStat } from '../figures/catalogue.js';
import { percentile } from '../metrics/stats.js';
import type { Sfc32 } from './prng.js';

/** Two-sided 95%: the share of resampled statistics left out on each side. */
export const TAIL = 0.025;
/** Resamples per interval unless the caller asks for another number. */
export const DEFAULT_RESAMPLES = 2000;

export interface Interval {
  low: number;
  high: number;
}

/**
 * Moves the k-th smallest of values[from..to] (inclusive) to position k, smaller ones before it
 * and larger after (Hoare's selection, middle pivot): O(n) where a sort is O(n log n).
 */
function select(values: Float64Array, k: number, from: number, to: number): void {
  let left = from;
  let right = to;
  while (left < right) {
    const pivot = values[(left + right) >>> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i += 1;
      while (values[j]! > pivot) j -= 1;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

/** The smallest of values[from..to] (inclusive). */
function least(values: Float64Array, from: number, to: number): number {
  let min = values[from]!;
  for (let i = from + 1; i <= to; i += 1) if (values[i]! < min) min = values[i]!;
  return min;
}

/**
 * The p-quantile of `values` by `percentile`'s rule, reordering them in place: the two order
 * statistics around its rank are selected, not the whole array sorted (each interval of a
 * comparison reads two quantiles of B = 2000 resamples; sorting them was most of its cost).
 */
function quantileInPlace(values: Float64Array, p: number): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const rank = p * (n - 1);
  const lower = Math.floor(rank);
  select(values, lower, 0, n - 1);
  const below = values[lower]!;
  // The next order statistic is the least of those after `lower` (select left them all ≥ below).
  const above = Math.ceil(rank) === lower ? below : least(values, lower + 1, n - 1);
  return below + (above - below) * (rank - lower);
}

/** Whether any value is NaN (a loop: `some(Number.isNaN)` called a function per value). */
function hasNaN(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i += 1) if (Number.isNaN(values[i])) return true;
  return false;
}

/** The percentile interval of resampled statistics (reordered here, in place); values with NaN are sorted whole. */
export function interval(values: Float64Array): Interval {
  if (hasNaN(values)) {
    values.sort();
    const sorted = values as unknown as readonly number[];
    return { low: percentile(sorted, TAIL) ?? Number.NaN, high: percentile(sorted, 1 - TAIL) ?? Number.NaN };
  }
  return { low: quantileInPlace(values, TAIL), high: quantileInPlace(values, 1 - TAIL) };
}

/**
 * Paired bootstrap of the mean of per-question differences (current − baseline): resamples the m
 * differences with replacement B times. Empty → null. All differences equal → a zero-width
 * interval at that value (which excludes 0 unless the value is 0).
 */
export function pairedMeanInterval(diffs: readonly number[], resamples: number, random: Sfc32): Interval | null {
  const m = diffs.length;
  if (m === 0) return null;
  // Every resample of equal values has that mean: skip the work (and the generator's draws).
  if (diffs.every((d) => d === diffs[0])) return { low: diffs[0]!, high: diffs[0]! };
  const values = Float64Array.from(diffs);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b += 1) {
    means[b] = random.sumOfDraws(values) / m;
  }
  return interval(means);
}

/** Where LATENCY_STATS has the mean (the one statistic that is not an order statistic). */
const MEAN = LATENCY_STATS.indexOf('mean');

const QUANTILES: Record<Exclude<LatencyStat, 'mean' | 'max'>, number> = {
  p50: 0.5,
  p90: 0.9,
  p95: 0.95,
  p99: 0.99,
  p99_9: 0.999,
};

/** The order-statistic ranks (0-based, ascending, distinct) the statistics of an n-sample read. */
interface RankPlan {
  ranks: Int32Array;
  /** Per LATENCY_STATS entry: positions in `ranks` of the ranks below and above, and the fraction between. */
  below: Int32Array;
  above: Int32Array;
  fraction: Float64Array;
}

function rankPlan(n: number): RankPlan {
  const rankOf = (stat: LatencyStat): number =>
    stat === 'mean' ? 0 : stat === 'max' ? n - 1 : QUANTILES[stat] * (n - 1);
  const all = new Set<number>();
  for (const stat of LATENCY_STATS) all.add(Math.floor(rankOf(stat))).add(Math.ceil(rankOf(stat)));
  const ranks = Int32Array.from([...all].sort((a, b) => a - b));
  const at = (rank: number) => ranks.indexOf(rank);
  return {
    ranks,
    below: Int32Array.from(LATENCY_STATS, (stat) => at(Math.floor(rankOf(stat)))),
    above: Int32Array.from(LATENCY_STATS, (stat) => at(Math.ceil(rankOf(stat)))),
    fraction: Float64Array.from(LATENCY_STATS, (stat) => rankOf(stat) - Math.floor(rankOf(stat))),
  };
}

/**
 * One bootstrap resample of an ascending sample, summarised without sorting: n indices are drawn
 * into a count per position, and the order statistics are read off the running count (the sample
 * is already sorted, so the resample's k-th smallest is the value at the position where the
 * running count passes k). O(n) per resample; percentiles use the same type-7 rule as `percentile`.
 * `counts` (one per position) must be all zero, and is left so.
 */
function resampleStats(
  sorted: Float64Array,
  plan: RankPlan,
  counts: Uint32Array,
  values: Float64Array,
  random: Sfc32,
  out: Float64Array,
): void {
  const n = sorted.length;
  // `counts` comes zeroed (new, or left so by the scan below, which clears each count it reads).
  random.tally(counts, n, n);
  const { ranks } = plan;
  const last = ranks.length;
  let sum = 0;
  let seen = 0;
  let next = 0;
  // No test for a zero count: it adds nothing (a sample is finite: figures/catalogue sampleValue keeps
  // no other) and, with about a third of the counts zero at random, the branch was mispredicted
  // often enough to cost more than the adds.
  for (let i = 0; i < n; i += 1) {
    const c = counts[i]!;
    counts[i] = 0;
    const v = sorted[i]!;
    sum += c * v;
    seen += c;
    while (next < last && ranks[next]! < seen) values[next++] = v;
  }
  // Every statistic read as an order statistic (the mean's entries point at rank 0), then the mean.
  const { below, above, fraction } = plan;
  for (let s = 0; s < below.length; s += 1) {
    const low = values[below[s]!]!;
    out[s] = low + (values[above[s]!]! - low) * fraction[s]!;
  }
  out[MEAN] = sum / n;
}

/** Intervals of current − baseline and current / baseline for one latency statistic. */
export interface LatencyIntervals {
  delta: Interval;
  /** Standard deviation of the resampled differences: the standard error of current − baseline. */
  se: number;
  /** null when a resampled baseline statistic was 0 (the ratio does not exist). */
  ratio: Interval | null;
}

/**
 * Two-sample bootstrap of every LATENCY_STATS statistic: each side is resampled on its own (the
 * requests are not paired), B times, and both intervals come from the same resample pairs, so the
 * ratio interval excludes 1 exactly when the delta interval excludes 0. Either side empty → null.
 */
export function latencyIntervals(
  baselineSorted: ArrayLike<number>,
  currentSorted: ArrayLike<number>,
  resamples: number,
  random: Sfc32,
): Record<LatencyStat, LatencyIntervals> | null {
  if (baselineSorted.length === 0 || currentSorted.length === 0) return null;
  const k = LATENCY_STATS.length;
  const deltas = LATENCY_STATS.map(() => new Float64Array(resamples));
  const ratios = LATENCY_STATS.map(() => new Float64Array(resamples));
  const zeroBase = new Array<boolean>(k).fill(false);
  const base = new Float64Array(k);
  const cur = new Float64Array(k);
  const baseSample = Float64Array.from(baselineSorted);
  const curSample = Float64Array.from(currentSorted);
  const basePlan = rankPlan(baselineSorted.length);
  const curPlan = rankPlan(currentSorted.length);
  const baseCounts = new Uint32Array(baselineSorted.length);
  const curCounts = new Uint32Array(currentSorted.length);
  const baseValues = new Float64Array(basePlan.ranks.length);
  const curValues = new Float64Array(curPlan.ranks.length);
  for (let b = 0; b < resamples; b += 1) {
    resampleStats(baseSample, basePlan, baseCounts, baseValues, random, base);
    resampleStats(curSample, curPlan, curCounts, curValues, random, cur);
    for (let s = 0; s < k; s += 1) {
      deltas[s]![b] = cur[s]! - base[s]!;
      if (base[s] === 0) zeroBase[s] = true;
      else ratios[s]![b] = cur[s]! / base[s]!;
    }
  }
  return Object.fromEntries(
    LATENCY_STATS.map((stat, s) => [
      stat,
      {
        se: standardDeviation(deltas[s]!),
        delta: interval(deltas[s]!),
        ratio: zeroBase[s] ? null : interval(ratios[s]!),
      },
    ]),
  ) as Record<LatencyStat, LatencyIntervals>;
}

/** Sample standard deviation (n − 1) of the values; 0 under two values. Read before `interval` sorts them. */
function standardDeviation(values: Float64Array): number {
  const n = values.length;
  if (n < 2) return 0;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return Math.sqrt(squares / (n - 1));
}

/**
 * The exact two-sided sign test: under "no change", each of the n = worse + better changed
 * questions is equally likely to go either way, so p = min(1, 2 · P(X ≤ min(worse, better))) with
 * X ~ Binomial(n, ½). Ties (unchanged questions) are left out. n = 0 → 1. Computed in log space,
 * so it stays exact to ~1e-13 for any n.
 */
export function signTestP(worse: number, better: number): number {
  const n = worse + better;
  if (n === 0) return 1;
  const k = Math.min(worse, better);
  let logChoose = 0; // ln C(n, 0)
  let tail = 0;
  const logHalfN = -n * Math.LN2;
  for (let i = 0; i <= k; i += 1) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logChoose + logHalfN);
  }
  return Math.min(1, 2 * tail);
}

/**
 * @module figures/min-samples
 * The minimum-sample rule (docs/reference/metrics.md "Comparing runs: how many changes are real"), in one place so
 * metrics, compare, gates and every report apply the same one. A figure computed from fewer samples
 * than its minimum is shown greyed with its n, and is never called the best of a row nor a
 * significant change.
 *
 * - A p-quantile needs at least 10 / (1 − p) samples, i.e. about ten samples beyond it: p50 20,
 *   p90 100, p95 200, p99 1,000, p99.9 10,000. With fewer, the estimate rests on the one or two
 *   largest values, and so does any interval or test about it (a bootstrap cannot invent a tail
 *   it never saw).
 * - min and max (p = 0 and 1) rest on one value whatever the sample: no n is enough.
 * - A mean (a score, a rate, a latency mean) needs 5.
 */
import { figureKind, LATENCY_STATS, type LatencyStat } from './catalogue.js';

/** Samples a mean needs: a score, a rate, a latency mean. */
export const MIN_MEAN_SAMPLES = 5;

/** The quantile each percentile statistic estimates. */
export const STAT_QUANTILES: Readonly<Record<Exclude<LatencyStat, 'mean' | 'max'>, number>> = {
  p50: 0.5,
  p90: 0.9,
  p95: 0.95,
  p99: 0.99,
  p99_9: 0.999,
};

/** A statistic a summary or comparison reports: a latency statistic, `min`, or `mean` for any mean. */
export type Statistic = LatencyStat | 'min';

/**
 * The fewest samples the statistic needs; Infinity for min and max (no number is enough).
 * `minSamples('p99')` = 1000, `minSamples('p50')` = 20, `minSamples('mean')` = 5.
 */
export function minSamples(stat: Statistic): number {
  if (stat === 'mean') return MIN_MEAN_SAMPLES;
  if (stat === 'min' || stat === 'max') return Number.POSITIVE_INFINITY;
  // Rounded: 10 / (1 − 0.99) is 1000.0000000000009 in floating point.
  return Math.round(10 / (1 - STAT_QUANTILES[stat]));
}

/** Whether `n` samples are enough for the statistic. */
export const hasEnoughSamples = (stat: Statistic, n: number): boolean => n >= minSamples(stat);

/**
 * The fewest samples a figure of the catalogue needs, by name: `ttfp_ms.p95` → 200, a score or a
 * rate → 5 (a mean), a latency figure without a statistic → 5 (its mean). Unknown names → 5.
 */
export function minSamplesOf(figure: string): number {
  const [base = figure, stat] = figure.split('.');
  if (figureKind(base) === 'latency' && stat !== undefined && isStatistic(stat)) return minSamples(stat);
  return MIN_MEAN_SAMPLES;
}

const isStatistic = (stat: string): stat is Statistic =>
  stat === 'min' || (LATENCY_STATS as readonly string[]).includes(stat);

/** For JSON: the minimum as a number, or null when no number of samples is enough. */
export const minSamplesJson = (min: number): number | null => (Number.isFinite(min) ? min : null);

/**
 * Why a figure is not judged, for reports and gate reasons: "n = 75, a p95 needs 200";
 * "a max rests on one value". Undefined when `n` is enough.
 */
export function fewSamplesNote(figure: string, n: number): string | undefined {
  const min = minSamplesOf(figure);
  if (n >= min) return undefined;
  const stat = figure.split('.')[1] ?? 'mean';
  if (!Number.isFinite(min)) return `a ${stat} rests on one value`;
  return `n = ${n}, a ${stat === 'p99_9' ? 'p99.9' : stat} needs ${min.toLocaleString('en-US')}`;
}

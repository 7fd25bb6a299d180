/**
 * @module metrics/clustered
 * Intervals of a quality figure when each question was asked more than once (`--repeat N`). The
 * repeats of a question are not independent samples: they share the question, its documents and
 * its difficulty. The unit of a quality sample is therefore the question: these intervals treat
 * each question's tries as one cluster (a cluster-robust, "sandwich", variance of the ratio mean
 * Σ y / Σ n over the questions), and the `n` they give is the number of questions.
 *
 * - a share (pass rate): the Wilson interval at the effective sample size
 *   n_eff = p̂(1 − p̂) / Var_cluster, Var_cluster = Σ_g (Y_g − p̂·n_g)² / N² (Y_g the passes of
 *   question g, n_g its tries, N = Σ n_g), kept within [number of questions, N];
 * - a mean (citation and answer-quality scores, judged figures, checks): mean ± t(0.975, G − 1) · SE,
 *   SE² = G / (G − 1) · Σ_g (Y_g − m·n_g)² / N², G the number of questions.
 *
 * With one try per question both are exactly the unclustered intervals (metrics/stats
 * proportionEstimate and meanEstimate), so a run without repeats reads as before. Deterministic: no
 * resampling. Each cluster's values are summed in ascending order, so the result does not depend
 * on the order the records came in.
 */
import type { MeanEstimate } from '../records/summary.js';
import { meanEstimate, studentTQuantile, wilsonEstimate } from './stats.js';

/** Per cluster (question id), its values: 0/1 passes for a share, scores for a mean. */
export type Clusters = ReadonlyMap<string, readonly number[]>;

/**
 * One cluster's values as it is kept while a run's records stream past: a single value as itself;
 * from the second on, the integer values (0/1 hits, citation counts) as a count per value and the
 * others one by one. A question asked a thousand times then costs a few numbers for its integer
 * figures, not a thousand; clusterValues gives the same multiset back, so the means are the same
 * to the bit.
 */
export type ClusterValues = number | { readonly ints: Map<number, number>; readonly others: number[] };

/** `cluster` with `value` added (a new object only when the cluster held one value). */
export function addToCluster(cluster: ClusterValues | undefined, value: number): ClusterValues {
  if (cluster === undefined) return value;
  const bag = typeof cluster === 'number' ? { ints: new Map<number, number>(), others: [] } : cluster;
  for (const v of typeof cluster === 'number' ? [cluster, value] : [value]) {
    if (Number.isInteger(v)) bag.ints.set(v, (bag.ints.get(v) ?? 0) + 1);
    else bag.others.push(v);
  }
  return bag;
}

/** The values of a cluster, in no particular order. */
export function clusterValues(cluster: ClusterValues): number[] {
  if (typeof cluster === 'number') return [cluster];
  const values = [...cluster.others];
  for (const [value, count] of cluster.ints) for (let i = 0; i < count; i += 1) values.push(value);
  return values;
}

interface Totals {
  /** Per cluster: sum of values and count. */
  readonly sums: { y: number; n: number }[];
  readonly total: number;
  readonly count: number;
  /** Every cluster holds one value. */
  readonly single: boolean;
}

function totals(clusters: Clusters): Totals {
  return totalsOf(
    [...clusters.keys()].sort().map((key) => {
      const values = [...clusters.get(key)!].sort((a, b) => a - b);
      return { y: values.reduce((s, v) => s + v, 0), n: values.length };
    }),
  );
}

/** The totals of per-cluster sums, given in the clusters' key order (empty clusters skipped). */
function totalsOf(clusters: readonly { y: number; n: number }[]): Totals {
  const sums = clusters.filter((c) => c.n > 0);
  let total = 0;
  let count = 0;
  for (const { y, n } of sums) {
    total += y;
    count += n;
  }
  return { sums, total, count, single: sums.every((c) => c.n === 1) };
}

const residualSquares = (t: Totals, mean: number) => t.sums.reduce((s, { y, n }) => s + (y - mean * n) ** 2, 0);

/**
 * A share over clusters of 0/1 values (1 = passed), with its 95% Wilson interval at the clusters'
 * effective sample size; n = the number of clusters. No value → null.
 */
export function clusteredProportion(clusters: Clusters): MeanEstimate | null {
  return proportionOfTotals(totals(clusters));
}

/** Per cluster (question id): its passes and its tries. */
export type PassCounts = ReadonlyMap<string, { readonly passed: number; readonly tries: number }>;

/**
 * clusteredProportion from each cluster's counts alone: the same estimate, to the bit (a share's
 * values are 0 and 1, so a cluster's sum is its passes whatever their order), from two numbers a
 * question instead of one a try.
 */
export function clusteredProportionOfCounts(clusters: PassCounts): MeanEstimate | null {
  return proportionOfTotals(
    totalsOf([...clusters.keys()].sort().map((key) => ({ y: clusters.get(key)!.passed, n: clusters.get(key)!.tries }))),
  );
}

function proportionOfTotals(t: Totals): MeanEstimate | null {
  if (t.count === 0) return null;
  const questions = t.sums.length;
  const p = t.total / t.count;
  if (t.single) return wilsonEstimate(t.total, t.count);
  const variance = residualSquares(t, p) / (t.count * t.count);
  // All questions alike (variance 0): as if every try were independent; at p̂ = 0 or 1, as many as the questions.
  const effective = p === 0 || p === 1 ? questions : variance === 0 ? t.count : (p * (1 - p)) / variance;
  const estimate = wilsonEstimate(
    p * Math.min(t.count, Math.max(questions, effective)),
    Math.min(t.count, Math.max(questions, effective)),
  );
  return estimate === null ? null : { ...estimate, mean: p, n: questions };
}

/**
 * The mean over clusters of values, with its 95% cluster-robust Student-t interval (G − 1 degrees
 * of freedom); n = the number of clusters. One cluster → the interval is the mean itself. No value → null.
 */
export function clusteredMean(clusters: Clusters): MeanEstimate | null {
  const t = totals(clusters);
  if (t.count === 0) return null;
  if (t.single) return meanEstimate(t.sums.map((s) => s.y));
  const mean = t.total / t.count;
  const g = t.sums.length;
  if (g === 1) return { mean, ci_low: mean, ci_high: mean, n: 1 };
  const se = Math.sqrt(((g / (g - 1)) * residualSquares(t, mean)) / (t.count * t.count));
  const half = studentTQuantile(0.975, g - 1) * se;
  return { mean, ci_low: mean - half, ci_high: mean + half, n: g };
}

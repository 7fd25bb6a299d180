/**
 * @module figures/catalogue
 * The catalogue of figures a summary reports, a comparison shows and a gate can name: every
 * numeric score (a per-question mean), the outcome and pass rates, the repeat figures, and the
 * latency figures with a statistic. For each, its kind and which way is good. One catalogue at the
 * bottom of the tree, so metrics, compare, gates and the reports never disagree on a name or a
 * direction.
 */
import { ScoresSchema, type ScoreName, type Scores } from '../records/scores.js';
import { LATENCY_FIGURES, type LatencyFigure } from '../records/summary.js';

/** Every numeric score of ScoresSchema (the ones `scores` averages), in schema order. */
export const SCORE_NAMES: readonly ScoreName[] = (Object.keys(ScoresSchema.shape) as (keyof Scores)[]).filter(
  // A numeric score accepts 0; the booleans and phrase lists do not.
  (key): key is ScoreName => ScoresSchema.shape[key].safeParse(0).success,
);

/** The latency statistics a gate or a comparison can name (LatencyStats keys). */
export const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99', 'p99_9', 'mean', 'max'] as const;
export type LatencyStat = (typeof LATENCY_STATS)[number];

/** Shares of requests: of a group's requests, or of one question's tries. */
export const RATE_FIGURES = ['pass_rate', 'ok_rate', 'error_rate', 'rate_limited_rate'] as const;
/** Shares of questions across repeats (metrics/repeats). */
export const REPEAT_FIGURES = ['pass_at_n', 'pass_all_n', 'flaky_rate'] as const;
/** Shares of the answers a person reviewed (reviews.jsonl, records/review): N/A where nothing was reviewed. */
export const REVIEW_FIGURES = ['human_pass_rate'] as const;
export type RateFigure = (typeof RATE_FIGURES)[number] | (typeof REPEAT_FIGURES)[number] | (typeof REVIEW_FIGURES)[number];

export { LATENCY_FIGURES };
export type { LatencyFigure, ScoreName };

/** A figure known per question (compared pairwise) — or a latency figure (compared by its samples). */
export type FigureKind = 'score' | 'rate' | 'latency';

/** The scores and rates the table shows by default (compare.json carries every score). */
export const HEADLINE_FIGURES: readonly (ScoreName | RateFigure)[] = [
  'citation_precision', 'citation_recall', 'citation_f1', 'reciprocal_rank', 'ndcg_at_5', 'retrieval_recall_at_5',
  'pass_rate', 'ok_rate', 'error_rate', 'rate_limited_rate',
];
/** The latency rows the table shows by default (compare.json carries every figure × statistic). */
export const HEADLINE_LATENCY: readonly `${LatencyFigure}.${LatencyStat}`[] = ['ttfp_ms', 'ttft_ms', 'total_ms'].flatMap((f) =>
  ['p50', 'p95', 'p99'].map((s) => `${f}.${s}` as `${LatencyFigure}.${LatencyStat}`),
);

const SCORE_SET: ReadonlySet<string> = new Set(SCORE_NAMES);
const RATE_SET: ReadonlySet<string> = new Set<string>([...RATE_FIGURES, ...REPEAT_FIGURES, ...REVIEW_FIGURES]);
const LATENCY_SET: ReadonlySet<string> = new Set(LATENCY_FIGURES);
/** Counts of bad things: a fall is an improvement. */
const LOWER_IS_BETTER: ReadonlySet<string> = new Set(['duplicate_citations', 'invalid_citations', 'error_rate', 'rate_limited_rate', 'flaky_rate']);

/** The kind of a base figure name (without `.stat`); undefined for an unknown name. */
export function figureKind(name: string): FigureKind | undefined {
  if (SCORE_SET.has(name)) return 'score';
  if (RATE_SET.has(name)) return 'rate';
  if (LATENCY_SET.has(name)) return 'latency';
  return undefined;
}

/** Every base figure name a gate accepts, for "did you mean". */
export const FIGURE_NAMES: readonly string[] = [...SCORE_NAMES, ...RATE_FIGURES, ...REPEAT_FIGURES, ...REVIEW_FIGURES, ...LATENCY_FIGURES];

/** Which way is good: latencies and counts of bad things should fall, everything else rise. */
export function higherIsBetter(name: string): boolean {
  const base = name.split('.')[0] ?? name;
  return !LOWER_IS_BETTER.has(base) && !LATENCY_SET.has(base);
}

/**
 * @module compare/figures
 * The catalogue of figures a comparison shows and a gate can name: every numeric score (a
 * per-question mean), the outcome and pass rates, the repeat figures, and the latency figures
 * with a statistic. For each, which way is good; for the per-question ones, a question's value.
 * One catalogue, so the table, the chart and the gates never disagree on a name or a direction.
 */
import { SCORE_NAMES } from '../metrics/group-figures.js';
import { questionRepeatFigures } from '../metrics/repeats.js';
import type { Outcome } from '../records/record.js';
import type { ScoreName } from '../records/scores.js';
import { LATENCY_FIGURES, type LatencyFigure } from '../records/summary.js';
import { LATENCY_STATS, type LatencyStat } from './bootstrap.js';

/** Shares of requests: of a group's requests, or of one question's tries. */
export const RATE_FIGURES = ['pass_rate', 'ok_rate', 'error_rate', 'rate_limited_rate'] as const;
/** Shares of questions across repeats (metrics/repeats). */
export const REPEAT_FIGURES = ['pass_at_n', 'pass_all_n', 'flaky_rate'] as const;
export type RateFigure = (typeof RATE_FIGURES)[number] | (typeof REPEAT_FIGURES)[number];

export { SCORE_NAMES, LATENCY_FIGURES, LATENCY_STATS };
export type { LatencyFigure, LatencyStat, ScoreName };

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
const RATE_SET: ReadonlySet<string> = new Set<string>([...RATE_FIGURES, ...REPEAT_FIGURES]);
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
export const FIGURE_NAMES: readonly string[] = [...SCORE_NAMES, ...RATE_FIGURES, ...REPEAT_FIGURES, ...LATENCY_FIGURES];

/** Which way is good: latencies and counts of bad things should fall, everything else rise. */
export function higherIsBetter(name: string): boolean {
  const base = name.split('.')[0] ?? name;
  return !LOWER_IS_BETTER.has(base) && !LATENCY_SET.has(base);
}

/** A question's data as the comparison keeps it (compare/run-data QuestionData). */
export interface QuestionFigures {
  outcomes: readonly Outcome[];
  passes: readonly boolean[];
  scores: Readonly<Partial<Record<ScoreName, number>>>;
}

const share = (values: readonly boolean[]): number | null =>
  values.length === 0 ? null : values.filter(Boolean).length / values.length;

/**
 * One question's value of a score or rate figure: a score is its mean over the ok tries where it
 * is not N/A (missing → null); a rate is the share of its tries; a repeat figure is 0 or 1.
 * error_rate counts outcomes that are neither ok nor rate_limited.
 */
export function questionValue(q: QuestionFigures, figure: string): number | null {
  switch (figure) {
    case 'pass_rate':
      return share(q.passes);
    case 'ok_rate':
      return share(q.outcomes.map((o) => o === 'ok'));
    case 'error_rate':
      return share(q.outcomes.map((o) => o !== 'ok' && o !== 'rate_limited'));
    case 'rate_limited_rate':
      return share(q.outcomes.map((o) => o === 'rate_limited'));
    case 'pass_at_n':
    case 'pass_all_n':
    case 'flaky_rate': {
      if (q.outcomes.length === 0) return null;
      const r = questionRepeatFigures({ outcomes: [...q.outcomes], passes: [...q.passes] });
      return Number(figure === 'flaky_rate' ? r.flaky : r[figure]);
    }
    default:
      return q.scores[figure as ScoreName] ?? null;
  }
}

/**
 * @module compare/schema
 * compare.json: the comparison of a current run with a baseline. Everything the Markdown, HTML
 * and gate reports show is in it, so a CI artifact can be read again without the runs.
 */
import { z } from 'zod';
import { OutcomeSchema } from '../records/record.js';

export const COMPARISON_VERSION = 1;

export { GroupRefSchema, IntervalSchema, type GroupRef } from '../figures/gate-verdict.js';
import { GroupRefSchema, IntervalSchema } from '../figures/gate-verdict.js';

/** Judged by which way is good for the figure; null when either side has no value. */
export const DirectionSchema = z.enum(['better', 'worse', 'same']).nullable();
export type Direction = z.infer<typeof DirectionSchema>;

export const FigureDeltaSchema = z.object({
  /** A base name (`citation_recall`, `pass_rate`) or a latency figure with its statistic (`ttfp_ms.p95`). */
  figure: z.string(),
  kind: z.enum(['score', 'rate', 'latency']),
  higher_is_better: z.boolean(),
  /** Shown in the tables and counted in `significant`: the headline scores, rates and latencies (and the repeat figures when a run had repeats). */
  headline: z.boolean(),
  /** The group's figure as each run's summary reports it. */
  baseline: z.number().nullable(),
  current: z.number().nullable(),
  /** current − baseline. */
  delta: z.number().nullable(),
  /** delta / |baseline|; null when the baseline is 0 or missing. */
  relative: z.number().nullable(),
  /** current / baseline; null when the baseline is 0 or missing. */
  ratio: z.number().nullable(),
  /**
   * 95% bootstrap interval of the change. Scores and rates: of the mean per-question difference
   * over the paired questions. Latency: of current − baseline, each side resampled on its own.
   */
  ci: IntervalSchema.nullable(),
  /** Latency only: 95% bootstrap interval of current / baseline. */
  ratio_ci: IntervalSchema.nullable(),
  /** Requests (latency: ok samples) or questions with a value on each side. */
  n_baseline: z.number().int(),
  n_current: z.number().int(),
  /** Questions with a value on both sides (null for latency: not paired). */
  n_paired: z.number().int().nullable(),
  /**
   * The fewest values the figure needs (figures/min-samples: a mean 5 paired questions; a latency
   * p-quantile 10 / (1 − p) ok samples on each side); null when no number is enough (max).
   */
  min_n: z.number().int().nullable().default(5),
  /** There were at least `min_n` values: only then is the figure tested at all. */
  enough_samples: z.boolean().default(true),
  /**
   * Two-sided p-value of the figure's own test; null when not tested (too few values, no value).
   * Scores and rates: the paired t-test of the per-question differences. Latency: the difference
   * over its bootstrap standard error, against the normal distribution.
   */
  p_value: z.number().nullable().default(null),
  /** Benjamini–Hochberg adjusted p-value over every test of the comparison; null when not tested. */
  q_value: z.number().nullable().default(null),
  /**
   * In the comparison's list of significant changes: a discovery of the Benjamini–Hochberg
   * procedure at q = 0.05 over every test the comparison made (q_value ≤ 0.05), whose own interval
   * also excludes no change (`significant_alone`).
   */
  significant: z.boolean(),
  /**
   * The figure's own 95% interval excludes 0 (ratio: 1) with enough values, and for a latency the
   * change exceeds the timing uncertainty. A necessary condition of `significant`, which is what
   * the headline, the table and the gates all use (issue 22: one meaning of "significant").
   */
  significant_alone: z.boolean().default(false),
  /**
   * Latency: how much of the change the generators' own lateness could explain (the slower side's
   * event-loop delay max, from generator.json); a change no larger is never significant. null when
   * not measured, and for scores and rates.
   */
  timing_uncertainty_ms: z.number().nullable().default(null),
  direction: DirectionSchema,
});
export type FigureDelta = z.infer<typeof FigureDeltaSchema>;

/** Exact two-sided sign test over the questions whose pass share changed. */
export const SignTestSchema = z.object({
  worse: z.number().int(),
  better: z.number().int(),
  unchanged: z.number().int(),
  p_value: z.number(),
});
export type SignTest = z.infer<typeof SignTestSchema>;

/** One side of a question that changed. */
export const QuestionSideSchema = z.object({
  outcomes: z.array(OutcomeSchema),
  /** Share of tries that passed. */
  pass: z.number().nullable(),
  hit_at_5: z.number().nullable(),
  citation_recall: z.number().nullable(),
  /** The first try's answer, trimmed. */
  answer: z.string().nullable(),
  cited_document_ids: z.array(z.string()),
});
export type QuestionSide = z.infer<typeof QuestionSideSchema>;

export const QuestionChangeSchema = z.object({
  question_id: z.string(),
  question: z.string(),
  /** e.g. `pass→fail`, `hit@5→miss`, `new timeout`; for fixed ones `fail→pass`, `miss→hit@5`, `no more timeout`. */
  changes: z.array(z.string()),
  baseline: QuestionSideSchema,
  current: QuestionSideSchema,
});
export type QuestionChange = z.infer<typeof QuestionChangeSchema>;

export const GroupComparisonSchema = GroupRefSchema.extend({
  /** The baseline's name of the set (differs from `set` under --map). */
  baseline_set: z.string(),
  questions: z.object({
    paired: z.number().int(),
    /** Never silently dropped: questions present on one side only. */
    baseline_only: z.array(z.string()),
    current_only: z.array(z.string()),
  }),
  figures: z.array(FigureDeltaSchema),
  pass_changes: SignTestSchema,
  broken: z.array(QuestionChangeSchema),
  fixed: z.array(QuestionChangeSchema),
});
export type GroupComparison = z.infer<typeof GroupComparisonSchema>;

export const RunSideSchema = z.object({
  source: z.string(),
  requests: z.number().int(),
  questions: z.number().int(),
  sets: z.array(z.string()),
  /** The most tries any question had. */
  repeats: z.number().int(),
  torn_lines: z.number().int(),
});

export const ComparisonSchema = z.object({
  comparison_version: z.literal(COMPARISON_VERSION),
  seed: z.number().int(),
  resamples: z.number().int(),
  confidence: z.number(),
  /** Fewer paired questions than this: no change of a score or rate is tested (latency: per statistic, see `min_n`). */
  min_samples: z.number().int(),
  /** How the list of significant changes holds its false discovery rate, and over how many tests. */
  fdr: z
    .object({
      method: z.literal('benjamini-hochberg'),
      q: z.number(),
      /** Figure × group tests the comparison made (figures with enough values on both sides). */
      tests: z.number().int(),
      /** Of them, changes reported as significant (`significant`). */
      discoveries: z.number().int(),
    })
    .default({ method: 'benjamini-hochberg', q: 0.05, tests: 0, discoveries: 0 }),
  /** --map: baseline set name → current set name. */
  set_map: z.record(z.string(), z.string()),
  baseline: RunSideSchema,
  current: RunSideSchema,
  /** Groups present on one side only. */
  unmatched: z.object({ baseline: z.array(GroupRefSchema), current: z.array(GroupRefSchema) }),
  groups: z.array(GroupComparisonSchema),
  /** The list of significant changes (every figure, every group, after Benjamini–Hochberg), by direction. */
  significant: z.object({ better: z.number().int(), worse: z.number().int() }),
  /** `set accurate: model changed gpt-4o → gpt-4o-mini`, per set whose models asked differ from the baseline's (compare/model-changes). */
  model_changes: z.array(z.string()).default([]),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

/**
 * @module records/summary
 * summary.json: what metrics/ computes from the records and reports/ renders. Computed from
 * results.jsonl alone, so `chatbench report DIR` rebuilds it identically.
 */
import { z } from 'zod';
import { renameOldKeys } from './upgrade.js';
import { LoopDelaySchema } from './generator-health.js';
import { JudgeFigureSchema } from './quality.js';
import { ModeSchema, OUTCOMES, OutcomeSchema } from './record.js';

/**
 * The per-request figures summarised by their distribution (count, mean, percentiles) over `ok`
 * answers, each group and each model of a multi-model set: the milestones of docs/reference/metrics.md, time per delta, the token figures,
 * output characters per second and the service's `pre_answer_processing_seconds`.
 */
export const LATENCY_FIGURES = [
  'headers_ms',
  'ttfp_ms',
  'ttft_ms',
  'first_citation_ms',
  'total_ms',
  'time_per_delta_ms',
  'first_search_documents_ms',
  'message_start_ms',
  'first_reasoning_ms',
  'pre_answer_processing_seconds',
  'output_chars_per_s',
  'output_tokens',
  'output_tokens_per_s',
  'tpot_per_token_ms',
] as const;
export type LatencyFigure = (typeof LATENCY_FIGURES)[number];

export const SUMMARY_VERSION = 1;

/** docs/reference/metrics.md "Latency statistics"; null when no request had the figure. */
export const LatencyStatsSchema = z.object({
  count: z.number().int(),
  mean: z.number(),
  min: z.number(),
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  p99_9: z.number(),
  max: z.number(),
});
export type LatencyStats = z.infer<typeof LatencyStatsSchema>;

/** A mean over the requests where the figure exists, with its 95% confidence interval. */
export const MeanEstimateSchema = z.object({
  mean: z.number(),
  ci_low: z.number(),
  ci_high: z.number(),
  /** How many requests had the figure (N/A ones are left out). */
  n: z.number().int(),
});
export type MeanEstimate = z.infer<typeof MeanEstimateSchema>;

/** Counts per outcome class; a class a summary of an older version lacks (empty_answer) reads as 0. */
export const OutcomeCountsSchema = z.preprocess(
  (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { ...emptyOutcomeCounts(), ...value }
      : value,
  z.record(OutcomeSchema, z.number().int()),
);

/**
 * How often the judge could not judge: every ask of a judged figure (× `--judge-repeat`; a figure
 * not applicable to an answer asks nothing) and those that ended without a verdict (an HTTP error,
 * a timeout, a reply with no verdict in it). 0 / 0 / null in a run without a judge.
 */
const JudgeAsksShape = {
  judge_asks: z.number().int().default(0),
  judge_failed_asks: z.number().int().default(0),
  /** judge_failed_asks ÷ judge_asks: the `judge_error_rate` figure; null when the judge was not asked. */
  judge_error_rate: z.number().nullable().default(null),
};

/** The figures of one group of records: a set × mode, one model of a multi-model set, or a category. */
export const GroupFiguresSchema = z.object({
  requests: z.number().int(),
  outcomes: OutcomeCountsSchema,
  /**
   * The per-request figures of the catalogue (figures/catalogue.ts) over `ok` requests only (failures
   * are counted by class, never mixed in); one an older summary lacks reads as null.
   */
  latency: z.preprocess(
    renameOldKeys,
    z.object(
      Object.fromEntries(LATENCY_FIGURES.map((f) => [f, LatencyStatsSchema.nullable().default(null)])) as Record<
        LatencyFigure,
        z.ZodDefault<z.ZodNullable<typeof LatencyStatsSchema>>
      >,
    ),
  ),
  /**
   * Inter-part gaps between answer deltas, all requests pooled: the inter-token latency (ITL) as
   * `vllm bench serve` defines it — one sample per gap between successive chunks, a chunk holding
   * several tokens not spread over them (docs/reference/metrics.md "Tokens").
   */
  answer_gap_ms: LatencyStatsSchema.nullable(),
  /** Macro-averages of every numeric score over `ok` requests where it is not N/A. */
  scores: z.record(z.string(), MeanEstimateSchema.nullable()),
  /**
   * Share of the checked requests that pass (a failed request does not pass), with a 95% Wilson
   * interval. A request is checked when its pass tested something its question expects (scores'
   * `checked`); null when no request was: "not checked", never 100%.
   */
  pass_rate: MeanEstimateSchema.nullable(),
  /** Questions whose answers were not checked (they expect nothing): left out of pass_rate. Absent in older summaries. */
  unchecked_questions: z.number().int().optional(),
  /**
   * Share of the reviewed answers a person judged good (reviews.jsonl, `chatbench view`), with a
   * 95% Wilson interval; n is the number reviewed. Absent or null when nothing was reviewed.
   */
  human_pass_rate: MeanEstimateSchema.nullable().optional(),
  /** Requests whose question expects no documents: every ranking metric is N/A for them. */
  no_expectation: z.number().int(),
  invalid_citations: z.number().int(),
  duplicate_citations: z.number().int(),
  /** `{"type": "error"}` packets of every request: tools that failed while the answer went on. */
  tool_errors: z.number().int().default(0),
  /**
   * Answers whose judged figure (`correctness`, …) is judge_error, or whose user check failed (threw,
   * timed out), by figure; such an answer is N/A in that figure's mean. Figures with none are left out.
   */
  figure_errors: z.record(z.string(), z.number().int()).default({}),
  /**
   * Output tokens of the `ok` answers whose text was counted whole (tokens/figures.ts); null when
   * none was (no answer text, every one cut, or a summary from before tokens).
   */
  output_tokens_total: z.number().int().nonnegative().nullable().default(null),
  /**
   * `output_tokens_total` / the run's duration (summary.run.duration_s): `vllm bench serve`'s
   * "Output token throughput" over the whole run window (docs/reference/metrics.md "Tokens").
   */
  output_throughput_tokens_per_s: z.number().nonnegative().nullable().default(null),
  ...JudgeAsksShape,
});
export type GroupFigures = z.infer<typeof GroupFiguresSchema>;

/** A group's conversations (dataset rows sharing a `conversation` id), each counted once per repeat. */
export const ConversationFiguresSchema = z.object({
  /** Conversations × repeats. */
  count: z.number().int(),
  /** Those whose every turn passed. */
  passed: z.number().int(),
  /** passed / count, with a 95% Wilson interval: the `conversation_pass_rate` figure. */
  pass_rate: MeanEstimateSchema.nullable(),
  /** Those a failed turn ended early (their later turns were skipped). */
  ended_early: z.number().int(),
});
export type ConversationFigures = z.infer<typeof ConversationFiguresSchema>;

/**
 * A group's figures across repeats (`--repeat N`, metrics/repeats), over its questions: pass@N
 * (passed at least once), pass^N (passed every time), flaky (outcome or pass differed between
 * tries); shares of questions with 95% Wilson intervals, n = the questions.
 */
export const RepeatFiguresSchema = z.object({
  questions: z.number().int(),
  /** The most tries any question had (N). */
  repeats: z.number().int(),
  pass_at_n: MeanEstimateSchema.nullable(),
  pass_all_n: MeanEstimateSchema.nullable(),
  flaky_rate: MeanEstimateSchema.nullable(),
});
export type RepeatFigures = z.infer<typeof RepeatFiguresSchema>;

export const GroupSchema = GroupFiguresSchema.extend({
  set: z.string(),
  mode: ModeSchema,
  /** A multi-model set has one group for the request as a whole (null) and one per model. */
  model_index: z.number().int().nullable(),
  model_name: z.string().nullable(),
  by_category: z.record(z.string(), GroupFiguresSchema),
  /**
   * The conversation turns by turn number ("1", "2", …), each with every figure: does quality fall,
   * or the time to the first token grow, with depth? Empty without conversations.
   */
  by_turn: z.record(z.string(), GroupFiguresSchema).default({}),
  /** The group's conversations; null without conversations. */
  conversations: ConversationFiguresSchema.nullable().default(null),
  /** Across repeats; null when no question was asked more than once. */
  repeats: RepeatFiguresSchema.nullable().default(null),
});
export type Group = z.infer<typeof GroupSchema>;

/** A statistic with a 95% interval (a bootstrap percentile interval where said). */
export const EstimateSchema = z.object({ value: z.number(), ci_low: z.number(), ci_high: z.number() });
export type Estimate = z.infer<typeof EstimateSchema>;

/** The judge against human verdicts on one judged figure, over every labelled answer of the run. */
export const QualityAgreementSchema = z.object({
  figure: JudgeFigureSchema,
  /** Answers with both a human verdict and a judged score. */
  n: z.number().int(),
  /** Of them, how many the judge passed (score ≥ 0.5) and the humans passed. */
  judge_pass: z.number().int(),
  human_pass: z.number().int(),
  /** Share of answers where both agree; bootstrap interval. */
  accuracy: EstimateSchema,
  /** Cohen's kappa with its bootstrap interval; null when undefined (both gave one same verdict throughout). */
  kappa: EstimateSchema.nullable(),
});
export type QualityAgreement = z.infer<typeof QualityAgreementSchema>;

/** The judge against itself (`--judge-repeat N`) on one judged figure. */
export const QualityConsistencySchema = z.object({
  figure: JudgeFigureSchema,
  /** Answers asked at least twice with at least two answers. */
  items: z.number().int(),
  /** Of them, those whose pass verdict changed between asks. */
  flipped: z.number().int(),
  /** flipped / items with a 95% Wilson interval. */
  flip_rate: MeanEstimateSchema,
});
export type QualityConsistency = z.infer<typeof QualityConsistencySchema>;

/** How the run judged answers: the pass rule, the judge, the user's checks, and how far the judge is trusted. */
export const QualitySummarySchema = z.object({
  /** The per-question pass rule in words (metrics/pass-rule describePassRule). */
  pass_rule: z.string(),
  /** The judge model and prompt version the records name; null when nothing was judged. */
  judge: z.object({ model: z.string(), prompt_version: z.string(), repeat: z.number().int() }).nullable(),
  /** The user checks' figures (`--checks`), in first-seen order. */
  checks: z.array(z.string()),
  agreement: z.array(QualityAgreementSchema),
  consistency: z.array(QualityConsistencySchema),
});
export type QualitySummary = z.infer<typeof QualitySummarySchema>;

/**
 * Which model answered a set: the models the set asked for (records' model_asked) and those the
 * service said answered (model_answered: the multi-model ids line, a streaming error's details).
 */
export const SetModelsSchema = z.object({
  set: z.string(),
  /** As the records ask, slot order; [] = the service's configured model. */
  asked: z.array(z.string()),
  /** Every distinct model name the service gave, sorted; [] when it never said. */
  answered: z.array(z.string()),
});
export type SetModels = z.infer<typeof SetModelsSchema>;

export const SummarySchema = z.object({
  summary_version: z.literal(SUMMARY_VERSION),
  /**
   * What every report says first, before any figure: how many requests failed and of which class;
   * that timings may be late when the generator was busy. Empty when there is nothing to say.
   */
  banner: z.array(z.string()).default([]),
  /** The timing uncertainty: the generator's event-loop delay over the run (generator.json); null when not measured. */
  timing: z.object({ loop_delay_ms: LoopDelaySchema }).nullable().default(null),
  run: z.object({
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    /** From the first send to the last completion, seconds. */
    duration_s: z.number().nullable(),
    requests: z.number().int(),
    questions: z.number().int(),
    sets: z.array(z.string()),
    outcomes: OutcomeCountsSchema,
    ...JudgeAsksShape,
  }),
  groups: z.array(GroupSchema),
  /** Per set, the models asked for and those the service said answered (records before these fields: none). */
  models: z.array(SetModelsSchema).default([]),
  /** Answer quality of the run as a whole; null in a summary built without the run's manifest (a baseline). */
  quality: QualitySummarySchema.nullable().default(null),
});
export type Summary = z.infer<typeof SummarySchema>;

export function emptyOutcomeCounts(): Record<z.infer<typeof OutcomeSchema>, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<z.infer<typeof OutcomeSchema>, number>;
}

/**
 * @module records/summary
 * summary.json: what metrics/ computes from the records and reports/ renders. Computed from
 * results.jsonl alone, so `chatbench report DIR` rebuilds it identically.
 */
import { z } from 'zod';
import { ModeSchema, OUTCOMES, OutcomeSchema } from './record.js';

export const SUMMARY_VERSION = 1;

/** metrics.md "Latency statistics"; null when no request had the figure. */
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

export const LATENCY_FIGURES = ['headers_ms', 'ttfp_ms', 'ttft_ms', 'first_citation_ms', 'total_ms', 'tpot_ms'] as const;
export type LatencyFigure = (typeof LATENCY_FIGURES)[number];

export const OutcomeCountsSchema = z.record(OutcomeSchema, z.number().int());

/** The figures of one group of records: a set × mode, one model of a multi-model set, or a category. */
export const GroupFiguresSchema = z.object({
  requests: z.number().int(),
  outcomes: OutcomeCountsSchema,
  /** Latencies of `ok` requests only (failures are counted by class, never mixed in). */
  latency: z.object(Object.fromEntries(LATENCY_FIGURES.map((f) => [f, LatencyStatsSchema.nullable()])) as Record<
    LatencyFigure,
    z.ZodNullable<typeof LatencyStatsSchema>
  >),
  /** Inter-part gaps between answer deltas, all requests pooled. */
  answer_gap_ms: LatencyStatsSchema.nullable(),
  /** Macro-averages of every numeric score over `ok` requests where it is not N/A. */
  scores: z.record(z.string(), MeanEstimateSchema.nullable()),
  /** Share of requests that pass (a failed request does not pass), with a 95% Wilson interval. */
  pass_rate: MeanEstimateSchema.nullable(),
  /**
   * Share of the reviewed answers a person judged good (reviews.jsonl, `chatbench view`), with a
   * 95% Wilson interval; n is the number reviewed. Absent or null when nothing was reviewed.
   */
  human_pass_rate: MeanEstimateSchema.nullable().optional(),
  /** Requests whose question expects no documents: every ranking metric is N/A for them. */
  no_expectation: z.number().int(),
  invalid_citations: z.number().int(),
  duplicate_citations: z.number().int(),
});
export type GroupFigures = z.infer<typeof GroupFiguresSchema>;

export const GroupSchema = GroupFiguresSchema.extend({
  set: z.string(),
  mode: ModeSchema,
  /** A multi-model set has one group for the request as a whole (null) and one per model. */
  model_index: z.number().int().nullable(),
  model_name: z.string().nullable(),
  by_category: z.record(z.string(), GroupFiguresSchema),
});
export type Group = z.infer<typeof GroupSchema>;

export const SummarySchema = z.object({
  summary_version: z.literal(SUMMARY_VERSION),
  run: z.object({
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    /** From the first send to the last completion, seconds. */
    duration_s: z.number().nullable(),
    requests: z.number().int(),
    questions: z.number().int(),
    sets: z.array(z.string()),
    outcomes: OutcomeCountsSchema,
  }),
  groups: z.array(GroupSchema),
});
export type Summary = z.infer<typeof SummarySchema>;

export const emptyOutcomeCounts = (): Record<z.infer<typeof OutcomeSchema>, number> =>
  Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<z.infer<typeof OutcomeSchema>, number>;

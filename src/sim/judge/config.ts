/**
 * @module sim/judge/config
 * The simulated judge's part of the simulator config (nested as "judge"). Every field has a
 * default: the default judge answers every ask, with structured output, in about 60 ms.
 */
import { z } from 'zod';

const Probability = z.number().min(0).max(1);
const LogNormalSchema = z
  .strictObject({ median: z.number().nonnegative(), p99: z.number().nonnegative() })
  .refine((d) => d.p99 >= d.median, 'p99 must be at least the median');

export const JUDGE_FAULTS = ['http_429', 'http_500', 'http_503', 'no_verdict', 'prose'] as const;

/** Forces a reply on every ask whose input (the user message) matches; the first matching trigger wins. */
export const JudgeTriggerSchema = z.strictObject({
  /** A substring, or `/regex/flags`, of the judge input. */
  match: z.string().min(1),
  /** http_429 (with Retry-After), http_500, http_503, no_verdict (prose with no JSON), prose (the verdict in a fenced block). */
  reply: z.enum(JUDGE_FAULTS),
  /** How many asks of one same input it applies to (the first N); default every one. */
  times: z.number().int().positive().optional(),
});
export type JudgeTrigger = z.output<typeof JudgeTriggerSchema>;

export const SimJudgeConfigSchema = z.strictObject({
  /** Time to answer (milliseconds of real time, scaled by chat.time_scale). */
  latency_ms: LogNormalSchema.default({ median: 60, p99: 250 }),
  /** Chance of a 500 per ask (seeded). */
  error_rate: Probability.default(0),
  /** Chance of a 429 per ask (seeded), with `Retry-After: retry_after_s`. */
  rate_limit_rate: Probability.default(0),
  retry_after_s: z.number().nonnegative().default(1),
  /** Honour response_format (bare JSON); false: answer as a model without structured output does (prose and a fenced block), and refuse response_format with a 400. */
  structured_output: z.boolean().default(true),
  /** Seeded noise added to each score (uniform in ±noise, then clamped): lets repeated asks disagree. 0 = deterministic. */
  noise: Probability.default(0),
  /** When set, asks must carry `Authorization: Bearer <token>` (401 otherwise). */
  token: z.string().min(1).nullable().default(null),
  triggers: z.array(JudgeTriggerSchema).default([]),
});
export type SimJudgeConfig = z.output<typeof SimJudgeConfigSchema>;
export type SimJudgeConfigInput = z.input<typeof SimJudgeConfigSchema>;

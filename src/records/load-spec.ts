/**
 * @module records/load-spec
 * What a load run does, as manifest.json records it (`load`): the shape every reader shares. The
 * rules between its fields are checked where the spec is made (plan/load-plan.ts LoadSpecSchema).
 */
import { z } from 'zod';
import { ModeSchema } from './record.js';
import { ShardSchema } from './shard.js';

export const ARRIVAL_SHAPES = ['constant', 'poisson'] as const;
export type ArrivalShape = (typeof ARRIVAL_SHAPES)[number];
export const QUESTION_ORDERS = ['sequential', 'random'] as const;
export type QuestionOrder = (typeof QUESTION_ORDERS)[number];

/** One stage of a ramp: the target (rate or users) reached at its end, from the previous one. */
export const StageSchema = z.object({
  duration_ms: z.number().positive(),
  target: z.number().nonnegative(),
});
export type Stage = z.infer<typeof StageSchema>;

/** `--think-time` (plan/think-time.ts parses and draws it): a constant, a uniform range, or a log-normal. */
export const ThinkTimeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('constant'), ms: z.number().nonnegative() }),
  z.object({ kind: z.literal('uniform'), min_ms: z.number().nonnegative(), max_ms: z.number().nonnegative() }),
  z.object({ kind: z.literal('lognormal'), median_ms: z.number().positive(), p99_ms: z.number().positive() }),
]);
export type ThinkTime = z.infer<typeof ThinkTimeSchema>;

export const LoadSpecShapeSchema = z.object({
  operation: z.enum(['chat', 'open-urls']),
  mode: ModeSchema,
  model: z.enum(['closed', 'open']),
  /** Closed model without stages: virtual users. */
  concurrency: z.number().int().min(1).optional(),
  /** Open model without stages: arrivals per second. */
  rate: z.number().positive().optional(),
  arrival: z.enum(ARRIVAL_SHAPES),
  /** Open model: outstanding arrivals (sent or waiting for a connection) at most; beyond: dropped. */
  max_in_flight: z.number().int().min(1),
  /** Open model: requests sent and unanswered at most (wrk2-style); null: max_in_flight. Additive. */
  connections: z.number().int().min(1).nullable().optional(),
  /** Targets are rates (open) or users (closed); the first stage ramps from 0. */
  stages: z.array(StageSchema).min(1).nullable(),
  duration_ms: z.number().positive().nullable(),
  requests: z.number().int().min(1).nullable(),
  warmup_ms: z.number().nonnegative(),
  cooldown_ms: z.number().nonnegative(),
  seed: z.number().int(),
  question_order: z.enum(QUESTION_ORDERS),
  set: z.string(),
  /** How many tokens, never their values. */
  tokens: z.number().int().min(1),
  token_weights: z.array(z.number().positive()).nullable(),
  shard: ShardSchema.nullable(),
  start_at: z.iso.datetime({ offset: true }).nullable(),
  /**
   * `--conversations`: an arrival (open) or a virtual user's iteration (closed) plays a whole
   * conversation of the dataset, its turns in order in one session; additive (absent: false).
   */
  conversations: z.boolean().default(false),
  /** `--think-time`: the wait between a turn's end and the next turn; null: none. */
  think_time: ThinkTimeSchema.nullable().default(null),
  /**
   * `--abandon SHARE[@AFTER]`: that share of the arrivals is closed by the client after a delay
   * drawn uniformly from [after_min_ms, after_max_ms] (seeded by the arrival), as a user closing
   * the tab; recorded `abandoned`. Additive (absent: null).
   */
  abandon: z
    .object({
      share: z.number().min(0).max(1),
      after_min_ms: z.number().nonnegative(),
      after_max_ms: z.number().nonnegative(),
    })
    .nullable()
    .optional(),
});
export type LoadSpecShape = z.infer<typeof LoadSpecShapeSchema>;

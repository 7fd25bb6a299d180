/**
 * @module sim/model-profile
 * What one simulated model's behaviour is made of (its schema and type), apart from the built-in
 * profiles and their lookup (sim/profiles), so that every source of profiles — the built-ins, a
 * config's overrides, the kit's mock model names (sim/mock-models) — stands on it without a circle.
 */
import { z } from 'zod';

export const LogNormalSchema = z
  .strictObject({ median: z.number().positive(), p99: z.number().positive() })
  .refine((d) => d.p99 >= d.median, 'p99 must be at least the median');
export const Probability = z.number().min(0).max(1);

/** One model's behaviour. */
export const ModelProfileSchema = z.object({
  /** The name the multi-model ids part shows when the request gives no display_name. */
  model_name: z.string().min(1),
  provider: z.string().nullable().default(null),
  /** Request start → end of the search section (retrieval). */
  pre_answer_ms: LogNormalSchema,
  /** End of search → the first part the model produces (reasoning_start or the answer). */
  first_token_ms: LogNormalSchema,
  /** Between two tokens of the reasoning or the answer. */
  token_ms: LogNormalSchema,
  /** Sends reasoning packets before the answer. */
  reasoning: z.boolean().default(false),
  /** Chance a sentence cites a retrieved document other than its source. */
  wrong_citation_rate: Probability.default(0),
  /** Chance a sentence's citation is left out. */
  missed_citation_rate: Probability.default(0),
  /** Chance the answer fails mid-way with a MODEL_ERROR streaming error. */
  error_rate: Probability.default(0),
  /** How many of the best-matching sentences the answer uses (at most; fewer if fewer match). */
  answer_sentences: z.number().int().min(1).max(6).default(3),
  /** Deep research: how long each step of a research agent takes (its search, its report), before time_scale. */
  deep_research_step_ms: LogNormalSchema.default({ median: 20_000, p99: 45_000 }),
  /**
   * What a conversation's history costs: milliseconds added to the time to the first token per
   * token of the session's earlier messages (questions and answers), before time_scale.
   */
  history_ms_per_token: z.number().nonnegative().default(0.5),
  /** The answer cut or padded to this many tokens; null: as many as its sentences have. */
  answer_tokens: z.number().int().min(1).nullable().default(null),
  /** Retrieval tools called before answering: null as the catalogue's matching picks, 0 none, n the first n. */
  tool_calls: z.number().int().min(0).nullable().default(null),
});
export type ModelProfile = z.output<typeof ModelProfileSchema>;

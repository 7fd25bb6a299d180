/**
 * @module sim/profiles
 * Model profiles: how fast a simulated model answers, how well it cites, whether it reasons first
 * and how often it fails. Different profiles are what make a comparison between models meaningful.
 * Timings are log-normal (median and p99, in milliseconds of real time before `time_scale`).
 * Profiles are keyed by model_version, or `provider/model_version` for a provider-specific entry;
 * `default` is the service's configured model, used when a request has no override.
 */
import { z } from 'zod';
import type { LLMOverride } from '../api/index.js';
import { mockModelProfile } from './mock-models.js';
import { LogNormalSchema, ModelProfileSchema, Probability, type ModelProfile } from './model-profile.js';

export { ModelProfileSchema, type ModelProfile } from './model-profile.js';

/** What a config may give for a profile: any subset, laid over the built-in of that key or `default`. */
export const ModelProfileOverrideSchema = z.strictObject({
  pre_answer_ms: LogNormalSchema.optional(),
  first_token_ms: LogNormalSchema.optional(),
  token_ms: LogNormalSchema.optional(),
  model_name: z.string().min(1).optional(),
  provider: z.string().nullable().optional(),
  reasoning: z.boolean().optional(),
  wrong_citation_rate: Probability.optional(),
  missed_citation_rate: Probability.optional(),
  error_rate: Probability.optional(),
  answer_sentences: z.number().int().min(1).max(6).optional(),
  deep_research_step_ms: LogNormalSchema.optional(),
  history_ms_per_token: z.number().nonnegative().optional(),
  answer_tokens: z.number().int().min(1).nullable().optional(),
  tool_calls: z.number().int().min(0).nullable().optional(),
});
export type ModelProfileOverride = z.input<typeof ModelProfileOverrideSchema>;

const SEARCH = { median: 250, p99: 800 };
const GPT_4O: ModelProfile = {
  model_name: 'gpt-4o',
  provider: 'openai',
  pre_answer_ms: SEARCH,
  first_token_ms: { median: 700, p99: 2000 },
  token_ms: { median: 22, p99: 70 },
  reasoning: false,
  wrong_citation_rate: 0.02,
  missed_citation_rate: 0.03,
  error_rate: 0,
  answer_sentences: 3,
  deep_research_step_ms: { median: 20_000, p99: 45_000 },
  history_ms_per_token: 0.5,
  answer_tokens: null,
  tool_calls: null,
};

/** The built-in profiles; a config can override any field of these or add new keys. */
export const BUILTIN_PROFILES: Readonly<Record<string, ModelProfile>> = {
  default: GPT_4O,
  'gpt-4o': GPT_4O,
  'gpt-4o-mini': {
    model_name: 'gpt-4o-mini',
    provider: 'openai',
    pre_answer_ms: SEARCH,
    first_token_ms: { median: 300, p99: 900 },
    token_ms: { median: 12, p99: 40 },
    reasoning: false,
    wrong_citation_rate: 0.15,
    missed_citation_rate: 0.25,
    error_rate: 0,
    answer_sentences: 2,
    deep_research_step_ms: { median: 12_000, p99: 30_000 },
    history_ms_per_token: 0.25,
    answer_tokens: null,
    tool_calls: null,
  },
  'claude-sonnet-4': {
    model_name: 'claude-sonnet-4',
    provider: 'anthropic',
    pre_answer_ms: SEARCH,
    first_token_ms: { median: 900, p99: 2500 },
    token_ms: { median: 18, p99: 60 },
    reasoning: true,
    wrong_citation_rate: 0.02,
    missed_citation_rate: 0.03,
    error_rate: 0,
    answer_sentences: 3,
    deep_research_step_ms: { median: 25_000, p99: 55_000 },
    history_ms_per_token: 0.6,
    answer_tokens: null,
    tool_calls: null,
  },
};

/**
 * Lays the config's overrides over the built-ins. A new key starts from `default`. Throws a zod error
 * if a merged profile is invalid (e.g. p99 below the median after merging).
 */
export function mergeProfiles(overrides: Readonly<Record<string, ModelProfileOverride>>): Record<string, ModelProfile> {
  const merged: Record<string, ModelProfile> = { ...BUILTIN_PROFILES };
  for (const [key, override] of Object.entries(overrides)) {
    const base = merged[key] ?? { ...GPT_4O, model_name: key, provider: null };
    const given = Object.fromEntries(Object.entries(override).filter(([, v]) => v !== undefined));
    merged[key] = ModelProfileSchema.parse({ ...base, ...given });
  }
  return merged;
}

/** The profile a request's override selects, and the model name to show for it. */
export interface ResolvedProfile {
  key: string;
  profile: ModelProfile;
  modelName: string;
  /** The provider has this model; false: it answers "model not found" (NOT_FOUND). */
  known: boolean;
}

/**
 * Picks the profile for an override as the service resolves one (backend/onyx/llm/factory.py,
 * `_resolve_provider_and_model`): `provider/model_version` first, then `model_version`, then a kit
 * mock model's name (`mock-ttft500-itl20-len400-tools1`, mock-models.ts). No override
 * (or one without a model_version) is the service's configured model (`default`). A provider no
 * profile has is one the service does not have: it falls back to its default model, silently. A
 * model_version no profile has, of a provider it has (or of the default provider), is sent to the
 * provider as named, and the provider answers "model not found": `known` is false and the engine
 * answers with that streaming error (NOT_FOUND), as the service does for `gpt-4o-mnii`.
 */
export function resolveProfile(
  profiles: Readonly<Record<string, ModelProfile>>,
  override: LLMOverride | null | undefined,
): ResolvedProfile {
  const fallback = profiles.default ?? GPT_4O;
  const version = override?.model_version ?? null;
  const provider = override?.model_provider ?? null;
  const display = override?.display_name ?? null;
  const configured = { key: 'default', profile: fallback, modelName: display ?? fallback.model_name, known: true };
  if (version === null) return configured;
  const keys = provider === null ? [version] : [`${provider}/${version}`, version];
  for (const key of keys) {
    const profile = profiles[key];
    if (profile !== undefined) return { key, profile, modelName: display ?? version, known: true };
  }
  const mock = mockModelProfile(version, fallback);
  if (mock !== undefined) return { key: version, profile: mock, modelName: display ?? version, known: true };
  const providers = new Set(
    Object.entries(profiles).flatMap(([key, p]) => [p.provider, key.includes('/') ? key.split('/')[0]! : null]),
  );
  if (provider !== null && !providers.has(provider)) return configured;
  return { key: 'default', profile: fallback, modelName: display ?? version, known: false };
}

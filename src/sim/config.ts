/**
 * @module sim/config
 * The simulator's config file (`chatbench serve --sim-config sim.json`), validated by zod with every
 * problem listed by its path. Every field is optional; an empty object is the default simulator.
 * Unknown keys are errors here (a typo must not be silently ignored), unlike request bodies.
 */
import { z } from 'zod';
import { TokenEntrySchema } from './auth.js';
import { ChatConfigSchema } from './chat/index.js';
import { SimJudgeConfigSchema } from './judge/config.js';
import { OpenUrlsConfigSchema } from './open-urls.js';
import { ProjectEntrySchema } from './projects.js';
import { RateLimitsSchema } from './rate-limit.js';
import { OnyxReleaseSchema } from './releases.js';
import { ThreadpoolConfigSchema } from './threadpool.js';
import { VALIDATION_SHAPES } from './validation.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export const SimConfigSchema = z.strictObject({
  /**
   * The Onyx release to speak, "4.5" or "4.5.2" (docs/reference/onyx-releases.md: from 2.7 to 4.6); default the
   * newest. Every documented difference of that release is written: session line, placement,
   * packets, errors, 429 bodies, multi-model support, `GET /version`.
   */
  onyx_release: OnyxReleaseSchema.optional(),
  /** The prefix routes are served under; the deployed service has `/api` behind its proxy. */
  base_path: z
    .string()
    .regex(/^(\/[^/\s?#]+)*\/?$/, 'base_path must be "" or a path such as "/api"')
    .transform((path) => path.replace(/\/$/, ''))
    .default('/api'),
  /** Replaces the default tokens when given. */
  tokens: z.array(TokenEntrySchema).min(1, 'give at least one token, or leave tokens out for the defaults').optional(),
  /** A chat request with a missing or unknown token runs as the anonymous user. */
  anonymous_chat: z.boolean().default(false),
  /** Replaces the default projects when given. */
  projects: z.array(ProjectEntrySchema).optional(),
  open_urls: OpenUrlsConfigSchema.prefault({}),
  validation_shape: z.enum(VALIDATION_SHAPES).default('description'),
  rate_limits: RateLimitsSchema.prefault({}),
  max_body_bytes: z.number().int().positive().default(DEFAULT_MAX_BODY_BYTES),
  chat: ChatConfigSchema.prefault({}),
  /** The request thread pool `GET /health/ready` reports on (sim/threadpool). */
  threadpool: ThreadpoolConfigSchema.prefault({}),
  /** The rule-based judge at POST /v1/chat/completions (sim/judge). */
  judge: SimJudgeConfigSchema.prefault({}),
});
/** What a config file holds. */
export type SimConfigInput = z.input<typeof SimConfigSchema>;
/** The config with every default applied. */
export type SimConfig = z.output<typeof SimConfigSchema>;

/** A config that failed validation; `problems` are complete lines, `source: path: message`. */
export class SimConfigError extends Error {
  override readonly name = 'SimConfigError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** `rate_limits.budgets.global.tokens`; array indexes as `tokens[1]`; the root as `(root)`. */
function pathOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  return out === '' ? '(root)' : out;
}

/**
 * Validates a parsed config file and applies every default. `source` names the file in messages
 * (e.g. `sim.json: rate_limits.budgets.global.tokens: expected number, received string`).
 * Throws SimConfigError listing every problem at once.
 */
export function parseSimConfig(input: unknown, source = 'config'): SimConfig {
  const result = SimConfigSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${source}: ${pathOf(issue.path)}: ${issue.message.replace(/^Invalid input: /, '')}`,
  );
  throw new SimConfigError(problems);
}

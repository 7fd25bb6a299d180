/**
 * @module sim/rate-limit
 * The two kinds of 429 a client of the service meets (docs/reference/wire-format.md "Errors and their bodies"):
 * - usage budgets (global and per user): tokens per fixed window, charged after each chat with the
 *   tokens the engine produced; once spent, every request is refused until the window resets;
 * - a requests-per-second token bucket (global and per token) that a gateway in front of the
 *   service would apply, for capacity tests.
 * Both take a clock so tests need not wait.
 */
import { z } from 'zod';

export const BudgetSchema = z.strictObject({
  tokens: z.number().int().positive(),
  window_s: z.number().positive(),
});
export type Budget = z.infer<typeof BudgetSchema>;
export const BucketSchema = z.strictObject({
  rate: z.number().positive(),
  burst: z.number().int().positive(),
});
export type Bucket = z.infer<typeof BucketSchema>;

export const RateLimitsSchema = z.strictObject({
  budgets: z.strictObject({ global: BudgetSchema.optional(), per_user: BudgetSchema.optional() }).prefault({}),
  requests_per_second: z
    .strictObject({ global: BucketSchema.optional(), per_token: BucketSchema.optional() })
    .prefault({}),
});
export type RateLimits = z.infer<typeof RateLimitsSchema>;

export const RATE_LIMIT_SCOPES = ['user', 'global', 'gateway'] as const;
export type RateLimitScope = (typeof RATE_LIMIT_SCOPES)[number];

/** A refusal: which limit, and when (ms since the epoch) it lifts. */
export interface Refusal {
  readonly scope: RateLimitScope;
  readonly resetAtMs: number;
}

interface Window {
  startMs: number;
  used: number;
}

/** Fixed windows that start at a key's first request; `check` before a chat, `charge` after it. */
function createBudget(budget: Budget, now: () => number) {
  const windows = new Map<string, Window>();
  const windowMs = budget.window_s * 1000;
  const current = (key: string): Window => {
    const t = now();
    let window = windows.get(key);
    if (window === undefined || t >= window.startMs + windowMs) {
      window = { startMs: t, used: 0 };
      windows.set(key, window);
    }
    return window;
  };
  return {
    /** The time the key's window resets when its budget is spent, else undefined. */
    spentUntil(key: string): number | undefined {
      const window = current(key);
      return window.used >= budget.tokens ? window.startMs + windowMs : undefined;
    },
    charge(key: string, tokens: number): void {
      current(key).used += tokens;
    },
  };
}

/** A classic token bucket per key: `burst` capacity, refilled at `rate` per second. */
function createBucket(bucket: Bucket, now: () => number) {
  const state = new Map<string, { level: number; atMs: number }>();
  return {
    /** Takes one request's token; when empty, returns the time (ms) one will be there. */
    take(key: string): number | undefined {
      const t = now();
      const s = state.get(key) ?? { level: bucket.burst, atMs: t };
      s.level = Math.min(bucket.burst, s.level + ((t - s.atMs) / 1000) * bucket.rate);
      s.atMs = t;
      state.set(key, s);
      if (s.level >= 1) {
        s.level -= 1;
        return undefined;
      }
      return t + ((1 - s.level) / bucket.rate) * 1000;
    },
  };
}

/** All configured limits. Every method is a no-op (never refuses) for a limit that is off. */
export function createRateLimiter(limits: RateLimits, now: () => number = Date.now) {
  const globalBudget = limits.budgets.global && createBudget(limits.budgets.global, now);
  const userBudget = limits.budgets.per_user && createBudget(limits.budgets.per_user, now);
  const globalBucket = limits.requests_per_second.global && createBucket(limits.requests_per_second.global, now);
  const tokenBucket = limits.requests_per_second.per_token && createBucket(limits.requests_per_second.per_token, now);
  return {
    /** Gateway check for every request; keyed by the raw credential, known or not. */
    admitRequest(credential: string): Refusal | undefined {
      const resetAtMs = tokenBucket?.take(credential) ?? globalBucket?.take('*');
      return resetAtMs === undefined ? undefined : { scope: 'gateway', resetAtMs };
    },
    /** Budget check before a chat; the user's budget is reported before the global one. */
    admitChat(userId: string): Refusal | undefined {
      const userReset = userBudget?.spentUntil(userId);
      if (userReset !== undefined) return { scope: 'user', resetAtMs: userReset };
      const globalReset = globalBudget?.spentUntil('*');
      return globalReset === undefined ? undefined : { scope: 'global', resetAtMs: globalReset };
    },
    /** Charges a finished chat's tokens to both budgets. */
    charge(userId: string, tokens: number): void {
      userBudget?.charge(userId, tokens);
      globalBudget?.charge('*', tokens);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Whole seconds until `resetAtMs`, rounded up and at least 1, as `Retry-After` carries them. */
export function retryAfterSeconds(resetAtMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
}

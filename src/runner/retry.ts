/**
 * @module runner/retry
 * When an attempt is tried again, and after how long. Retried: network errors, 5xx, a streaming
 * error the service marks `is_retryable: true` (a provider's rate limit, an unavailable model), and
 * with `retry429` a 429, honouring its Retry-After up to a cap. Never retried: a streaming error
 * with `is_retryable` false or absent (MODEL_REFUSAL, BUDGET_EXCEEDED, ...: the same request would
 * fail the same way), timeouts, empty answers, invalid responses, other 4xx (a retry would not
 * change them, or would double the load of a slow target). Backoff is exponential with equal jitter from a seeded RNG, so a run's waits reproduce.
 */
import { seededUniform } from '../plan/arrivals.js';
import type { Exchange } from '../client/exchange.js';

export interface BackoffOptions {
  /** First delay's upper bound, ms (default 250); doubles per attempt. */
  baseMs?: number;
  /** Bound of any delay, ms (default 10 s). */
  maxMs?: number;
  /** Seed of the jitter RNG (default 1). */
  seed?: number;
}

export interface RetryPolicy {
  retries: number;
  retry429: boolean;
  retryAfterCapS: number;
  backoff: Required<BackoffOptions>;
}

/** Exponential backoff with equal jitter: half the bound plus a random part of the other half. */
export function backoffMs(attempt: number, backoff: Required<BackoffOptions>, random: () => number): number {
  const bound = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return bound / 2 + random() * (bound / 2);
}

/**
 * The wait before the next attempt, or null when `exchange` (attempt number `attempt`, from 1) is
 * final: not retryable, or the retries are spent.
 */
export function retryDelayMs(
  exchange: Exchange,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  if (attempt > policy.retries) return null;
  const serverError = exchange.outcome === 'http_error' && (exchange.http_status ?? 0) >= 500;
  const retryableStream = exchange.outcome === 'stream_error' && exchange.error_retryable === true;
  if (exchange.outcome === 'network' || serverError || retryableStream)
    return backoffMs(attempt, policy.backoff, random);
  if (exchange.outcome === 'rate_limited' && policy.retry429) {
    const retryAfter = exchange.rate_limit?.retry_after_s;
    const waitS = retryAfter == null ? backoffMs(attempt, policy.backoff, random) / 1000 : retryAfter;
    return Math.min(waitS, policy.retryAfterCapS) * 1000;
  }
  return null;
}

/** The seeded generator of retry jitter: the plan's mulberry32, one implementation for both. */
export const seededRandom = seededUniform;

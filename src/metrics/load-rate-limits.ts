/**
 * @module metrics/load-rate-limits
 * Rate-limit discovery (issue 5 §2): when the first 429 came back, the share of 429s per token and
 * per scope (user, global, gateway), the Retry-After the service asked for; and retries, reported
 * apart from first attempts.
 *
 * A load record's `sent_offset_ms` is its first attempt's send, its figures the final attempt's,
 * and each attempt keeps its outcome, Retry-After and duration, not its send time. A first attempt's
 * 429 is therefore timed exactly (sent + headers, or + that attempt's duration when retries
 * followed); a later attempt's by the request's end (arrival + response_ms), an upper bound.
 */
import type { RateLimitFigures, RetryFigures, ShareRow } from '../records/load-summary.js';
import { emptyOutcomeCounts } from '../records/summary.js';
import { latencyStats } from './stats.js';
import { arrivalOf, doneOf, type LoadRecord } from './load-window.js';

/** The key of records without a token index or a scope. */
export const NO_KEY = 'none';

/** When this record's first 429 came back (ms after the schedule's zero), or undefined. */
function first429Of(r: LoadRecord): number | undefined {
  let index = r.attempts.findIndex((a) => a.outcome === 'rate_limited');
  if (index === -1 && r.outcome === 'rate_limited') index = Math.max(0, r.attempts.length - 1);
  if (index === -1) return undefined;
  if (index > 0) return doneOf(r);
  if (r.attempts.length <= 1) return r.sent_offset_ms + (r.headers_ms ?? r.total_ms ?? 0);
  return r.sent_offset_ms + (r.attempts[0]?.total_ms ?? 0);
}

function shareRows(records: readonly LoadRecord[], keyOf: (r: LoadRecord) => string, totalLimited: number): ShareRow[] {
  const rows = new Map<string, { requests: number; rate_limited: number }>();
  for (const r of records) {
    const key = keyOf(r);
    const row = rows.get(key) ?? { requests: 0, rate_limited: 0 };
    row.requests += 1;
    if (r.outcome === 'rate_limited') row.rate_limited += 1;
    rows.set(key, row);
  }
  const order = (a: string, b: string) =>
    a === NO_KEY ? 1 : b === NO_KEY ? -1 : a.localeCompare(b, 'en', { numeric: true });
  return [...rows.entries()]
    .sort(([a], [b]) => order(a, b))
    .map(([key, row]) => ({
      key,
      ...row,
      share_of_429s: totalLimited > 0 ? row.rate_limited / totalLimited : null,
      rate_limited_rate: row.requests > 0 ? row.rate_limited / row.requests : null,
    }));
}

/**
 * Rate-limit figures over every record of the run (discovery is about the whole run, warm-up
 * included). Shares count final outcomes; `rate_limited_attempts` counts every 429 attempt.
 * by_scope lists only rate-limited records (the scope comes from a 429's body).
 */
export function rateLimitFigures(records: readonly LoadRecord[]): RateLimitFigures {
  let first: number | null = null;
  let limitedAttempts = 0;
  const retryAfter: number[] = [];
  for (const r of records) {
    const at = first429Of(r);
    if (at !== undefined && (first === null || at < first)) first = at;
    for (const a of r.attempts) {
      if (a.outcome !== 'rate_limited') continue;
      limitedAttempts += 1;
      if (a.retry_after_s !== null) retryAfter.push(a.retry_after_s);
    }
  }
  const firstArrival =
    first === null ? null : Math.min(...records.filter((r) => first429Of(r) === first).map(arrivalOf));
  const limited = records.filter((r) => r.outcome === 'rate_limited');
  return {
    first_429_ms: first,
    ok_before_first_429: records.filter(
      (r) => r.outcome === 'ok' && (firstArrival === null || arrivalOf(r) < firstArrival),
    ).length,
    rate_limited: limited.length,
    rate_limited_attempts: limitedAttempts,
    by_token: shareRows(records, (r) => (r.token_index === null ? NO_KEY : String(r.token_index)), limited.length),
    by_scope: shareRows(limited, (r) => r.rate_limit?.scope ?? NO_KEY, limited.length),
    retry_after_s: latencyStats(retryAfter),
  };
}

/** Retries apart from first attempts: what the service did the first time, and how the retried requests ended. */
export function retryFigures(records: readonly LoadRecord[]): RetryFigures {
  const first_attempts = emptyOutcomeCounts();
  const after_retry = emptyOutcomeCounts();
  let retried = 0;
  let retryAttempts = 0;
  for (const r of records) {
    const firstAttempt = r.attempts[0]?.outcome ?? r.outcome;
    first_attempts[firstAttempt] += 1;
    if (r.attempts.length > 1) {
      retried += 1;
      retryAttempts += r.attempts.length - 1;
      after_retry[r.outcome] += 1;
    }
  }
  return { retried_requests: retried, retry_attempts: retryAttempts, first_attempts, after_retry };
}

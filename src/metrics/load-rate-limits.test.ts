import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../records/record.js';
import { rateLimitFigures, retryFigures } from './load-rate-limits.js';
import { toLoadRecord } from './load-window.js';
import { makeRecord } from './test-records.js';

type Attempt = RequestRecord['attempts'][number];
const attempt = (outcome: Attempt['outcome'], retry_after_s: number | null = null, total_ms = 20): Attempt => ({
  attempt: 0,
  outcome,
  http_status: outcome === 'rate_limited' ? 429 : 200,
  error_code: null,
  retry_after_s,
  total_ms,
});

let n = 0;
function rec(at: number, token: number | null, attempts: Attempt[], scope: string | null = null) {
  n += 1;
  const last = attempts[attempts.length - 1]!;
  return toLoadRecord(
    makeRecord({
      question_id: `q${n}`,
      repeat: n,
      scheduled_offset_ms: at,
      sent_offset_ms: at,
      queue_ms: 0,
      outcome: last.outcome,
      total_ms: last.total_ms,
      headers_ms: 5,
      token_index: token,
      attempts: attempts.map((a, i) => ({ ...a, attempt: i })),
      rate_limit: last.outcome === 'rate_limited' ? { retry_after_s: last.retry_after_s, scope, reset_at: null } : null,
    }),
  );
}

describe('rateLimitFigures', () => {
  const records = [
    rec(0, 0, [attempt('ok')]),
    rec(100, 1, [attempt('ok')]),
    rec(200, 0, [attempt('ok')]),
    rec(300, 1, [attempt('rate_limited', 2)], 'user'),
    rec(400, 0, [attempt('ok')]),
    rec(500, 1, [attempt('rate_limited', 1)], 'user'),
    rec(600, 1, [attempt('rate_limited', 3)], 'gateway'),
    rec(700, null, [attempt('ok')]),
  ];

  it('times the first 429 and counts the ok requests that arrived before it', () => {
    const figures = rateLimitFigures(records);
    expect(figures.first_429_ms).toBe(305);
    expect(figures.ok_before_first_429).toBe(3);
    expect(figures.rate_limited).toBe(3);
    expect(figures.rate_limited_attempts).toBe(3);
    expect(figures.retry_after_s).toMatchObject({ count: 3, min: 1, max: 3, p50: 2 });
  });

  it('shares 429s per token and per scope, the token-less last', () => {
    const figures = rateLimitFigures(records);
    expect(figures.by_token).toEqual([
      { key: '0', requests: 3, rate_limited: 0, share_of_429s: 0, rate_limited_rate: 0 },
      { key: '1', requests: 4, rate_limited: 3, share_of_429s: 1, rate_limited_rate: 0.75 },
      { key: 'none', requests: 1, rate_limited: 0, share_of_429s: 0, rate_limited_rate: 0 },
    ]);
    expect(figures.by_scope.map((r) => [r.key, r.rate_limited, r.share_of_429s])).toEqual([
      ['gateway', 1, 1 / 3],
      ['user', 2, 2 / 3],
    ]);
  });

  it('times a 429 that a retry recovered from the first attempt', () => {
    const figures = rateLimitFigures([
      rec(1000, 0, [attempt('rate_limited', 1, 30), attempt('ok', null, 200)]),
      rec(1500, 0, [attempt('rate_limited', 1)]),
    ]);
    expect(figures.first_429_ms).toBe(1030);
    expect(figures.rate_limited).toBe(1);
    expect(figures.rate_limited_attempts).toBe(2);
  });

  it('has no first 429 and null shares without 429s', () => {
    const figures = rateLimitFigures([rec(0, 0, [attempt('ok')])]);
    expect(figures.first_429_ms).toBeNull();
    expect(figures.ok_before_first_429).toBe(1);
    expect(figures.by_token[0]?.share_of_429s).toBeNull();
    expect(figures.by_scope).toEqual([]);
    expect(figures.retry_after_s).toBeNull();
  });
});

describe('retryFigures', () => {
  it('reports first attempts apart from the retried requests’ final outcomes', () => {
    const figures = retryFigures([
      rec(0, 0, [attempt('ok')]),
      rec(0, 0, [attempt('rate_limited', 1), attempt('ok')]),
      rec(0, 0, [attempt('network'), attempt('network'), attempt('http_error')]),
    ]);
    expect(figures.retried_requests).toBe(2);
    expect(figures.retry_attempts).toBe(3);
    expect(figures.first_attempts).toMatchObject({ ok: 1, rate_limited: 1, network: 1 });
    expect(figures.after_retry).toMatchObject({ ok: 1, http_error: 1, rate_limited: 0 });
  });
});

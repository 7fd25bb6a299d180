import { expect, it } from 'vitest';
import { createRateLimiter, retryAfterSeconds } from './rate-limit.js';

it('limits nothing when no limit is configured', () => {
  const limiter = createRateLimiter({ budgets: {}, requests_per_second: {} }, () => 0);
  for (let i = 0; i < 1_000; i += 1) expect(limiter.admitRequest('t')).toBeUndefined();
  limiter.charge('u', 1e9);
  expect(limiter.admitChat('u')).toBeUndefined();
});

it('a budget window starts at first use and resets after window_s', () => {
  let t = 1_000;
  const limiter = createRateLimiter(
    { budgets: { per_user: { tokens: 10, window_s: 2 } }, requests_per_second: {} },
    () => t,
  );
  expect(limiter.admitChat('u')).toBeUndefined();
  limiter.charge('u', 9);
  expect(limiter.admitChat('u')).toBeUndefined(); // 9 < 10: still admitted, may overshoot
  limiter.charge('u', 5);
  expect(limiter.admitChat('u')).toEqual({ scope: 'user', resetAtMs: 3_000 });
  t = 2_999;
  expect(limiter.admitChat('u')).toEqual({ scope: 'user', resetAtMs: 3_000 });
  t = 3_000;
  expect(limiter.admitChat('u')).toBeUndefined();
});

it('a token bucket allows the burst, then one request per 1/rate seconds', () => {
  let t = 0;
  const limiter = createRateLimiter(
    { budgets: {}, requests_per_second: { per_token: { rate: 2, burst: 3 } } },
    () => t,
  );
  expect([1, 2, 3].map(() => limiter.admitRequest('a'))).toEqual([undefined, undefined, undefined]);
  expect(limiter.admitRequest('a')).toEqual({ scope: 'gateway', resetAtMs: 500 });
  expect(limiter.admitRequest('b')).toBeUndefined();
  t = 500;
  expect(limiter.admitRequest('a')).toBeUndefined();
  expect(limiter.admitRequest('a')).toMatchObject({ scope: 'gateway' });
});

it.each([
  [1_000, 0, 1],
  [1_001, 0, 2],
  [0, 0, 1], // never 0: a client must wait at least a second
  [59_500, 0, 60],
])('retryAfterSeconds(%i, %i) = %i', (reset, now, want) => expect(retryAfterSeconds(reset, now)).toBe(want));

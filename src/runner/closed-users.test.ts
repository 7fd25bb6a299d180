import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Exchange } from '../client/exchange.js';
import { userSteps } from '../plan/arrivals.js';
import type { LoadRequest } from '../plan/load-plan.js';
import { runClosedUsers } from './closed-users.js';
import { fakeExchange, plannedRequest } from './testing/fake-client.js';
import { createTokenPool } from './token-pool.js';
import type { UnscoredRecord } from './unscored-record.js';

const plan = {
  requestFor: (index: number): LoadRequest => ({
    urls: null,
    payload: null,
    planned: plannedRequest(index, { repeat: index, key: `q|s|stream|${index}` }),
  }),
};

function slowTarget(delayMs: number) {
  let inFlight = 0;
  let peak = 0;
  const timeline: Array<{ at: number; inFlight: number }> = [];
  return {
    baseUrl: 'http://fake.invalid/api',
    peak: () => peak,
    timeline,
    send(_request: LoadRequest, _token: number, signal: AbortSignal): Promise<Exchange> {
      inFlight++;
      peak = Math.max(peak, inFlight);
      timeline.push({ at: performance.now(), inFlight });
      const sent = performance.now();
      return new Promise((resolve) => {
        const done = (outcome: Exchange['outcome']) => {
          clearTimeout(timer);
          inFlight--;
          resolve(fakeExchange({ sent, outcome, total_ms: performance.now() - sent }));
        };
        const timer = setTimeout(() => done('ok'), delayMs);
        signal.addEventListener('abort', () => done('cancelled'), { once: true });
      });
    },
  };
}

/** On vitest's fake clock (timers and performance.now): time passes only while everyone waits. */
async function onFakeClock<T>(run: () => Promise<T>): Promise<T> {
  const result = run();
  await vi.runAllTimersAsync();
  return result;
}
beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const options = (target: ReturnType<typeof slowTarget>, records: UnscoredRecord[]) => ({
  target,
  plan,
  tokens: createTokenPool(1),
  retry: { retries: 0, retry429: false },
  graceMs: 50,
  onRecord: (r: UnscoredRecord) => void records.push(r),
});

it('keeps exactly N users busy, each sending when its last request ends, up to the request bound', async () => {
  const records: UnscoredRecord[] = [];
  const target = slowTarget(15);
  const result = await onFakeClock(() =>
    runClosedUsers({ ...options(target, records), steps: userSteps({ users: 3 }), endMs: null, maxRequests: 30 }),
  );
  expect(result.sent).toBe(30);
  expect(target.peak()).toBe(3);
  expect(records).toHaveLength(30);
  expect(new Set(records.map((r) => r.key)).size).toBe(30);
  // Closed model: nothing was scheduled, so scheduled = sent and queue_ms = 0.
  for (const r of records) expect([r.scheduled_offset_ms, r.queue_ms]).toEqual([r.sent_offset_ms, 0]);
});

it("starts a step's users one per turn of the loop, not all in one turn (session 39: twenty held it ~10 ms)", async () => {
  const records: UnscoredRecord[] = [];
  const target = slowTarget(15);
  const running = runClosedUsers({
    ...options(target, records),
    steps: userSteps({ users: 3 }),
    endMs: null,
    maxRequests: 3,
  });
  for (let i = 0; i < 50; i++) await Promise.resolve(); // every microtask, no macrotask
  expect(target.timeline).toHaveLength(1);
  await vi.runAllTimersAsync();
  expect((await running).sent).toBe(3);
  expect(target.peak()).toBe(3);
});

it('stops starting requests at the end of the duration, and a slower service gets fewer of them', async () => {
  const fast: UnscoredRecord[] = [];
  const slow: UnscoredRecord[] = [];
  await onFakeClock(() =>
    runClosedUsers({ ...options(slowTarget(20), fast), steps: userSteps({ users: 2 }), endMs: 300, maxRequests: null }),
  );
  await onFakeClock(() =>
    runClosedUsers({
      ...options(slowTarget(100), slow),
      steps: userSteps({ users: 2 }),
      endMs: 300,
      maxRequests: null,
    }),
  );
  expect(fast).toHaveLength(2 * 15); // each user starts at 0, 20, … 280 ms
  expect(slow).toHaveLength(2 * 3); // … at 0, 100, 200 ms
  expect(Math.max(...slow.map((r) => r.sent_offset_ms))).toBe(200);
});

it('numbers arrivals globally in a shard so keys never collide in a merge', async () => {
  const records: UnscoredRecord[] = [];
  await onFakeClock(() =>
    runClosedUsers({
      ...options(slowTarget(5), records),
      steps: userSteps({ users: 4 }, { index: 2, count: 3 }),
      endMs: null,
      maxRequests: 6,
      shard: { index: 2, count: 3 },
    }),
  );
  expect(records.map((r) => r.repeat).sort((a, b) => a - b)).toEqual([1, 4, 7, 10, 13, 16]);
});

it('ramps the users with the stages', async () => {
  const records: UnscoredRecord[] = [];
  const target = slowTarget(10);
  const steps = userSteps({
    stages: [
      { duration_ms: 200, target: 4 },
      { duration_ms: 100, target: 4 },
      { duration_ms: 100, target: 0 },
    ],
  });
  const start = performance.now();
  await onFakeClock(() => runClosedUsers({ ...options(target, records), steps, endMs: 400, maxRequests: null }));
  const early = target.timeline.filter((t) => t.at - start < 50).map((t) => t.inFlight);
  const middle = target.timeline.filter((t) => t.at - start >= 200 && t.at - start < 300).map((t) => t.inFlight);
  expect(Math.max(...early)).toBe(1);
  expect(Math.max(...middle)).toBe(4);
});

it('ends in-flight requests as cancelled after the grace when interrupted', async () => {
  const records: UnscoredRecord[] = [];
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const result = await onFakeClock(() =>
    runClosedUsers({
      ...options(slowTarget(10_000), records),
      steps: userSteps({ users: 3 }),
      endMs: 60_000,
      maxRequests: null,
      signal: controller.signal,
    }),
  );
  expect(result.interrupted).toBe(true);
  expect(result.duration_ms).toBe(50 + 50); // the interrupt, then the grace
  expect(records.map((r) => r.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
});

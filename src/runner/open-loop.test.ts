import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arrivals, constantProfile } from '../plan/arrivals.js';
import type { LoadRequest } from '../plan/load-plan.js';
import type { Exchange } from '../client/exchange.js';
import { fakeExchange, plannedRequest } from './testing/fake-client.js';
import { runOpenLoop } from './open-loop.js';
import { createTokenPool } from './token-pool.js';
import type { UnscoredRecord } from './unscored-record.js';

const plan = {
  requestFor: (index: number): LoadRequest => ({
    urls: null,
    payload: null,
    planned: plannedRequest(index, { repeat: index, key: `q${index}|s|stream|${index}` }),
  }),
};

/** A target answering each send after `delayMs(n)` (n: the send's number), or when its signal aborts (cancelled). */
function timedTarget(
  delayMs: (n: number) => number,
  outcome: (n: number, attempt: number) => Partial<Exchange> = () => ({}),
) {
  let n = 0;
  const attempts = new Map<string, number>();
  const tokens: number[] = [];
  return {
    baseUrl: 'http://fake.invalid/api',
    tokens,
    send(request: LoadRequest, tokenIndex: number, signal: AbortSignal): Promise<Exchange> {
      const mine = n++;
      const attempt = (attempts.get(request.planned.key) ?? 0) + 1;
      attempts.set(request.planned.key, attempt);
      tokens.push(tokenIndex);
      const sent = performance.now();
      return new Promise((resolve) => {
        const finish = (fields: Partial<Exchange>) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', cancel);
          resolve(fakeExchange({ sent, total_ms: performance.now() - sent, ...fields }));
        };
        const cancel = () => finish({ outcome: 'cancelled' });
        const timer = setTimeout(() => finish(outcome(mine, attempt)), delayMs(mine));
        signal.addEventListener('abort', cancel, { once: true });
      });
    },
  };
}

const common = (target: ReturnType<typeof timedTarget>, records: UnscoredRecord[]) => ({
  target,
  tokens: createTokenPool(2),
  retry: { retries: 0, retry429: false },
  graceMs: 50,
  plan,
  onRecord: (r: UnscoredRecord) => void records.push(r),
});
const schedule = (rate: number, ms: number) =>
  arrivals({ profile: constantProfile(rate, ms), shape: 'constant', seed: 1 });

/** Runs the loop on vitest's fake clock (timers, immediates and performance.now): time passes only when the loop waits. */
async function onFakeClock<T>(run: () => Promise<T>): Promise<T> {
  const result = run();
  await vi.runAllTimersAsync();
  return result;
}

describe('open loop', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('sends every arrival at its time without waiting for answers, one record each', async () => {
    const records: UnscoredRecord[] = [];
    const target = timedTarget(() => 150); // slower than the gaps: requests overlap
    const result = await onFakeClock(() =>
      runOpenLoop({ ...common(target, records), arrivals: schedule(100, 400), maxInFlight: 100 }),
    );
    expect(result).toMatchObject({ planned: 40, sent: 40, unsent: 0, dropped: [], interrupted: false, late_sends: 0 });
    expect(records).toHaveLength(40);
    expect(result.peak_in_flight).toBe(15); // 150 ms answers, one arrival every 10 ms
    for (const r of records) {
      expect(r.queue_ms).toBe(0);
      expect(r.total_ms).toBe(150);
      expect(r.response_ms).toBe(150);
    }
    expect(result.lags_ms.every((lag) => lag === 0)).toBe(true);
    expect(records.map((r) => r.scheduled_offset_ms).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 40 }, (_, i) => i * 10),
    );
    expect(new Set(records.map((r) => r.token_index))).toEqual(new Set([0, 1]));
    expect(result.lags_ms).toHaveLength(40);
  });

  it('waits out a sub-millisecond gap on the timer, never spinning the loop (a tick late at most, never early)', async () => {
    const records: UnscoredRecord[] = [];
    // 4,000/s: every gap is under a millisecond. On the fake clock, time passes only on timers, so
    // a wait that spun in turns of the loop (immediates) would never end.
    const result = await onFakeClock(() =>
      runOpenLoop({
        ...common(
          timedTarget(() => 5),
          records,
        ),
        arrivals: schedule(4000, 2),
        maxInFlight: 100,
      }),
    );
    expect(result).toMatchObject({ planned: 8, sent: 8, unsent: 0, dropped: [] });
    expect(result.lags_ms.every((lag) => lag >= 0 && lag < 1)).toBe(true);
    expect(records.every((r) => r.queue_ms! >= 0 && r.queue_ms! < 1)).toBe(true);
  });

  it('drops arrivals that find the in-flight cap reached, and lists them; records + dropped = planned', async () => {
    const records: UnscoredRecord[] = [];
    const result = await onFakeClock(() =>
      runOpenLoop({
        ...common(
          timedTarget(() => 200),
          records,
        ),
        arrivals: schedule(200, 50),
        maxInFlight: 3,
      }),
    );
    expect(result.sent).toBe(3);
    expect(result.dropped.map((d) => d.scheduled_offset_ms)).toEqual([15, 20, 25, 30, 35, 40, 45]);
    expect(records.length + result.dropped.length + result.unsent).toBe(result.planned);
    expect(result.planned).toBe(10);
  });

  it('queues arrivals beyond the connections: the wait is in response_ms, not in total_ms', async () => {
    const records: UnscoredRecord[] = [];
    const result = await onFakeClock(() =>
      runOpenLoop({
        ...common(
          timedTarget(() => 40),
          records,
        ),
        arrivals: schedule(1000, 5),
        maxInFlight: 100,
        connections: 1,
      }),
    );
    expect(result.queued).toBe(4);
    expect(result.lags_ms).toEqual([0]);
    const byIndex = [...records].sort((a, b) => a.repeat - b.repeat);
    byIndex.forEach((r, i) => {
      expect(r.total_ms).toBe(40);
      expect(r.queue_ms).toBe(i * 40 - i); // arrival i (at i ms) waited for each earlier request (40 ms apiece)
      expect(r.response_ms).toBe(r.queue_ms! + 40);
    });
    expect(result.late_sends).toBe(4);
  });

  it('stops on the signal: no new sends, in-flight cancelled after the grace, the rest counted unsent', async () => {
    const records: UnscoredRecord[] = [];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 130);
    const result = await onFakeClock(() =>
      runOpenLoop({
        ...common(
          timedTarget(() => 10_000),
          records,
        ),
        arrivals: schedule(50, 2000),
        maxInFlight: 100,
        signal: controller.signal,
      }),
    );
    expect(result.interrupted).toBe(true);
    expect(result.sent).toBe(7); // arrivals at 0, 20, … 120 ms
    expect(result.duration_ms).toBe(130 + 50); // the stop, then the grace
    expect(records).toHaveLength(result.sent);
    expect(records.every((r) => r.outcome === 'cancelled')).toBe(true);
    expect(records.length + result.dropped.length + result.unsent).toBe(100);
  });

  it('retries as eval does, keeping every attempt, and stops early when the target refuses connections', async () => {
    const records: UnscoredRecord[] = [];
    const flaky = timedTarget(
      () => 5,
      (_n, attempt) => (attempt === 1 ? { outcome: 'http_error', http_status: 503 } : {}),
    );
    await onFakeClock(() =>
      runOpenLoop({
        ...common(flaky, records),
        retry: { retries: 2, retry429: false, backoff: { baseMs: 10 } },
        arrivals: schedule(100, 30),
        maxInFlight: 10,
      }),
    );
    expect(records.map((r) => [r.outcome, r.attempts.map((a) => a.http_status)])).toEqual(
      Array(3).fill(['ok', [503, 200]]),
    );
    const refused: UnscoredRecord[] = [];
    const down = timedTarget(
      () => 1,
      () => ({ outcome: 'network', error_code: 'ECONNREFUSED', http_status: null }),
    );
    const result = await onFakeClock(() =>
      runOpenLoop({ ...common(down, refused), arrivals: schedule(100, 2000), maxInFlight: 100 }),
    );
    expect(result.run_failed?.message).toMatch(/cannot reach .*connection refused/);
    expect(result.sent).toBe(5); // the early stop decides on the first five
    expect(refused.length + result.unsent).toBe(200);
  });
});

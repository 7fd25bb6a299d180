import { describe, expect, it } from 'vitest';
import { createThreadpool, ThreadpoolConfigSchema } from './threadpool.js';

const pool = (config: Record<string, unknown>, clock: { t: number }) =>
  createThreadpool(ThreadpoolConfigSchema.parse(config), () => clock.t);

describe('threadpool', () => {
  it('counts requests over the size as waiting, without holding them back by default', async () => {
    const clock = { t: 0 };
    const p = pool({ size: 2 }, clock);
    const releases = await Promise.all([p.acquire(), p.acquire(), p.acquire()]);
    expect(releases.every((r) => r !== undefined)).toBe(true);
    expect(p.depth()).toEqual({
      threadpool_total_tokens: 2,
      threadpool_borrowed_tokens: 2,
      threadpool_tasks_waiting: 1,
    });
    releases.forEach((r) => r?.());
    expect(p.depth()).toEqual({
      threadpool_total_tokens: 2,
      threadpool_borrowed_tokens: 0,
      threadpool_tasks_waiting: 0,
    });
  });

  it('with queue_requests, a request waits for a free token, and an aborted wait leaves the queue', async () => {
    const p = pool({ size: 1, queue_requests: true }, { t: 0 });
    const first = await p.acquire();
    let second: (() => void) | undefined;
    const waiting = p.acquire().then((r) => (second = r));
    const gone = new AbortController();
    const third = p.acquire(gone.signal);
    expect(p.depth().threadpool_tasks_waiting).toBe(2);
    gone.abort();
    await expect(third).resolves.toBeUndefined();
    expect(p.depth().threadpool_tasks_waiting).toBe(1);
    first?.();
    first?.(); // a second release is a no-op
    await waiting;
    expect(second).toBeTypeOf('function');
    expect(p.depth()).toEqual({
      threadpool_total_tokens: 1,
      threadpool_borrowed_tokens: 1,
      threadpool_tasks_waiting: 0,
    });
  });

  it('is not ready once saturated at every probe for unready_after_ms, and ready again at the first healthy probe', async () => {
    const clock = { t: 1_000 };
    const p = pool({ size: 1, unready_after_ms: 10_000 }, clock);
    expect(p.readiness().ready).toBe(true);
    const held = [await p.acquire(), await p.acquire(), await p.acquire()];
    expect(p.readiness()).toMatchObject({ ready: true, depth: { threadpool_tasks_waiting: 2 } }); // the streak starts
    clock.t += 9_999;
    expect(p.readiness().ready).toBe(true);
    clock.t += 2_301;
    expect(p.readiness()).toEqual({
      ready: false,
      depth: { threadpool_total_tokens: 1, threadpool_borrowed_tokens: 1, threadpool_tasks_waiting: 2 },
      detail: 'Request threadpool saturated for 12.3s (2 requests queued)',
    });
    held.forEach((r) => r?.());
    expect(p.readiness().ready).toBe(true);
    const again = [await p.acquire(), await p.acquire()];
    expect(p.readiness().ready).toBe(true); // a new streak starts from this probe
    again.forEach((r) => r?.());
  });
});

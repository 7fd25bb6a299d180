import { describe, expect, it } from 'vitest';
import {
  createLoopDelayTally,
  TICK_MS,
  watchLoopDelay,
  watchLoopDelayFromStart,
  worseLoopDelay,
  type LoopProbe,
} from './loop-delay.js';

/**
 * A scripted loop: `idle(ms)` lets time pass in the poll, `busy(ms)` holds the loop (a turn, a GC);
 * a tick due meanwhile runs when the loop is next free, as libuv runs timers between turns.
 */
function scriptedLoop() {
  let now = 0;
  let busy = 0;
  let tick: (() => void) | null = null;
  let due = Infinity;
  const runDue = () => {
    while (tick !== null && due <= now) {
      tick();
      due = now + TICK_MS;
    }
  };
  const probe: LoopProbe = {
    now: () => now,
    busyMs: () => busy,
    every(ms, fn) {
      tick = fn;
      due = now + ms;
      return () => (tick = null);
    },
  };
  return {
    probe,
    idle(ms: number) {
      const end = now + ms;
      while (due <= end) {
        now = due;
        runDue();
      }
      now = end;
    },
    busy(ms: number) {
      now += ms;
      busy += ms;
      runDue();
    },
  };
}

describe('watchLoopDelayFromStart', () => {
  it('watches from its first start() only: a pause before it is not counted, and never started reads null', () => {
    const loop = scriptedLoop();
    const watch = watchLoopDelayFromStart(loop.probe);
    loop.busy(40); // the run's setup, before the first send
    watch.start();
    loop.idle(TICK_MS * 4);
    watch.start(); // a second start() changes nothing
    loop.busy(12);
    loop.idle(TICK_MS * 2);
    const delay = watch.stop();
    expect(delay!.max).toBeGreaterThanOrEqual(12);
    expect(delay!.max).toBeLessThanOrEqual(12 + TICK_MS);
    expect(watchLoopDelayFromStart(loop.probe).stop()).toBeNull();
  });

  it('reads the busy time once when made (its first call stays out of the first window); stopped, it keeps its figures', () => {
    const loop = scriptedLoop();
    let reads = 0;
    const probe: LoopProbe = { ...loop.probe, busyMs: () => (reads++, loop.probe.busyMs()) };
    const watch = watchLoopDelayFromStart(probe);
    expect(reads).toBe(1);
    watch.start();
    loop.busy(3);
    loop.idle(TICK_MS * 3);
    const delay = watch.stop(); // the last byte
    loop.busy(30); // closing the connections: after the stop, not counted
    expect(watch.stop()).toEqual(delay);
    expect(delay!.max).toBeLessThan(3 + TICK_MS);
  });
});

describe('watchLoopDelay', () => {
  it('reports the delay, never below 0, once stopped (and the same when stopped again), on the real loop', async () => {
    const watch = watchLoopDelay();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const delay = watch.stop();
    expect(delay).not.toBeNull();
    expect(delay!.p50).toBeGreaterThanOrEqual(0);
    expect(delay!.p99).toBeGreaterThanOrEqual(delay!.p50);
    expect(delay!.max).toBeGreaterThanOrEqual(delay!.p99);
    expect(watch.stop()).toBe(delay);
  });

  it('is null when no tick came', () => {
    const loop = scriptedLoop();
    const watch = watchLoopDelay(loop.probe);
    loop.busy(1);
    expect(watch.stop()).toBeNull();
  });

  it.each([
    ['due at its start', 0],
    ['due in its middle', 2.5],
    ['just after a tick', TICK_MS - 0.01],
  ])('reports a 15 ms pause %s as at least 15 ms and at most 15 ms + the tick', (_, offset) => {
    const loop = scriptedLoop();
    const watch = watchLoopDelay(loop.probe);
    for (let i = 0; i < 200; i++) {
      loop.idle(1.7);
      loop.busy(0.3); // a stream's chunk
    }
    loop.idle(offset);
    loop.busy(15);
    for (let i = 0; i < 200; i++) {
      loop.idle(1.7);
      loop.busy(0.3);
    }
    const delay = watch.stop()!;
    expect(delay.max).toBeGreaterThanOrEqual(15);
    expect(delay.max).toBeLessThanOrEqual(15 + TICK_MS);
    expect(delay.p50).toBeLessThanOrEqual(0.3);
  });

  it('bounds a pause that ends right before the stop (the last part-window)', () => {
    const loop = scriptedLoop();
    const watch = watchLoopDelay(loop.probe);
    loop.idle(TICK_MS * 3);
    loop.busy(TICK_MS - 1); // not long enough to hold a tick: only the stop's window sees it
    expect(watch.stop()!.max).toBe(TICK_MS - 1);
  });
});

describe('createLoopDelayTally', () => {
  it('takes lateness beyond the tick as its samples and the larger of lateness and busy time as the max', () => {
    const tally = createLoopDelayTally(5);
    tally.window(5, 0.2, true);
    tally.window(5.5, 1, true);
    tally.window(25, 3, true); // held 20 ms off the CPU after the poll returned: lateness is the bound
    tally.window(12, 11, true);
    tally.window(3, 2.5, false);
    expect(tally.result()).toEqual({ p50: 0.5, p99: 20, max: 20 });
  });

  it('never counts more busy time than the window had', () => {
    const tally = createLoopDelayTally(5);
    tally.window(5, 6, true); // two readings of the clock a little apart
    expect(tally.result()!.max).toBe(5);
  });
});

describe('worseLoopDelay', () => {
  it('keeps the worse of two measurements of one run, figure by figure', () => {
    expect(worseLoopDelay({ p50: 1, p99: 4, max: 9 }, { p50: 2, p99: 3, max: 12 })).toEqual({
      p50: 2,
      p99: 4,
      max: 12,
    });
    expect(worseLoopDelay(null, { p50: 2, p99: 3, max: 12 })).toEqual({ p50: 2, p99: 3, max: 12 });
    expect(worseLoopDelay(null, null)).toBeNull();
  });
});

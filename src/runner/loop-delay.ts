/**
 * @module runner/loop-delay
 * Watches the generator's own event loop while it times requests. Every milestone is stamped in a
 * callback; a callback can run no earlier than the loop is free, so the loop's delay bounds how late a
 * timestamp may be.
 *
 * One timer every TICK_MS. Each tick is a sample of how late a callback due then ran (p50, p99: the
 * tick's lateness, as perf_hooks' monitorEventLoopDelay measures it) and closes a window: from the
 * last tick to this one, the loop's busy time (perf_hooks' event-loop utilisation: the time outside
 * its poll) bounds from above every pause that fell in it, for a tick runs only between the loop's
 * turns. The max is the largest of those bounds (or of the lateness, when the thread was held off the
 * CPU while its poll had returned): never below the longest pause, above it by at most the rest of that
 * window's work, so by at most TICK_MS. A tick fine enough to read the max from lateness alone
 * (2 ms, where a pause of P showed as at least P − 2) woke the loop 500 times a second, about a
 * quarter of the CPU of a realistic 20-user streamed run (docs/benchmarks-log.md "Session 39: the loop
 * monitor and the max pause").
 */
import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks';
import type { LoopDelay } from '../records/generator-health.js';

/** The tick, ms: 200 wake-ups a second; the max's error bound. */
export const TICK_MS = 5;

/** What the monitor reads of the loop; node's in a run (`nodeLoopProbe`), scripted in tests. */
export interface LoopProbe {
  /** Monotonic time, ms. */
  now(): number;
  /** The loop's busy time since it started, ms: all but the time it waited in its poll. */
  busyMs(): number;
  /** Calls `tick` every `ms` until the returned function is called; never holds the process open. */
  every(ms: number, tick: () => void): () => void;
}

export const nodeLoopProbe: LoopProbe = {
  now: () => performance.now(),
  busyMs: () => performance.eventLoopUtilization().active,
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface LoopDelayWatch {
  /** Stops watching; the delay (ms, to the µs), or null when no tick was seen. */
  stop(): LoopDelay | null;
}

/** Starts watching now (call it just before the first send; stop it after the last byte). */
export function watchLoopDelay(probe: LoopProbe = nodeLoopProbe): LoopDelayWatch {
  return startWatch(probe, createLoopDelayTally(TICK_MS));
}

function startWatch(probe: LoopProbe, tally: LoopDelayTally): LoopDelayWatch {
  let lastAt = probe.now();
  let lastBusy = probe.busyMs();
  const close = (tick: boolean) => {
    const at = probe.now();
    const busy = probe.busyMs();
    tally.window(at - lastAt, busy - lastBusy, tick);
    lastAt = at;
    lastBusy = busy;
  };
  const cancel = probe.every(TICK_MS, () => close(true));
  let result: LoopDelay | null | undefined;
  return {
    stop() {
      if (result !== undefined) return result;
      cancel();
      close(false); // the last part-window: its pauses ended before this call
      result = tally.result();
      return result;
    },
  };
}

/** A watch started by its first `start()` (a run's first send); stop() reads null when it never was. */
export interface PendingLoopDelayWatch extends LoopDelayWatch {
  start(): void;
}

export function watchLoopDelayFromStart(probe: LoopProbe = nodeLoopProbe): PendingLoopDelayWatch {
  // Made now, with a first read of the loop's busy time: the histogram's creation and
  // eventLoopUtilization's first call (0.5–0.8 ms together) stay out of the first window.
  const tally = createLoopDelayTally(TICK_MS);
  probe.busyMs();
  let watch: LoopDelayWatch | undefined;
  return {
    start: () => void (watch ??= startWatch(probe, tally)),
    stop: () => watch?.stop() ?? null,
  };
}

/** The arithmetic of the watch, apart from any clock. */
export interface LoopDelayTally {
  /**
   * One window: `intervalMs` since the last, `busyMs` of it outside the poll; `tick`: closed by a
   * tick due `tickMs` after the last (its lateness is a sample), not by the stop.
   */
  window(intervalMs: number, busyMs: number, tick: boolean): void;
  result(): LoopDelay | null;
}

export function createLoopDelayTally(tickMs: number): LoopDelayTally {
  // µs + 1: a histogram holds values ≥ 1, and a tick on time is late by 0.
  const lateness: RecordableHistogram = createHistogram();
  let max = 0;
  return {
    window(intervalMs, busyMs, tick) {
      const late = tick ? Math.max(0, intervalMs - tickMs) : 0;
      if (tick) lateness.record(Math.round(late * 1000) + 1);
      max = Math.max(max, late, Math.min(Math.max(0, busyMs), intervalMs));
    },
    result() {
      if (lateness.count === 0) return null;
      const ms = (us: number) => Math.round(us) / 1000;
      const top = ms(max * 1000);
      // The histogram's buckets round up: no percentile above the exact max.
      const p99 = Math.min(ms(lateness.percentile(99) - 1), top);
      return { p50: Math.min(ms(lateness.percentile(50) - 1), p99), p99, max: top };
    },
  };
}

/** The worse of two measurements of one run (a resumed run's two parts): each figure's maximum. */
export function worseLoopDelay(a: LoopDelay | null, b: LoopDelay | null): LoopDelay | null {
  if (a === null) return b;
  if (b === null) return a;
  return { p50: Math.max(a.p50, b.p50), p99: Math.max(a.p99, b.p99), max: Math.max(a.max, b.max) };
}

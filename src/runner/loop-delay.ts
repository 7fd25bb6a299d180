/**
 * @module runner/loop-delay
 * Watches the generator's own event loop while it times requests (perf_hooks'
 * monitorEventLoopDelay, a 2 ms tick). Every milestone is stamped in a callback; a callback can
 * run no earlier than the loop is free, so the loop's delay bounds how late a timestamp may be.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LoopDelay } from '../records/generator-health.js';

/**
 * The tick of the monitor, ms. Each tick wakes the loop: a 1 ms tick cost 18–21 ms of CPU a second
 * however few requests ran (issue 24: ~25% of the CPU per streamed request of 20 users at real
 * pace), a 2 ms tick about half. A tick due at a random moment waits out whatever holds the loop
 * then, as a socket's data would, so p50 and p99 keep their meaning; a pause of P ms shows as at
 * least P − 2 ms in the max.
 */
const RESOLUTION_MS = 2;

export interface LoopDelayWatch {
  /** Stops watching; the delay beyond the tick (ms, to the µs), or null when no tick was seen. */
  stop(): LoopDelay | null;
}

/** Starts watching now (call it just before the first send; stop it after the last byte). */
export function watchLoopDelay(): LoopDelayWatch {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let result: LoopDelay | null | undefined;
  return {
    stop() {
      if (result !== undefined) return result;
      histogram.disable();
      // The histogram holds whole intervals between ticks (ns): the delay is what exceeds the tick.
      const ms = (ns: number) => Math.round(Math.max(0, ns / 1e6 - RESOLUTION_MS) * 1000) / 1000;
      result =
        histogram.count === 0
          ? null
          : { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
      return result;
    },
  };
}

/** The worse of two measurements of one run (a resumed run's two parts): each figure's maximum. */
export function worseLoopDelay(a: LoopDelay | null, b: LoopDelay | null): LoopDelay | null {
  if (a === null) return b;
  if (b === null) return a;
  return { p50: Math.max(a.p50, b.p50), p99: Math.max(a.p99, b.p99), max: Math.max(a.max, b.max) };
}

/**
 * @module runner/sleep
 * Waiting that a stop cuts short: retry back-offs, Retry-After, a --start-at in the future.
 * Node's timers hold at most 2^31 − 1 ms (about 24.8 days) and fire at once beyond it, so a long
 * wait is chained from timers of at most that length: a --start-at a month ahead waits a month.
 */
import { MAX_TIMER_MS } from '../util/limits.js';

/** A timer that may be longer than Node's limit; returns its cancel. */
export function setLongTimeout(callback: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout;
  const arm = (remaining: number) => {
    timer =
      remaining > MAX_TIMER_MS
        ? setTimeout(() => arm(remaining - MAX_TIMER_MS), MAX_TIMER_MS)
        : setTimeout(callback, Math.max(0, remaining));
  };
  arm(ms);
  return () => clearTimeout(timer);
}

/** Resolves after `ms`, or at once when `signal` aborts (already aborted: at once). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = () => {
      cancel();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const cancel = setLongTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves in the loop's check phase, once the I/O callbacks of this turn have run. */
export const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * @module runner/sleep
 * Waiting that a stop cuts short: retry back-offs, Retry-After, a --start-at in the future.
 */

/** Resolves after `ms`, or at once when `signal` aborts (already aborted: at once). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * @module runner/run-stop
 * How a run stops, the same for eval (run-plan.ts) and load (load-run.ts): on the first stop
 * (Ctrl-C through `signal`, the early stop's RunError, or a bug) nothing new is sent and no retry
 * starts (`stopping`); the requests in flight get `graceMs` to finish, then end as cancelled
 * (`cancelling`). The first stop wins: its RunError (if any) is the run's `runFailed`.
 */
import { setMaxListeners } from 'node:events';
import type { RunError } from '../errors.js';

export interface RunStopOptions {
  /** The caller's interrupt (Ctrl-C): a stop with no RunError, `interrupted` true. */
  readonly signal?: AbortSignal | undefined;
  /** How long the requests in flight may go on after a stop (default 10 s). */
  readonly graceMs?: number | undefined;
  /** Called once, right after the stop (load: wakes the sleepers). */
  readonly onStop?: () => void;
}

export interface RunStop {
  /** Aborted on the stop: no new sends, no new retries. */
  readonly stopping: AbortSignal;
  /** Aborted `graceMs` after the stop: the requests in flight end as cancelled. */
  readonly cancelling: AbortSignal;
  /** Stops the run (a second call does nothing); `error`: why it could not be carried out. */
  stop(error?: RunError): void;
  readonly interrupted: boolean;
  /** The first stop's RunError (the early stop), if any. */
  readonly runFailed: RunError | undefined;
  /** Once the run is over: the grace timer and the interrupt listener go. */
  dispose(): void;
}

export function createRunStop(options: RunStopOptions): RunStop {
  const stopping = new AbortController();
  const cancelling = new AbortController();
  // Every request in flight (and every retry wait) listens to both: that many is expected, not a leak.
  setMaxListeners(0, stopping.signal, cancelling.signal);
  let runFailed: RunError | undefined;
  let interrupted = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (error?: RunError) => {
    if (stopping.signal.aborted) return;
    runFailed = error;
    stopping.abort();
    options.onStop?.();
    graceTimer = setTimeout(() => cancelling.abort(), options.graceMs ?? 10_000);
  };
  const onSignal = () => {
    interrupted = true;
    stop();
  };
  if (options.signal?.aborted) onSignal();
  else options.signal?.addEventListener('abort', onSignal, { once: true });
  return {
    stopping: stopping.signal,
    cancelling: cancelling.signal,
    stop,
    get interrupted() {
      return interrupted;
    },
    get runFailed() {
      return runFailed;
    },
    dispose() {
      clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onSignal);
    },
  };
}

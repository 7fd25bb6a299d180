/**
 * @module runner/progress
 * Progress snapshots for the CLI's live line: at most one per interval while running (on a record, or
 * from an unref'd timer when records are slow to come), and one at the end. Never prints.
 */
import type { Outcome } from '../records/record.js';

export interface RunProgress {
  /** Records handed over. */
  done: number;
  total: number;
  sent: number;
  skipped: number;
  inFlight: number;
  outcomes: Record<Outcome, number>;
  /** Records per second since the run started. */
  ratePerS: number;
  elapsedMs: number;
}

interface ProgressOptions {
  total: number;
  now: () => number;
  runStart: number;
  intervalMs: number;
  onProgress: ((progress: RunProgress) => void) | undefined;
  snapshot: () => Pick<RunProgress, 'done' | 'sent' | 'skipped' | 'inFlight' | 'outcomes'>;
}

/** Throttles snapshots to `intervalMs`; `finish()` always emits one last snapshot and stops the timer. */
export function createProgress(options: ProgressOptions): { tick(): void; finish(): void } {
  const { onProgress, now, intervalMs } = options;
  let last = -Infinity;
  const emit = () => {
    if (!onProgress) return;
    const t = now();
    last = t;
    const elapsedMs = t - options.runStart;
    const state = options.snapshot();
    onProgress({
      ...state,
      total: options.total,
      elapsedMs,
      ratePerS: elapsedMs > 0 ? state.done / (elapsedMs / 1000) : 0,
    });
  };
  const due = () => now() - last >= intervalMs;
  const timer = onProgress ? setInterval(() => due() && emit(), intervalMs) : undefined;
  timer?.unref();
  return {
    tick: () => due() && emit(),
    finish() {
      clearInterval(timer);
      emit();
    },
  };
}

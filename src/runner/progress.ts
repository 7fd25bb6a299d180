/**
 * @module runner/progress
 * Progress snapshots for the CLI's live line: at most one per interval while running (on a record, or
 * from an unref'd timer when records are slow to come), and one at the end. Never prints.
 */
import type { Outcome } from '../records/record.js';
import { CHARS_PER_TOKEN } from './load-ticker.js';

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
  /**
   * Output tokens per second since the run started, **estimated from characters**: the `ok` answers'
   * characters ÷ CHARS_PER_TOKEN ÷ the seconds (runner/load-ticker). The tokenizer counts exactly only
   * after the run, for the reports. null before an answer ended.
   */
  outputTokensPerSEst: number | null;
  elapsedMs: number;
}

interface ProgressOptions {
  total: number;
  now: () => number;
  runStart: number;
  intervalMs: number;
  onProgress: ((progress: RunProgress) => void) | undefined;
  snapshot: () => Pick<RunProgress, 'done' | 'sent' | 'skipped' | 'inFlight' | 'outcomes'> & {
    /** Characters of the `ok` answers so far. */
    answerChars: number;
  };
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
    const { answerChars, ...state } = options.snapshot();
    onProgress({
      ...state,
      total: options.total,
      elapsedMs,
      ratePerS: elapsedMs > 0 ? state.done / (elapsedMs / 1000) : 0,
      outputTokensPerSEst: elapsedMs > 0 && answerChars > 0 ? answerChars / CHARS_PER_TOKEN / (elapsedMs / 1000) : null,
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

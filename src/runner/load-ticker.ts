/**
 * @module runner/load-ticker
 * The once-per-second tick of a load run for the live view (autocannon's `tick`): the live counters,
 * the send rate over the last second, and the p95 time to first token (and to first part) over the
 * last few seconds.
 * Off the request path: records are only appended to a short window here; the percentile is taken
 * when the tick fires. Never prints.
 */
import { z } from 'zod';
import type { LoadCounters } from './load-run.js';
import { HealthSampleSchema } from '../records/health-probe.js';

export const LoadTickSchema = z.object({
  elapsed_ms: z.number(),
  offered: z.number().int(),
  sent: z.number().int(),
  done: z.number().int(),
  in_flight: z.number().int(),
  /** Open model: due arrivals waiting for a connection (additive to the seam). */
  queued: z.number().int(),
  ok: z.number().int(),
  rate_limited: z.number().int(),
  errors: z.number().int(),
  dropped: z.number().int(),
  late: z.number().int(),
  /** `--abandon`: requests the client closed on purpose (additive). */
  abandoned: z.number().int().optional(),
  /** Sends per second over the last tick. */
  current_rate_per_s: z.number(),
  /** p95 TTFT of the requests that ended in the last `windowMs`; null when none had an answer token (additive, issue 27). */
  ttft_p95_ms: z.number().nullable().optional(),
  /** p95 TTFP of the requests that ended in the last `windowMs`; null when none had a first part. */
  ttfp_p95_ms: z.number().nullable(),
  /**
   * Output tokens per second over the last `windowMs`, **estimated from characters**: the answer
   * characters of the `ok` requests that ended in it ÷ CHARS_PER_TOKEN ÷ its seconds. The exact count
   * (gpt-tokenizer) is made after the run, for the reports: counting here would add to the generator's
   * CPU per request. null when no answer ended in the window (additive, issue 27).
   */
  output_tokens_per_s_est: z.number().nullable().optional(),
  /** `--health-probe`: the latest probe's result (null before the first ends); absent without a probe. */
  health: HealthSampleSchema.nullable().optional(),
  /** `--health-probe`: probes answered (or failed) so far, and those that failed. */
  health_probes: z.number().int().optional(),
  health_failures: z.number().int().optional(),
});
export type LoadTick = z.infer<typeof LoadTickSchema>;

/** English text under o200k_base and cl100k_base averages about 4 characters per token: the live estimate's divisor. */
export const CHARS_PER_TOKEN = 4;

export interface LoadTickerOptions {
  readonly counters: LoadCounters;
  readonly now: () => number;
  /** The schedule's zero on `now`'s clock. */
  readonly zero: number;
  readonly onTick: (tick: LoadTick) => void;
  /** Default 1000. */
  readonly intervalMs?: number;
  /** Default 5000. */
  readonly windowMs?: number;
}

export interface LoadTicker {
  /** Feeds the TTFP and TTFT of a request that just ended (null when it had none) and its answer's characters (an `ok` one's; else 0). */
  observe(ttfpMs: number | null, ttftMs?: number | null, answerChars?: number): void;
  /** Emits one last tick and stops the timer. */
  stop(): void;
}

export function createLoadTicker(options: LoadTickerOptions): LoadTicker {
  const { counters, now, zero } = options;
  const windowMs = options.windowMs ?? 5000;
  const recent: Array<{ at: number; ttfp: number | null; ttft: number | null; chars: number }> = [];
  let lastAt = zero;
  let lastSent = counters.sent;
  const emit = () => {
    const t = now();
    let stale = 0;
    while (stale < recent.length && recent[stale]!.at < t - windowMs) stale++;
    recent.splice(0, stale);
    const seconds = (t - lastAt) / 1000;
    options.onTick({
      elapsed_ms: Math.max(0, t - zero),
      offered: counters.offered,
      sent: counters.sent,
      done: counters.done,
      in_flight: counters.in_flight,
      queued: counters.queued,
      ok: counters.ok,
      rate_limited: counters.rate_limited,
      errors: counters.errors,
      dropped: counters.dropped,
      late: counters.late,
      abandoned: counters.abandoned,
      current_rate_per_s: seconds > 0 ? (counters.sent - lastSent) / seconds : 0,
      ttft_p95_ms: p95(recent, 'ttft'),
      ttfp_p95_ms: p95(recent, 'ttfp'),
      output_tokens_per_s_est: tokensPerSecond(recent, Math.min(windowMs, t - zero)),
    });
    lastAt = t;
    lastSent = counters.sent;
  };
  const timer = setInterval(emit, options.intervalMs ?? 1000);
  timer.unref();
  return {
    observe(ttfpMs, ttftMs = null, answerChars = 0) {
      if (ttfpMs !== null || ttftMs !== null || answerChars > 0)
        recent.push({ at: now(), ttfp: ttfpMs, ttft: ttftMs, chars: answerChars });
    },
    stop() {
      clearInterval(timer);
      emit();
    },
  };
}

/**
 * The 95th percentile (nearest rank) of the window's `key` values that are not null; null when none.
 * Sorted in a Float64Array: an array of numbers filtered and sorted with a comparator held a boxed
 * number per value, ~5,000 a tick at 1,000/s, twice (docs/benchmarks-log.md, "Session 40").
 */
function p95(recent: readonly { ttfp: number | null; ttft: number | null }[], key: 'ttfp' | 'ttft'): number | null {
  const values = new Float64Array(recent.length);
  let n = 0;
  for (const r of recent) {
    const v = r[key];
    if (v !== null) values[n++] = v;
  }
  if (n === 0) return null;
  const sorted = values.subarray(0, n).sort();
  return sorted[Math.min(n - 1, Math.ceil(0.95 * n) - 1)]!;
}

/** The live output tokens/s estimate: answer characters in the window ÷ CHARS_PER_TOKEN ÷ the window's seconds. */
function tokensPerSecond(recent: readonly { chars: number }[], spanMs: number): number | null {
  let chars = 0;
  for (const r of recent) chars += r.chars;
  return chars === 0 || spanMs <= 0 ? null : chars / CHARS_PER_TOKEN / (spanMs / 1000);
}

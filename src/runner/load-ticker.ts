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
  /** `--health-probe`: the latest probe's result (null before the first ends); absent without a probe. */
  health: HealthSampleSchema.nullable().optional(),
  /** `--health-probe`: probes answered (or failed) so far, and those that failed. */
  health_probes: z.number().int().optional(),
  health_failures: z.number().int().optional(),
});
export type LoadTick = z.infer<typeof LoadTickSchema>;

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
  /** Feeds the TTFP and TTFT of a request that just ended (null when it had none). */
  observe(ttfpMs: number | null, ttftMs?: number | null): void;
  /** Emits one last tick and stops the timer. */
  stop(): void;
}

export function createLoadTicker(options: LoadTickerOptions): LoadTicker {
  const { counters, now, zero } = options;
  const windowMs = options.windowMs ?? 5000;
  const recent: Array<{ at: number; ttfp: number | null; ttft: number | null }> = [];
  let lastAt = zero;
  let lastSent = counters.sent;
  const emit = () => {
    const t = now();
    let stale = 0;
    while (stale < recent.length && recent[stale]!.at < t - windowMs) stale++;
    recent.splice(0, stale);
    const p95 = (values: (number | null)[]) => {
      const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
      return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
    };
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
      ttft_p95_ms: p95(recent.map((r) => r.ttft)),
      ttfp_p95_ms: p95(recent.map((r) => r.ttfp)),
    });
    lastAt = t;
    lastSent = counters.sent;
  };
  const timer = setInterval(emit, options.intervalMs ?? 1000);
  timer.unref();
  return {
    observe(ttfpMs, ttftMs = null) {
      if (ttfpMs !== null || ttftMs !== null) recent.push({ at: now(), ttfp: ttfpMs, ttft: ttftMs });
    },
    stop() {
      clearInterval(timer);
      emit();
    },
  };
}

/**
 * @module metrics/load-figures
 * The figures an SLO or a gate can name on a load run, and their values in a LoadSummary's
 * measured window. The names shared with eval gates (`ttfp_ms.p95`, `error_rate`,
 * `rate_limited_rate`) mean the same thing; the load-only ones are listed in LOAD_ONLY_FIGURES and
 * passed to the gate grammar as its extra catalogue, so one parser reads both.
 */
import type { FigureKind } from '../figures/catalogue.js';
import { parseGate, type Gate } from '../figures/grammar.js';
import type { ExtraFigures } from '../figures/grammar.js';
import type { LoadSummary, WindowFigures } from '../records/load-summary.js';
import type { RequestRecord } from '../records/record.js';

/** Latency figures of a load window (ok requests): service time from `sent`, response time from `scheduled`. */
export const LOAD_LATENCY_FIGURES = [
  'headers_ms',
  'ttfp_ms',
  'ttft_ms',
  'total_ms',
  'response_ms',
  'queue_ms',
] as const;
export type LoadLatencyFigure = (typeof LOAD_LATENCY_FIGURES)[number];

/** Per-second figures of the measured window, and generator counts. */
export const LOAD_RATE_FIGURES = [
  'offered_per_s',
  'sent_per_s',
  'completed_per_s',
  'ok_per_s',
  'rate_limited_per_s',
  'errors_per_s',
  'goodput',
] as const;

/** What a load gate may name beyond the eval catalogue. */
export const LOAD_ONLY_FIGURES: ExtraFigures = {
  response_ms: 'latency',
  queue_ms: 'latency',
  ...Object.fromEntries(LOAD_RATE_FIGURES.map((f) => [f, 'rate' as FigureKind])),
  late_sends: 'rate',
  dropped: 'rate',
  // `--health-probe`: the probes of the measured window (the run's, never a turn's).
  health_ms: 'latency',
  health_failures: 'rate',
};

/** Parses a load gate or SLO: the gate grammar with the load figures added. */
export function parseLoadGate(text: string, origin: string): Gate {
  return parseGate(text, origin, LOAD_ONLY_FIGURES);
}

const RATE_KEYS: Record<(typeof LOAD_RATE_FIGURES)[number], keyof WindowFigures['rates']> = {
  offered_per_s: 'offered',
  sent_per_s: 'sent',
  completed_per_s: 'completed',
  ok_per_s: 'ok',
  rate_limited_per_s: 'rate_limited',
  errors_per_s: 'errors',
  goodput: 'goodput',
};

/**
 * The measured window's value of `figure` (with `stat` for latencies): null when it does not exist
 * (no ok request had it, an empty window, or a figure a load run does not compute, like scores).
 * With `turn`, the value over that turn number of the window's conversations (`by_turn`); the
 * generator's counts (late_sends, dropped) have none.
 */
export function loadFigureValue(
  summary: LoadSummary,
  figure: string,
  stat: string | null,
  turn: number | null = null,
): number | null {
  const window = turn === null ? summary.windows.measured : summary.by_turn[String(turn)];
  if (window === undefined) return null;
  if ((LOAD_LATENCY_FIGURES as readonly string[]).includes(figure)) {
    const stats = window.latency[figure as LoadLatencyFigure];
    if (stats === null || stat === null) return null;
    const value = (stats as Record<string, number>)[stat];
    return value ?? null;
  }
  // The ITL: the window's answer gaps pooled (metrics/load-gaps).
  if (figure === 'answer_gap_ms') {
    const stats = window.latency.answer_gap_ms;
    return stats === null || stat === null ? null : ((stats as Record<string, number>)[stat] ?? null);
  }
  // The token figures of the window (counted when the reports are built: docs/reference/metrics.md "Tokens").
  if (figure === 'tpot_per_token_ms') {
    const stats = window.tokens?.tpot_per_token_ms ?? null;
    return stats === null || stat === null ? null : ((stats as Record<string, number>)[stat] ?? null);
  }
  if (figure in RATE_KEYS) return window.rates[RATE_KEYS[figure as keyof typeof RATE_KEYS]];
  if (figure === 'ok_rate' || figure === 'error_rate' || figure === 'rate_limited_rate' || figure === 'pass_rate')
    return window.shares[figure];
  if (figure === 'late_sends') return turn === null ? summary.generator.late_sends : null;
  if (figure === 'dropped') return turn === null ? summary.generator.dropped : null;
  if (figure === 'health_failures') return turn === null && summary.health !== null ? summary.health.failures : null;
  if (figure === 'health_ms') {
    const stats = turn === null ? summary.health?.health_ms : null;
    return stats == null || stat === null ? null : ((stats as Record<string, number>)[stat] ?? null);
  }
  return null;
}

/** The record's own value of a latency figure (for per-request SLOs and goodput). */
export function recordLatency(
  record: Pick<RequestRecord, 'headers_ms' | 'ttfp_ms' | 'ttft_ms' | 'total_ms' | 'response_ms' | 'queue_ms'>,
  figure: string,
): number | null | undefined {
  if (!(LOAD_LATENCY_FIGURES as readonly string[]).includes(figure)) return undefined;
  return record[figure as LoadLatencyFigure];
}

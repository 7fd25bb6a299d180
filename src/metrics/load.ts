/**
 * @module metrics/load
 * The load summary (docs/reference/metrics.md "Load figures", issue 5 §1–2): from a run's records, its load spec
 * and the generator's own health, the warm-up / measured / cool-down windows with offered, sent,
 * completion, accepted, 429 and error rates, goodput under the SLOs, latency from `sent` (service
 * time) and from `scheduled` (response time, free of coordinated omission), generator health,
 * rate limits, retries and the per-second timeline. Pure: the app reads the files.
 *
 * The run lasts from the schedule's zero to the planned end (generator.json's schedule_ms, else
 * duration, stages, or requests / rate for a constant open rate); with no planned end, or when
 * interrupted, to the last arrival.
 */
import type { GeneratorFigures, LoadSummary, WindowName } from '../records/load-summary.js';
import { LOAD_SUMMARY_VERSION } from '../records/load-summary.js';
import { createGoodPredicate, evaluateSlos, type Slo } from './load-slo.js';
import { rateLimitFigures, retryFigures } from './load-rate-limits.js';
import { buildTimeline } from './load-timeline.js';
import {
  arrivalOf,
  doneOf,
  windowBounds,
  windowFigures,
  windowOf,
  type LoadRecord,
  type WindowBounds,
} from './load-window.js';
import { percentile } from './stats.js';
import type { LoadHealth, LoadSpecFields } from './load-input.js';
import { bannerLines } from './banner.js';
import { protocolAlarm } from './protocol-alarm.js';
import { probeFigures, withHealth } from './health.js';

import { generatorVerdict, LATE_MS } from './generator-verdict.js';

export { LATE_MS } from './generator-verdict.js';

export interface LoadInput {
  readonly records: readonly LoadRecord[];
  readonly spec: LoadSpecFields;
  /** generator.json; null when the run has none (figures then come from the records). */
  readonly generator: LoadHealth | null;
  readonly slos: readonly Slo[];
  /**
   * The run did not end by itself (no generator.json: killed, or still running): the figures cover
   * what was recorded, from the schedule's zero to its last recorded request, never the planned end.
   */
  readonly incomplete?: boolean;
}

export interface LoadFigures {
  readonly summary: LoadSummary;
  /** Ascending samples of the measured window's ok requests, for the CDF charts. */
  readonly samples: { readonly total_ms: readonly number[]; readonly response_ms: readonly number[] };
}

/** ms from the schedule's zero to the planned end of the schedule, or null when the plan has none. */
export function plannedEndMs(spec: LoadSpecFields): number | null {
  if (spec.stages !== null && spec.stages.length > 0) return spec.stages.reduce((s, st) => s + st.duration_ms, 0);
  if (spec.duration_ms !== null) return spec.duration_ms;
  if (spec.model === 'open' && spec.requests !== null && spec.rate != null && spec.rate > 0)
    return (spec.requests / spec.rate) * 1000;
  return null;
}

/**
 * Generator figures from generator.json, or estimated from the records' queue_ms when it is missing.
 * `medianMs` (the measured TTFP p50, else total p50) sets what lateness matters (metrics/generator-verdict).
 */
function generatorFigures(
  records: readonly LoadRecord[],
  health: LoadHealth | null,
  medianMs: number | null,
): GeneratorFigures {
  const figures = healthFigures(records, health);
  return { ...figures, fell_behind: generatorVerdict(figures, medianMs).severity === 'warning' };
}

function healthFigures(records: readonly LoadRecord[], health: LoadHealth | null): GeneratorFigures {
  const sent = health?.sent ?? records.length;
  if (health !== null) {
    const cpu =
      health.cpu_user_ms === null || health.cpu_system_ms === null ? null : health.cpu_user_ms + health.cpu_system_ms;
    const { p50, p99, max } = health.schedule_lag_ms;
    const lag = p50 === null || p99 === null || max === null ? null : { p50, p99, max };
    return {
      planned_arrivals: health.planned_arrivals,
      sent,
      dropped: health.dropped.length,
      late_sends: health.late_sends,
      schedule_lag_ms: lag,
      peak_in_flight: health.peak_in_flight,
      cpu_ms: cpu,
      cpu_ms_per_request: cpu !== null && sent > 0 ? cpu / sent : null,
      interrupted: health.interrupted,
      start_delay_ms: health.start_delay_ms,
      fell_behind: false,
      loop_delay_ms: health.loop_delay_ms ?? null,
      from_generator: true,
    };
  }
  const lags = records
    .map((r) => r.queue_ms)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const lag =
    lags.length === 0
      ? null
      : { p50: percentile(lags, 0.5)!, p99: percentile(lags, 0.99)!, max: lags[lags.length - 1]! };
  const events = records
    .flatMap(
      (r) =>
        [
          [r.sent_offset_ms, 1],
          [doneOf(r), -1],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let level = 0;
  let peak = 0;
  for (const [, delta] of events) peak = Math.max(peak, (level += delta));
  return {
    planned_arrivals: records.length,
    sent,
    dropped: 0,
    late_sends: lags.filter((l) => l > LATE_MS).length,
    schedule_lag_ms: lag,
    peak_in_flight: peak,
    cpu_ms: null,
    cpu_ms_per_request: null,
    interrupted: false,
    start_delay_ms: null,
    fell_behind: false,
    loop_delay_ms: null,
    from_generator: false,
  };
}

/** The first-line warning when the generator fell behind (in proportion: metrics/generator-verdict); null when it kept up. */
export function generatorWarning(g: GeneratorFigures, medianMs: number | null): string | null {
  if (!g.fell_behind) return null;
  const parts: string[] = [];
  if (g.schedule_lag_ms !== null && g.schedule_lag_ms.p99 > LATE_MS && g.late_sends > 0) {
    parts.push(
      `schedule lag p99 ${g.schedule_lag_ms.p99.toFixed(1)} ms (over ${LATE_MS} ms${medianMs === null ? '' : ` and a tenth of the median latency, ${medianMs.toFixed(0)} ms`}; ${g.late_sends} late sends of ${g.sent})`,
    );
  }
  if (g.dropped > 0) parts.push(`${g.dropped} arrivals dropped at the in-flight cap`);
  return `Warning: the load generator fell behind its schedule: ${parts.join('; ')}. The figures describe the generator as much as the service.`;
}

/** The first-line warning of a run that did not end by itself. */
export function incompleteWarning(requests: number, endMs: number, plannedMs: number | null): string {
  const planned = plannedMs === null ? '' : ` of the planned ${(plannedMs / 1000).toFixed(1)} s`;
  return `Warning: this run is incomplete: it has no generator.json (its process was killed, or is still running). The figures cover its ${requests} recorded requests, over the ${(endMs / 1000).toFixed(1)} s up to the last of them${planned}.`;
}

/** Every record's outcome, counted by class (any class: new ones count without a change here). */
function countOutcomes(records: readonly LoadRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
  return counts;
}

/** The median latency lateness is weighed against: the measured window's TTFP p50, else its total p50. */
const medianLatency = (w: LoadSummary['windows']['measured']): number | null =>
  w.latency.ttfp_ms?.p50 ?? w.latency.total_ms?.p50 ?? null;

/** The measured window's figures per turn number of its conversations (each turn's records as a window of their own). */
function turnFigures(
  records: readonly LoadRecord[],
  bounds: WindowBounds,
  isGood: (r: LoadRecord) => boolean,
): LoadSummary['by_turn'] {
  const byTurn = new Map<number, LoadRecord[]>();
  for (const r of records) {
    if (r.turn === null) continue;
    const turn = byTurn.get(r.turn);
    if (turn === undefined) byTurn.set(r.turn, [r]);
    else turn.push(r);
  }
  return Object.fromEntries(
    [...byTurn].sort(([a], [b]) => a - b).map(([turn, rs]) => [String(turn), windowFigures(bounds, rs, 0, isGood)]),
  );
}

/** Computes the load summary. Records may come in any order. */
export function computeLoadFigures(input: LoadInput): LoadFigures {
  const { records, spec, generator: health } = input;
  const droppedOffsets = (health?.dropped ?? []).map((d) => d.scheduled_offset_ms);
  let lastArrival = 0;
  for (const r of records) lastArrival = Math.max(lastArrival, arrivalOf(r));
  for (const d of droppedOffsets) lastArrival = Math.max(lastArrival, d);
  const planned = health?.schedule_ms ?? plannedEndMs(spec);
  const interrupted = health?.interrupted ?? false;
  const incomplete = input.incomplete ?? false;
  let lastDone = 0;
  for (const r of records) lastDone = Math.max(lastDone, doneOf(r));
  const end = incomplete
    ? Math.min(planned ?? Infinity, Math.max(lastArrival, lastDone))
    : planned === null
      ? lastArrival
      : interrupted
        ? Math.min(planned, lastArrival)
        : planned;
  const bounds = windowBounds(end, spec.warmup_ms, spec.cooldown_ms);
  const byWindow: Record<WindowName, LoadRecord[]> = { warmup: [], measured: [], cooldown: [] };
  for (const r of records) byWindow[windowOf(arrivalOf(r), bounds)].push(r);
  const droppedIn = (w: WindowName) => droppedOffsets.filter((d) => windowOf(d, bounds) === w).length;
  const isGood = createGoodPredicate(input.slos);
  const windows = {
    warmup: windowFigures(bounds.warmup, byWindow.warmup, droppedIn('warmup'), isGood),
    measured: windowFigures(bounds.measured, byWindow.measured, droppedIn('measured'), isGood),
    cooldown: windowFigures(bounds.cooldown, byWindow.cooldown, droppedIn('cooldown'), isGood),
  };
  const median = medianLatency(windows.measured);
  const generator = generatorFigures(records, health, median);
  const firstStart = records.reduce<string | null>(
    (min, r) => (min === null || r.started_at < min ? r.started_at : min),
    null,
  );
  const summary: LoadSummary = {
    load_summary_version: LOAD_SUMMARY_VERSION,
    warning:
      [incomplete ? incompleteWarning(records.length, end, planned) : null, generatorWarning(generator, median)]
        .filter((w) => w !== null)
        .join(' ') || null,
    banner: bannerLines(records.length, countOutcomes(records), generator.loop_delay_ms, protocolAlarm(records)),
    run: {
      started_at: health?.started_at ?? firstStart,
      model: spec.model,
      operation: spec.operation,
      mode: spec.mode,
      set: spec.set,
      arrival: spec.model === 'open' ? spec.arrival : null,
      target:
        spec.stages !== null && spec.stages.length > 0
          ? null
          : ((spec.model === 'open' ? spec.rate : spec.concurrency) ?? null),
      stages: spec.stages,
      duration_ms: end,
      requests: records.length,
      interrupted,
      incomplete,
    },
    windows,
    slos: [],
    generator,
    rate_limits: rateLimitFigures(records),
    retries: retryFigures(records),
    timeline: withHealth(buildTimeline(records, droppedOffsets, end, bounds), health?.health_probe ?? null),
    by_turn: turnFigures(byWindow.measured, bounds.measured, isGood),
    health: health?.health_probe
      ? probeFigures(health.health_probe, bounds.measured.start_ms, bounds.measured.end_ms)
      : null,
  };
  const ok = byWindow.measured.filter((r) => r.outcome === 'ok');
  const sorted = (pick: (r: LoadRecord) => number | null) =>
    ok
      .map(pick)
      .filter((v): v is number => v !== null && Number.isFinite(v))
      .sort((a, b) => a - b);
  return {
    summary: { ...summary, slos: evaluateSlos(input.slos, summary) },
    samples: { total_ms: sorted((r) => r.total_ms), response_ms: sorted((r) => r.response_ms) },
  };
}

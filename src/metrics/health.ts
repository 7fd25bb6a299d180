/**
 * @module metrics/health
 * The health probe's figures (`load --health-probe`): over the probes sent in a window, how many
 * failed (no answer, or a status other than 2xx), their latency (answered probes, whatever the
 * status: a slow 503 is as telling as a slow 200) and the first failure; and, per second of the
 * timeline, the probes, failures, the slowest latency and the worst status. Pure.
 */
import { isHealthFailure, type HealthProbeRun, type HealthSample } from '../records/health-probe.js';
import type { HealthFigures, TimelineRow } from '../records/load-summary.js';
import { latencyStats } from './stats.js';

/** `503: Request threadpool saturated …`, `no answer: ECONNREFUSED`. */
export const describeFailure = (s: HealthSample): string =>
  s.status === null ? `no answer: ${s.error ?? 'unknown'}` : `${s.status}${s.error ? `: ${s.error}` : ''}`;

/** The figures of the probes sent in [startMs, endMs). */
export function probeFigures(run: HealthProbeRun, startMs: number, endMs: number): HealthFigures {
  const inWindow = run.samples
    .filter((s) => s.offset_ms >= startMs && s.offset_ms < endMs)
    .sort((a, b) => a.offset_ms - b.offset_ms);
  const statuses: Record<string, number> = {};
  for (const s of inWindow) {
    const key = s.status === null ? 'no_answer' : String(s.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const failed = inWindow.filter(isHealthFailure);
  const first = failed[0];
  return {
    path: run.path,
    interval_ms: run.interval_ms,
    probes: inWindow.length,
    failures: failed.length,
    health_ms: latencyStats(inWindow.flatMap((s) => (s.ms === null ? [] : [s.ms]))),
    statuses,
    first_failure_ms: first?.offset_ms ?? null,
    first_failure: first === undefined ? null : describeFailure(first),
  };
}

/** Which of two statuses is worse: no answer, then a failure, then the higher status. */
const worse = (a: number | null | undefined, b: number | null): number | null => {
  if (a === undefined) return b;
  if (a === null || b === null) return null;
  const failA = isHealthFailure({ status: a });
  const failB = isHealthFailure({ status: b });
  if (failA !== failB) return failA ? a : b;
  return Math.max(a, b);
};

/** The timeline's rows with the probes of each second (by send time) filled in; probes before the zero or past the last row are in no row (generator.json keeps them). */
export function withHealth(rows: readonly TimelineRow[], run: HealthProbeRun | null): TimelineRow[] {
  if (run === null || rows.length === 0) return [...rows];
  const out = rows.map((r) => ({
    ...r,
    health_probes: 0,
    health_failures: 0,
    health_max_ms: null as number | null,
    health_status: null as number | null,
  }));
  const seen = new Set<number>();
  for (const s of run.samples) {
    const i = Math.floor(s.offset_ms / 1000);
    if (i < 0 || i >= out.length) continue;
    const row = out[i]!;
    row.health_probes += 1;
    if (isHealthFailure(s)) row.health_failures += 1;
    if (s.ms !== null) row.health_max_ms = Math.max(row.health_max_ms ?? 0, s.ms);
    row.health_status = worse(seen.has(i) ? row.health_status : undefined, s.status);
    seen.add(i);
  }
  return out;
}

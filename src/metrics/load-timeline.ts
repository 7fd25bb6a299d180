/**
 * @module metrics/load-timeline
 * timeline.csv: one row per second of a load run. Offered counts arrivals (scheduled offsets,
 * dropped ones included), sent counts sends, and ok / 429 / errors and the latency percentiles
 * count completions in that second: what the service returned per second, as a chart should show
 * it. In flight is the number of requests sent and not yet done at the second's end. Seconds from
 * the schedule's end on are marked `drain`: nothing is sent, requests in flight finish.
 */
import type { TimelineRow, WindowName } from '../records/load-summary.js';
import { percentile } from './stats.js';
import { arrivalOf, doneOf, isError, windowOf, type LoadRecord, type WindowBounds } from './load-window.js';

/** Rows past this are not produced: a day of seconds is more than any chart can show. */
export const MAX_TIMELINE_ROWS = 86_400;

interface Bucket {
  offered: number;
  sent: number;
  dropped: number;
  ok: number;
  rate_limited: number;
  errors: number;
  ttft: number[];
  ttfp: number[];
  total: number[];
}

/** How many of the ascending `sorted` are < x (binary search). */
function countBelow(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const p = (values: number[], q: number): number | null => {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  return percentile(values, q) ?? null;
};

/**
 * The rows from second 0 to the last second holding the run's end, an arrival or a completion.
 * No records and a zero-length run → no rows. Negative offsets (a send before the schedule's
 * zero) count in second 0.
 */
export function buildTimeline(
  records: readonly LoadRecord[],
  droppedOffsets: readonly number[],
  endMs: number,
  bounds: Record<WindowName, WindowBounds>,
): TimelineRow[] {
  let last = endMs;
  for (const r of records) last = Math.max(last, doneOf(r), arrivalOf(r));
  for (const d of droppedOffsets) last = Math.max(last, d);
  if (records.length === 0 && droppedOffsets.length === 0 && last <= 0) return [];
  const seconds = Math.min(MAX_TIMELINE_ROWS, Math.max(1, Math.ceil(last / 1000)));
  const buckets: Bucket[] = Array.from({ length: seconds }, () => ({
    offered: 0,
    sent: 0,
    dropped: 0,
    ok: 0,
    rate_limited: 0,
    errors: 0,
    ttft: [],
    ttfp: [],
    total: [],
  }));
  const at = (ms: number): Bucket | undefined => buckets[Math.min(seconds - 1, Math.max(0, Math.floor(ms / 1000)))];
  for (const r of records) {
    if (r.outcome === 'skipped') continue; // a conversation turn that was never sent
    at(arrivalOf(r))!.offered += 1;
    at(r.sent_offset_ms)!.sent += 1;
    const done = at(doneOf(r))!;
    if (r.outcome === 'ok') {
      done.ok += 1;
      if (r.ttft_ms !== null) done.ttft.push(r.ttft_ms);
      if (r.ttfp_ms !== null) done.ttfp.push(r.ttfp_ms);
      if (r.total_ms !== null) done.total.push(r.total_ms);
    } else if (r.outcome === 'rate_limited') done.rate_limited += 1;
    else if (isError(r.outcome)) done.errors += 1;
  }
  for (const d of droppedOffsets) {
    const bucket = at(d)!;
    bucket.offered += 1;
    bucket.dropped += 1;
  }
  const sends = records
    .filter((r) => r.outcome !== 'skipped')
    .map((r) => r.sent_offset_ms)
    .sort((a, b) => a - b);
  const dones = records
    .filter((r) => r.outcome !== 'skipped')
    .map(doneOf)
    .sort((a, b) => a - b);
  return buckets.map((b, second) => {
    const end = (second + 1) * 1000;
    return {
      second,
      window: second * 1000 >= endMs && endMs > 0 ? 'drain' : windowOf(second * 1000, bounds),
      offered: b.offered,
      sent: b.sent,
      dropped: b.dropped,
      ok: b.ok,
      rate_limited: b.rate_limited,
      errors: b.errors,
      in_flight: countBelow(sends, end) - countBelow(dones, end),
      ttft_p50_ms: p(b.ttft, 0.5),
      ttft_p95_ms: p(b.ttft, 0.95),
      ttfp_p50_ms: p(b.ttfp, 0.5),
      ttfp_p95_ms: p(b.ttfp, 0.95),
      total_p50_ms: p(b.total, 0.5),
      total_p95_ms: p(b.total, 0.95),
      health_probes: 0,
      health_failures: 0,
      health_max_ms: null,
      health_status: null,
    };
  });
}

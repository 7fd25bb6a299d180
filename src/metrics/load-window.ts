/**
 * @module metrics/load-window
 * The windows of a load run (warm-up, measured, cool-down) and the figures of one window.
 *
 * A request belongs to the window its arrival falls in: `scheduled_offset_ms` (open model), else
 * `sent_offset_ms`. A dropped arrival belongs to the window of its scheduled offset. Counting by
 * arrival keeps offered = sent + dropped and sent = sum of outcomes inside every window, and a
 * request still in flight when its window closes is not lost (counting by completion would make
 * a short step of a slow service look saturated). The timeline (load-timeline) counts by
 * completion time instead, which is what a per-second chart should show.
 */
import type { RequestRecord } from '../records/record.js';
import { emptyOutcomeCounts } from '../records/summary.js';
import type { WindowFigures, WindowName } from '../records/load-summary.js';
import { latencyStats, percentile } from './stats.js';

/** The fields of a record the load figures read (the app keeps only these in memory). */
export type LoadRecord = Pick<
  RequestRecord,
  | 'outcome'
  | 'sent_offset_ms'
  | 'scheduled_offset_ms'
  | 'queue_ms'
  | 'response_ms'
  | 'headers_ms'
  | 'ttfp_ms'
  | 'ttft_ms'
  | 'total_ms'
  | 'token_index'
  | 'rate_limit'
  | 'attempts'
  | 'started_at'
  | 'turn'
  | 'unknown_part_kinds'
  | 'output_tokens'
  | 'tpot_per_token_ms'
> & {
  /** scores.pass of the record; null when it was not scored. */
  passed: boolean | null;
};

/** Keeps what the load figures need of a full record. */
export function toLoadRecord(r: RequestRecord): LoadRecord {
  return {
    outcome: r.outcome,
    sent_offset_ms: r.sent_offset_ms,
    scheduled_offset_ms: r.scheduled_offset_ms,
    queue_ms: r.queue_ms,
    response_ms: r.response_ms,
    headers_ms: r.headers_ms,
    ttfp_ms: r.ttfp_ms,
    ttft_ms: r.ttft_ms,
    total_ms: r.total_ms,
    token_index: r.token_index,
    rate_limit: r.rate_limit,
    attempts: r.attempts,
    started_at: r.started_at,
    turn: r.turn,
    passed: r.scores === null ? null : r.scores.pass,
    // Token figures only when counted (app/render-load-reports): records read elsewhere carry none.
    ...(r.output_tokens == null ? {} : { output_tokens: r.output_tokens }),
    ...(r.tpot_per_token_ms == null ? {} : { tpot_per_token_ms: r.tpot_per_token_ms }),
    // Only when the stream had unknown packet kinds (the unknown-protocol alarm): most records carry none.
    ...(r.unknown_part_kinds === undefined ? {} : { unknown_part_kinds: r.unknown_part_kinds }),
  };
}

/** When the plan wanted the request sent (open model), else when it was sent. */
export const arrivalOf = (r: Pick<LoadRecord, 'scheduled_offset_ms' | 'sent_offset_ms'>): number =>
  r.scheduled_offset_ms ?? r.sent_offset_ms;

/**
 * When the request's last attempt ended: arrival + response_ms (a load record's sent and response
 * time span every attempt, retries included); without response_ms, sent + total (or + headers when
 * the body never ended).
 */
export const doneOf = (
  r: Pick<LoadRecord, 'sent_offset_ms' | 'scheduled_offset_ms' | 'response_ms' | 'total_ms' | 'headers_ms'>,
): number =>
  r.response_ms !== null ? arrivalOf(r) + r.response_ms : r.sent_offset_ms + (r.total_ms ?? r.headers_ms ?? 0);

/**
 * Not ok and not rate-limited: the gates' error_rate definition (cancelled included). A `skipped`
 * conversation turn is not an error of its own (nothing was sent; the turn before it is the error),
 * nor is an `abandoned` request (`load --abandon`: the client closed it on purpose, as a user leaving).
 */
export const isError = (outcome: LoadRecord['outcome']): boolean =>
  outcome !== 'ok' && outcome !== 'rate_limited' && outcome !== 'skipped' && outcome !== 'abandoned';

export interface WindowBounds {
  readonly name: WindowName;
  readonly start_ms: number;
  readonly end_ms: number;
}

/**
 * The three windows of a run lasting `end` ms: warm-up [0, warmup), cool-down [end − cooldown,
 * end], measured between. Windows that do not fit shrink (a warm-up longer than the run takes all
 * of it; the measured window is then empty).
 */
export function windowBounds(endMs: number, warmupMs: number, cooldownMs: number): Record<WindowName, WindowBounds> {
  const end = Math.max(0, endMs);
  const warmupEnd = Math.min(Math.max(0, warmupMs), end);
  const cooldownStart = Math.max(warmupEnd, end - Math.max(0, cooldownMs));
  return {
    warmup: { name: 'warmup', start_ms: 0, end_ms: warmupEnd },
    measured: { name: 'measured', start_ms: warmupEnd, end_ms: cooldownStart },
    cooldown: { name: 'cooldown', start_ms: cooldownStart, end_ms: end },
  };
}

/** Which window an instant belongs to: before the warm-up's end, from a non-empty cool-down's start, else measured. */
export function windowOf(ms: number, bounds: Record<WindowName, WindowBounds>): WindowName {
  if (ms < bounds.warmup.end_ms) return 'warmup';
  if (bounds.cooldown.end_ms > bounds.cooldown.start_ms && ms >= bounds.cooldown.start_ms) return 'cooldown';
  return 'measured';
}

const nums = (values: readonly (number | null)[]) =>
  values.filter((v): v is number => v !== null && Number.isFinite(v));

/** p50 of the first and last halves (by arrival) of ok requests' TTFP; needs 4 values, a positive first p50 for the rise. */
function ttfpTrend(ok: readonly LoadRecord[]): WindowFigures['ttfp_trend'] {
  const timed = ok.filter((r) => r.ttfp_ms !== null).sort((a, b) => arrivalOf(a) - arrivalOf(b));
  if (timed.length < 4) return { first_p50_ms: null, last_p50_ms: null, rise: null };
  const half = Math.floor(timed.length / 2);
  const p50 = (rs: readonly LoadRecord[]) =>
    percentile(
      nums(rs.map((r) => r.ttfp_ms)).sort((a, b) => a - b),
      0.5,
    ) ?? null;
  const first = p50(timed.slice(0, half));
  const last = p50(timed.slice(timed.length - half));
  const rise = first !== null && last !== null && first > 0 ? last / first - 1 : null;
  return { first_p50_ms: first, last_p50_ms: last, rise };
}

/**
 * The figures of one window from its records (already selected by arrival) and its dropped
 * arrivals. `isGood` decides goodput (load-slo createGoodPredicate).
 */
export function windowFigures(
  bounds: WindowBounds,
  records: readonly LoadRecord[],
  dropped: number,
  isGood: (r: LoadRecord) => boolean,
): WindowFigures {
  const duration_s = (bounds.end_ms - bounds.start_ms) / 1000;
  const outcomes = emptyOutcomeCounts();
  let good = 0;
  let passed = 0;
  let scored = 0;
  for (const r of records) {
    outcomes[r.outcome] += 1;
    if (isGood(r)) good += 1;
    if (r.passed !== null) {
      scored += 1;
      if (r.passed && r.outcome === 'ok') passed += 1;
    }
  }
  // A skipped conversation turn has a record but was never sent.
  const sent = records.length - outcomes.skipped;
  const errors = records.filter((r) => isError(r.outcome)).length;
  const perS = (n: number) => (duration_s > 0 ? n / duration_s : null);
  const share = (n: number) => (sent > 0 ? n / sent : null);
  const ok = records.filter((r) => r.outcome === 'ok');
  const stats = (pick: (r: LoadRecord) => number | null) => latencyStats(nums(ok.map(pick)));
  return {
    name: bounds.name,
    start_ms: bounds.start_ms,
    end_ms: bounds.end_ms,
    duration_s,
    offered: sent + dropped,
    sent,
    dropped,
    outcomes,
    rates: {
      offered: perS(sent + dropped),
      sent: perS(sent),
      completed: perS(sent - outcomes.cancelled - outcomes.abandoned),
      ok: perS(outcomes.ok),
      rate_limited: perS(outcomes.rate_limited),
      errors: perS(errors),
      goodput: perS(good),
    },
    shares: {
      ok_rate: share(outcomes.ok),
      error_rate: share(errors),
      rate_limited_rate: share(outcomes.rate_limited),
      pass_rate: scored > 0 ? share(passed) : null,
    },
    good,
    latency: {
      headers_ms: stats((r) => r.headers_ms),
      ttfp_ms: stats((r) => r.ttfp_ms),
      ttft_ms: stats((r) => r.ttft_ms),
      total_ms: stats((r) => r.total_ms),
      response_ms: stats((r) => r.response_ms),
      queue_ms: latencyStats(nums(records.map((r) => r.queue_ms))),
      // Hundreds of gaps per answer are never kept per request: app/load pools them in a second read (load-gaps).
      answer_gap_ms: null,
    },
    tokens: tokenFigures(ok, duration_s),
    ttfp_trend: ttfpTrend(ok),
  };
}

/** The window's token figures (records/load-summary `tokens`); null when no ok answer was counted. */
function tokenFigures(ok: readonly LoadRecord[], durationS: number): WindowFigures['tokens'] {
  const counted = ok.filter((r) => typeof r.output_tokens === 'number');
  if (counted.length === 0) return null;
  const total = counted.reduce((sum, r) => sum + (r.output_tokens ?? 0), 0);
  return {
    output_tokens_total: total,
    output_throughput_tokens_per_s: durationS > 0 ? total / durationS : null,
    tpot_per_token_ms: latencyStats(nums(counted.map((r) => r.tpot_per_token_ms ?? null))),
  };
}

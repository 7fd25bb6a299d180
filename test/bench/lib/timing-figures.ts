/**
 * @module bench/lib/timing-figures
 * The timing error of one request and where it came from. The error of a milestone is what the
 * client measured (from its `sent`) minus the simulator's scheduled offset for it. On one time axis
 * it splits exactly into four legs, two on each side:
 *   client send    = request written to the socket − sent       (the client's loop, the pool)
 *   sim read       = arrival at the simulator − written         (loopback, the simulator's loop)
 *   sim send       = bytes handed to the kernel − arrival − scheduled offset   (the simulator late)
 *   client receive = measured milestone − bytes handed to the kernel          (the client late)
 * so error = client (send + receive) + simulator (read + send). The simulator's send leg is further
 * split into its handling before the first write, its scheduler's lateness on the answer step, and
 * the wait for the socket's uncork at the end of its write batch. Pure.
 */
import { percentile } from '../../../src/metrics/stats.js';
import type { SimTrace } from './sim-trace.js';

/** What the benchmark keeps of one client exchange (times on the client's epoch axis, clock.ts). */
export interface ClientTiming {
  message_id: number | null;
  /** Epoch ms just before the request was handed to undici. */
  sent: number;
  /** Epoch ms undici wrote the request to its socket (dispatch-times.ts); NaN if unknown. */
  written: number;
  ttfp_ms: number | null;
  ttft_ms: number | null;
  outcome: string;
}

/** The simulator's scheduled offsets from its own start of the stream, ms. */
export interface Scheduled {
  first_part_ms: number;
  first_answer_ms: number;
}

export interface RequestTiming {
  ttfp_error_ms: number;
  ttft_error_ms: number;
  /** The two sides of each error: client = send + receive legs, sim = read + send legs. */
  client_ttfp_ms: number;
  sim_ttfp_ms: number;
  client_ttft_ms: number;
  sim_ttft_ms: number;
  client_send_ms: number;
  sim_read_ms: number;
  sim_first_part_ms: number;
  client_first_part_ms: number;
  sim_first_answer_ms: number;
  client_first_answer_ms: number;
  /** Arrival → the first write, beyond the scheduled first part: reading the body, validation, retrieval, planning, the first timer. */
  sim_handling_ms: number;
  /** The answer step's write came this much later than scheduled after the first write. */
  sim_answer_step_late_ms: number;
  /** The answer step's write call → its bytes leaving (the rest of the scheduler's batch). */
  sim_flush_wait_ms: number;
}

export type TimingFigure = keyof RequestTiming;

export interface Decomposition {
  rows: RequestTiming[];
  /** ok exchanges with no simulator trace, or a time missing on either side: left out of `rows`. */
  unmatched: number;
  /** Exchanges that were not ok: left out (their milestones are not comparable). */
  not_ok: number;
}

/**
 * Joins the client's exchanges to the simulator's traces by message id and splits each error.
 * `offsetMs` is the simulator's clock minus the client's (clock.ts); it is subtracted from every
 * simulator time.
 */
export function decompose(
  client: readonly ClientTiming[],
  traces: readonly SimTrace[],
  offsetMs: number,
  scheduled: Scheduled,
): Decomposition {
  const byId = new Map(traces.map((t) => [t.message_id, t]));
  const rows: RequestTiming[] = [];
  let unmatched = 0;
  let notOk = 0;
  for (const c of client) {
    if (c.outcome !== 'ok') {
      notOk++;
      continue;
    }
    const t = c.message_id === null ? undefined : byId.get(c.message_id);
    if (
      t === undefined ||
      c.ttfp_ms === null ||
      c.ttft_ms === null ||
      t.delta_call === null ||
      t.delta_flush === null ||
      Number.isNaN(t.first_flush) ||
      Number.isNaN(c.written)
    ) {
      unmatched++;
      continue;
    }
    rows.push(
      split(
        c,
        { ...t, delta_call: t.delta_call, delta_flush: t.delta_flush },
        offsetMs,
        scheduled,
        c.ttfp_ms,
        c.ttft_ms,
      ),
    );
  }
  return { rows, unmatched, not_ok: notOk };
}

type CompleteTrace = SimTrace & { delta_call: number; delta_flush: number };

function split(
  c: ClientTiming,
  t: CompleteTrace,
  offsetMs: number,
  scheduled: Scheduled,
  ttfp: number,
  ttft: number,
): RequestTiming {
  const local = (remote: number) => remote - offsetMs;
  const clientSend = c.written - c.sent;
  const simRead = local(t.arrival) - c.written;
  const simFirstPart = t.first_flush - t.arrival - scheduled.first_part_ms;
  const clientFirstPart = c.sent + ttfp - local(t.first_flush);
  const simFirstAnswer = t.delta_flush - t.arrival - scheduled.first_answer_ms;
  const clientFirstAnswer = c.sent + ttft - local(t.delta_flush);
  return {
    ttfp_error_ms: ttfp - scheduled.first_part_ms,
    ttft_error_ms: ttft - scheduled.first_answer_ms,
    client_ttfp_ms: clientSend + clientFirstPart,
    sim_ttfp_ms: simRead + simFirstPart,
    client_ttft_ms: clientSend + clientFirstAnswer,
    sim_ttft_ms: simRead + simFirstAnswer,
    client_send_ms: clientSend,
    sim_read_ms: simRead,
    sim_first_part_ms: simFirstPart,
    client_first_part_ms: clientFirstPart,
    sim_first_answer_ms: simFirstAnswer,
    client_first_answer_ms: clientFirstAnswer,
    sim_handling_ms: t.first_call - t.arrival - scheduled.first_part_ms,
    sim_answer_step_late_ms: t.delta_call - t.first_call - (scheduled.first_answer_ms - scheduled.first_part_ms),
    sim_flush_wait_ms: t.delta_flush - t.delta_call,
  };
}

/** Distribution of one figure, ms rounded to µs. */
export interface Spread {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** min, p50, p90, p99, max (percentiles as in metrics/stats); null for an empty sample. */
export function spreadOf(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => Math.round((percentile(sorted, p) ?? Number.NaN) * 1000) / 1000;
  return { count: sorted.length, min: at(0), p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}

/** The spread of every figure of the decomposition. */
export function spreadsOf(rows: readonly RequestTiming[]): Record<TimingFigure, Spread | null> {
  const figures: TimingFigure[] = [
    'ttfp_error_ms',
    'ttft_error_ms',
    'client_ttfp_ms',
    'sim_ttfp_ms',
    'client_ttft_ms',
    'sim_ttft_ms',
    'client_send_ms',
    'sim_read_ms',
    'sim_first_part_ms',
    'client_first_part_ms',
    'sim_first_answer_ms',
    'client_first_answer_ms',
    'sim_handling_ms',
    'sim_answer_step_late_ms',
    'sim_flush_wait_ms',
  ];
  return Object.fromEntries(figures.map((f) => [f, spreadOf(rows.map((r) => r[f]))])) as Record<
    TimingFigure,
    Spread | null
  >;
}

/** Mean of each leg over the worst requests: where a tail error came from. */
export interface TailLegs {
  /** Requests in the tail (at least one). */
  count: number;
  error_ms: number;
  client_send_ms: number;
  sim_read_ms: number;
  sim_send_ms: number;
  client_receive_ms: number;
}

/**
 * The worst `fraction` of requests by the TTFP or TTFT error, and the mean of each of its four legs
 * over them (they add up to the mean error). null for no rows.
 */
export function tailLegs(rows: readonly RequestTiming[], milestone: 'ttfp' | 'ttft', fraction = 0.01): TailLegs | null {
  if (rows.length === 0) return null;
  const error = milestone === 'ttfp' ? 'ttfp_error_ms' : 'ttft_error_ms';
  const tail = [...rows].sort((a, b) => b[error] - a[error]).slice(0, Math.max(1, Math.round(rows.length * fraction)));
  const mean = (pick: (r: RequestTiming) => number) =>
    Math.round((tail.reduce((sum, r) => sum + pick(r), 0) / tail.length) * 1000) / 1000;
  return {
    count: tail.length,
    error_ms: mean((r) => r[error]),
    client_send_ms: mean((r) => r.client_send_ms),
    sim_read_ms: mean((r) => r.sim_read_ms),
    sim_send_ms: mean((r) => (milestone === 'ttfp' ? r.sim_first_part_ms : r.sim_first_answer_ms)),
    client_receive_ms: mean((r) => (milestone === 'ttfp' ? r.client_first_part_ms : r.client_first_answer_ms)),
  };
}

/**
 * @module telemetry/series
 * The live series of a load run (or a capacity search) for Prometheus and OpenTelemetry: what the
 * run's records and once-a-second ticks say, kept in preallocated arrays and turned into metric
 * families only when a scraper or a pusher asks (`families()`). PURE: no clock, no I/O.
 *
 * Cost on the way of a record: one linear look-up of its label cell (no allocation once the cell
 * exists: a cell is made the first time a set × mode × model × turn × step is seen), one outcome
 * count, and one bucket count per latency (a binary search over fixed bounds). Records reach
 * `observeRecord` from the run's record queue, after the I/O callbacks of the loop's turn, never
 * between a socket's data and its timestamp (runner/record-queue.ts).
 *
 * Label values are bounded in number: turns past MAX_TURN share `MAX_TURN+`, and past MAX_CELLS
 * cells every new combination lands in one `other` cell. Each label value passes `redact` once,
 * when its cell is made.
 */
import { OUTCOMES, type Outcome, type RequestRecord } from '../records/record.js';
import type { LoadTick } from '../runner/load-ticker.js';
import { isHealthFailure } from '../records/health-probe.js';

/**
 * Histogram bounds, seconds: 1, 1.5, 2, 3, 5, 7 per decade from 1 ms to 300 s (the longest a
 * deep-research answer may stream under the default silence limit). The widest bucket (3 to 5) is
 * 5/3 of its lower bound: a quantile read from the buckets (histogram_quantile) lies in the bucket
 * of the true one.
 */
export const LATENCY_BOUNDS_S: readonly number[] = (() => {
  const bounds: number[] = [];
  for (let exp = -3; exp <= 2; exp++)
    for (const m of [1, 1.5, 2, 3, 5, 7]) bounds.push(Number((m * 10 ** exp).toPrecision(3)));
  return [...bounds.filter((b) => b < 300), 300];
})();

/** Turns from this one on share one label value (`10+`). */
export const MAX_TURN = 10;
/** Label cells at most; past them, one `other` cell. */
export const MAX_CELLS = 256;

/** The latencies kept as histograms: the record's field, ms; of ok requests (as the reports' latency figures), queue of every sent one. */
const LATENCIES = [
  {
    field: 'ttfp_ms',
    name: 'chatbench_ttfp_seconds',
    otel: 'chatbench.ttfp',
    help: 'Time to first packet of ok requests (sent to the first part)',
    okOnly: true,
  },
  {
    field: 'ttft_ms',
    name: 'chatbench_ttft_seconds',
    otel: 'chatbench.ttft',
    help: 'Time to first answer token of ok requests (sent to the first answer text)',
    okOnly: true,
  },
  {
    field: 'total_ms',
    name: 'chatbench_request_duration_seconds',
    otel: 'chatbench.request.duration',
    help: 'Whole request of ok requests (sent to the last byte)',
    okOnly: true,
  },
  {
    field: 'response_ms',
    name: 'chatbench_response_seconds',
    otel: 'chatbench.response',
    help: 'Response time of ok requests, free of coordinated omission (scheduled to the last byte)',
    okOnly: true,
  },
  {
    field: 'queue_ms',
    name: 'chatbench_schedule_lag_seconds',
    otel: 'chatbench.schedule.lag',
    help: 'How late each sent request left behind its schedule (sent minus scheduled)',
    okOnly: false,
  },
] as const satisfies ReadonlyArray<{
  field: keyof RequestRecord;
  name: string;
  otel: string;
  help: string;
  okOnly: boolean;
}>;

export type Labels = Readonly<Record<string, string>>;

interface FamilyBase {
  /** Prometheus name, `chatbench_` prefix, unit in the name, `_total` on counters. */
  readonly name: string;
  readonly help: string;
  /** OpenTelemetry name and UCUM unit of the same series. */
  readonly otel: { readonly name: string; readonly unit: string };
}
export interface ScalarFamily extends FamilyBase {
  readonly kind: 'counter' | 'gauge';
  readonly points: ReadonlyArray<{ readonly labels: Labels; readonly value: number }>;
}
export interface HistogramFamily extends FamilyBase {
  readonly kind: 'histogram';
  readonly bounds: readonly number[];
  /** `counts[i]`: observations in (bounds[i−1], bounds[i]]; the last one past the last bound. Not cumulative. */
  readonly points: ReadonlyArray<{
    readonly labels: Labels;
    readonly counts: readonly number[];
    readonly sum: number;
    readonly count: number;
  }>;
}
export type Family = ScalarFamily | HistogramFamily;

interface Histogram {
  readonly counts: Float64Array;
  sum: number;
  count: number;
}
interface Cell {
  readonly step: number | null;
  readonly set: string;
  readonly mode: string;
  /** The record's model_asked, compared element by element (no key string per record). */
  readonly models: readonly string[];
  /** null, or the turn capped at MAX_TURN. */
  readonly turn: number | null;
  readonly labels: Labels;
  readonly outcomes: Float64Array;
  readonly latencies: Histogram[];
}

/** What one step's ticks said last (counters of a load run start at 0 in each step). */
interface TickState {
  readonly labels: Labels;
  last: LoadTick;
  /** Per second over the last tick; zeros before the second tick. */
  rates: { offered: number; sent: number; ok: number; rate_limited: number; errors: number };
}

export interface LiveSeriesOptions {
  /** Every label value passes through it once (the run's redaction). */
  readonly redact: (value: string) => string;
  /** A capacity search: a `step` label (1, 2, …) on every series. */
  readonly steps: boolean;
  /** The run's set and mode, for the series of its ticks (records carry their own). */
  readonly set: string;
  readonly mode: string;
}

export interface LiveSeries {
  /** A capacity search's next step (0-based index); later records and ticks are that step's. */
  setStep(index: number): void;
  observeRecord(
    record: Pick<
      RequestRecord,
      | 'set'
      | 'mode'
      | 'model_asked'
      | 'turn'
      | 'outcome'
      | 'ttfp_ms'
      | 'ttft_ms'
      | 'total_ms'
      | 'response_ms'
      | 'queue_ms'
    >,
  ): void;
  observeTick(tick: LoadTick): void;
  /** The generator's event-loop delay over the last interval, ms. */
  observeLoopDelay(p99Ms: number, maxMs: number): void;
  /** Every series as it stands now (made on a scrape or a push, not per record). */
  families(): Family[];
}

const newHistogram = (): Histogram => ({ counts: new Float64Array(LATENCY_BOUNDS_S.length + 1), sum: 0, count: 0 });

/** The bucket of `seconds`: the first bound ≥ it (le semantics), or the overflow bucket. */
export function bucketOf(seconds: number, bounds: readonly number[] = LATENCY_BOUNDS_S): number {
  let lo = 0;
  let hi = bounds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (seconds <= bounds[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function observe(h: Histogram, ms: number): void {
  const s = ms / 1000;
  h.counts[bucketOf(s)]! += 1;
  h.sum += s;
  h.count += 1;
}

type RecordFields = Parameters<LiveSeries['observeRecord']>[0];

const matches = (c: Cell, r: RecordFields, turn: number | null, step: number | null): boolean =>
  c.step === step && c.turn === turn && c.set === r.set && c.mode === r.mode && sameModels(c.models, r.model_asked);

const sameModels = (a: readonly string[], b: readonly string[] | undefined): boolean => {
  const bl = b?.length ?? 0;
  if (a.length !== bl) return false;
  for (let i = 0; i < bl; i++) if (a[i] !== b![i]) return false;
  return true;
};

export function createLiveSeries(options: LiveSeriesOptions): LiveSeries {
  const cells: Cell[] = [];
  /** The `other` cell of each step, past MAX_CELLS. */
  const others: Cell[] = [];
  let last: Cell | undefined;
  let step: number | null = options.steps ? 0 : null;
  const ticks = new Map<number | null, TickState>();
  let loop: { p99: number; max: number } | null = null;

  const stepLabel = (): Labels => (step === null ? {} : { step: String(step + 1) });
  const baseLabels = (): Labels => ({
    set: options.redact(options.set),
    mode: options.redact(options.mode),
    ...stepLabel(),
  });
  const makeCell = (r: RecordFields, turn: number | null, overflow: boolean): Cell => ({
    step,
    set: r.set,
    mode: r.mode,
    models: [...(r.model_asked ?? [])],
    turn,
    labels: {
      set: options.redact(r.set),
      mode: options.redact(r.mode),
      model: overflow ? 'other' : options.redact((r.model_asked ?? []).join('+')),
      turn: overflow ? 'other' : turn === null ? '' : turn >= MAX_TURN ? `${MAX_TURN}+` : String(turn),
      ...stepLabel(),
    },
    outcomes: new Float64Array(OUTCOMES.length),
    latencies: LATENCIES.map(newHistogram),
  });
  // A plain loop over the cells, no closure: nothing is allocated for a record whose cell exists.
  const cellOf = (r: RecordFields): Cell => {
    const turn = r.turn === null ? null : Math.min(r.turn, MAX_TURN);
    if (last !== undefined && matches(last, r, turn, step)) return last;
    for (let i = 0; i < cells.length; i++) if (matches(cells[i]!, r, turn, step)) return (last = cells[i]!);
    let made: Cell;
    if (cells.length < MAX_CELLS) cells.push((made = makeCell(r, turn, false)));
    else {
      const existing = others.find((c) => c.step === step); // past MAX_CELLS only
      if (existing === undefined) others.push((made = makeCell(r, turn, true)));
      else made = existing;
    }
    return (last = made);
  };

  return {
    setStep(index) {
      step = options.steps ? index : null;
    },
    observeRecord(r) {
      const cell = cellOf(r);
      cell.outcomes[OUTCOMES.indexOf(r.outcome)]! += 1;
      if (r.outcome === 'skipped') return; // a conversation turn never sent: no timing
      for (let i = 0; i < LATENCIES.length; i++) {
        const l = LATENCIES[i]!;
        const ms = r[l.field];
        if (ms !== null && (!l.okOnly || r.outcome === 'ok')) observe(cell.latencies[i]!, ms);
      }
    },
    observeTick(tick) {
      const state = ticks.get(step);
      if (state === undefined) {
        ticks.set(step, {
          labels: baseLabels(),
          last: tick,
          rates: { offered: 0, sent: 0, ok: 0, rate_limited: 0, errors: 0 },
        });
        return;
      }
      const seconds = (tick.elapsed_ms - state.last.elapsed_ms) / 1000;
      if (seconds > 0) {
        const per = (now: number, before: number) => (now - before) / seconds;
        state.rates = {
          offered: per(tick.offered, state.last.offered),
          sent: per(tick.sent, state.last.sent),
          ok: per(tick.ok, state.last.ok),
          rate_limited: per(tick.rate_limited, state.last.rate_limited),
          errors: per(tick.errors, state.last.errors),
        };
      }
      state.last = tick;
    },
    observeLoopDelay(p99Ms, maxMs) {
      loop = { p99: p99Ms, max: maxMs };
    },
    families() {
      return [
        ...recordFamilies([...cells, ...others]),
        ...tickFamilies([...ticks.values()]),
        ...loopFamilies(loop, baseLabels()),
      ];
    },
  };
}

function recordFamilies(cells: readonly Cell[]): Family[] {
  const requests: ScalarFamily = {
    kind: 'counter',
    name: 'chatbench_requests_total',
    help: 'Requests ended, by outcome class (skipped: a conversation turn never sent)',
    otel: { name: 'chatbench.requests', unit: '{request}' },
    points: cells.flatMap((c) =>
      OUTCOMES.map((o: Outcome, i) => ({ labels: { ...c.labels, outcome: o }, value: c.outcomes[i]! })),
    ),
  };
  const histograms = LATENCIES.map((l, i): HistogramFamily => ({
    kind: 'histogram',
    name: l.name,
    help: l.help,
    otel: { name: l.otel, unit: 's' },
    bounds: LATENCY_BOUNDS_S,
    points: cells.map((c) => ({
      labels: c.labels,
      counts: Array.from(c.latencies[i]!.counts),
      sum: c.latencies[i]!.sum,
      count: c.latencies[i]!.count,
    })),
  }));
  return [requests, ...histograms];
}

/** Series of the run's ticks: its live counters, in flight, rates over the last second, health probes. */
function tickFamilies(states: readonly TickState[]): Family[] {
  const scalar = (
    kind: 'counter' | 'gauge',
    name: string,
    otel: string,
    unit: string,
    help: string,
    value: (s: TickState) => number | undefined,
  ): ScalarFamily => ({
    kind,
    name,
    help,
    otel: { name: otel, unit },
    points: states.flatMap((s) => {
      const v = value(s);
      return v === undefined ? [] : [{ labels: s.labels, value: v }];
    }),
  });
  const rate = (key: keyof TickState['rates'], what: string) =>
    scalar(
      'gauge',
      `chatbench_${key}_per_second`,
      `chatbench.${key}.rate`,
      '{request}/s',
      `${what} per second over the last second`,
      (s) => s.rates[key],
    );
  const families = [
    scalar(
      'counter',
      'chatbench_offered_total',
      'chatbench.offered',
      '{request}',
      'Arrivals whose time came (sent + dropped)',
      (s) => s.last.offered,
    ),
    scalar('counter', 'chatbench_sent_total', 'chatbench.sent', '{request}', 'Requests sent', (s) => s.last.sent),
    scalar(
      'counter',
      'chatbench_dropped_total',
      'chatbench.dropped',
      '{request}',
      'Open model: arrivals dropped at the in-flight bound, never sent',
      (s) => s.last.dropped,
    ),
    scalar(
      'counter',
      'chatbench_late_sends_total',
      'chatbench.late_sends',
      '{request}',
      'Sends more than 5 ms behind their schedule',
      (s) => s.last.late,
    ),
    scalar(
      'gauge',
      'chatbench_in_flight',
      'chatbench.in_flight',
      '{request}',
      'Requests sent and not yet ended',
      (s) => s.last.in_flight,
    ),
    scalar(
      'gauge',
      'chatbench_queued',
      'chatbench.queued',
      '{request}',
      'Open model: due arrivals waiting for a connection',
      (s) => s.last.queued,
    ),
    rate('offered', 'Arrivals'),
    rate('sent', 'Sends'),
    rate('ok', 'ok requests'),
    rate('rate_limited', '429 requests'),
    rate('errors', 'Failed requests'),
    scalar(
      'counter',
      'chatbench_health_probes_total',
      'chatbench.health.probes',
      '{probe}',
      '--health-probe: probes ended',
      (s) => s.last.health_probes,
    ),
    scalar(
      'counter',
      'chatbench_health_probe_failures_total',
      'chatbench.health.failures',
      '{probe}',
      '--health-probe: probes that failed (non-2xx or no answer)',
      (s) => s.last.health_failures,
    ),
    scalar(
      'gauge',
      'chatbench_health_up',
      'chatbench.health.up',
      '1',
      '--health-probe: 1 when the latest probe succeeded, 0 when it failed',
      (s) => (s.last.health ? (isHealthFailure(s.last.health) ? 0 : 1) : undefined),
    ),
    scalar(
      'gauge',
      'chatbench_health_probe_seconds',
      'chatbench.health.duration',
      's',
      '--health-probe: how long the latest probe took',
      (s) => (s.last.health?.ms == null ? undefined : s.last.health.ms / 1000),
    ),
  ];
  return families.filter((f) => f.points.length > 0 || !f.name.startsWith('chatbench_health'));
}

function loopFamilies(loop: { p99: number; max: number } | null, labels: Labels): Family[] {
  if (loop === null) return [];
  return [
    {
      kind: 'gauge',
      name: 'chatbench_event_loop_delay_p99_seconds',
      help: "The generator's event-loop delay over the last second, p99",
      otel: { name: 'chatbench.event_loop.delay.p99', unit: 's' },
      points: [{ labels, value: loop.p99 / 1000 }],
    },
    {
      kind: 'gauge',
      name: 'chatbench_event_loop_delay_max_seconds',
      help: "The generator's event-loop delay over the last second, max",
      otel: { name: 'chatbench.event_loop.delay.max', unit: 's' },
      points: [{ labels, value: loop.max / 1000 }],
    },
  ];
}

/**
 * @module dashboard/snapshot
 * The snapshot `--dashboard` serves: made once a second on the run's tick (and when a capacity
 * step is decided or the run ends) from the run's LiveSeries (telemetry/series), kept as JSON
 * text, so a page's request never computes anything. PURE: the clock is injected.
 *
 * Rates are the series' per-second gauges; TTFT and TTFP quantiles are read from the series'
 * histograms over the last WINDOW_TICKS ticks (the difference of their cumulative counts,
 * interpolated within a bucket as Prometheus' histogram_quantile does, so within a bucket of the
 * true value); outcomes are the series' counters summed over labels.
 */
import type { CapacityStep } from '../records/load-summary.js';
import type { LoadTick } from '../runner/load-ticker.js';
import type { Family, HistogramFamily, LiveSeries, ScalarFamily } from '../telemetry/series.js';
import type { Verdict } from '../verdict/verdict.js';
import { isHealthFailure } from '../records/health-probe.js';
import type { DashboardCondition, DashboardPoint, DashboardSnapshot } from '../viewer/dashboard-snapshot.js';

/** Ticks the latency quantiles cover (the terminal view's TTFP p95 covers 5 s too). */
export const WINDOW_TICKS = 5;
/** Ticks kept for the charts: 15 minutes at one a second. */
export const MAX_POINTS = 900;

export interface SnapshotOptions {
  readonly series: Pick<LiveSeries, 'families'>;
  readonly command: 'load' | 'capacity';
  /** The run's SLOs and gates as written (`ttft_ms.p95<=1500`). */
  readonly conditions: ReadonlyArray<{ readonly kind: 'slo' | 'gate'; readonly text: string }>;
  /** Milliseconds on any monotonic clock. */
  readonly now: () => number;
}

export interface DashboardSnapshots {
  /** A capacity search's next step (0-based), as the series is told. */
  setStep(index: number): void;
  onTick(tick: LoadTick): void;
  onStep(step: CapacityStep): void;
  /** The run has ended: its verdict (verdict layer) decides the SLOs and gates. */
  finish(verdict: Pick<Verdict, 'status' | 'headline' | 'reasons'>): void;
  current(): DashboardSnapshot;
  /** current() as JSON, made when it changed, not per request. */
  json(): string;
}

/** The q-quantile of bucket counts (not cumulative; the last one past the last bound), seconds; null when empty. */
export function bucketQuantile(q: number, counts: ArrayLike<number>, bounds: readonly number[]): number | null {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  if (total <= 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (c > 0 && seen + c >= rank) {
      if (i >= bounds.length) return bounds[bounds.length - 1]!; // past the last bound: its edge, as histogram_quantile
      const lower = i === 0 ? 0 : bounds[i - 1]!;
      return lower + (bounds[i]! - lower) * ((rank - seen) / c);
    }
    seen += c;
  }
  return bounds[bounds.length - 1]!;
}

const scalar = (families: readonly Family[], name: string): ScalarFamily | undefined =>
  families.find((f): f is ScalarFamily => f.name === name && f.kind !== 'histogram');
const histogram = (families: readonly Family[], name: string): HistogramFamily | undefined =>
  families.find((f): f is HistogramFamily => f.name === name && f.kind === 'histogram');

/** Bucket counts summed over every label cell. */
function summedCounts(family: HistogramFamily | undefined): number[] {
  const sum: number[] = new Array<number>((family?.bounds.length ?? 0) + 1).fill(0);
  for (const p of family?.points ?? []) for (let i = 0; i < p.counts.length; i++) sum[i]! += p.counts[i]!;
  return sum;
}

function quantiles(
  now: readonly number[],
  before: readonly number[] | undefined,
  bounds: readonly number[],
): DashboardPoint['ttft_ms'] {
  const window = now.map((c, i) => c - (before?.[i] ?? 0));
  const ms = (q: number) => {
    const s = bucketQuantile(q, window, bounds);
    return s === null ? null : Math.round(s * 1e4) / 10;
  };
  const p50 = ms(0.5);
  return p50 === null ? null : { p50, p95: ms(0.95)!, p99: ms(0.99)! };
}

export function createDashboardSnapshots(options: SnapshotOptions): DashboardSnapshots {
  const start = options.now();
  let step: number | null = options.command === 'capacity' ? 0 : null;
  const points: DashboardPoint[] = [];
  const steps: CapacityStep[] = [];
  /** Cumulative TTFT and TTFP bucket counts of the last ticks, oldest first. */
  const history: Array<{ ttft: number[]; ttfp: number[] }> = [];
  let outcomes: Record<string, number> = {};
  let lastTick: LoadTick | null = null;
  let verdict: DashboardSnapshot['verdict'] = null;
  let conditions: DashboardCondition[] = options.conditions.map((c) => ({
    ...c,
    state: options.command === 'capacity' ? 'per-step' : 'pending',
    detail: null,
  }));
  let text: string | null = null;

  const snapshot = (): DashboardSnapshot => {
    const health = lastTick?.health;
    return {
      command: options.command,
      state: verdict === null ? 'running' : 'done',
      elapsed_s: (options.now() - start) / 1000,
      points,
      outcomes,
      in_flight: lastTick?.in_flight ?? 0,
      health:
        health == null
          ? null
          : {
              up: !isHealthFailure(health),
              ms: health.ms ?? null,
              probes: lastTick?.health_probes ?? 0,
              failures: lastTick?.health_failures ?? 0,
            },
      steps,
      conditions,
      verdict,
    };
  };

  return {
    setStep(index) {
      if (step !== null) step = index;
    },
    onTick(tick) {
      lastTick = tick;
      const families = options.series.families();
      // The gauges of this step only (a capacity search keeps one per step).
      const stepLabel = step === null ? undefined : String(step + 1);
      const rate = (key: string) =>
        scalar(families, `chatbench_${key}_per_second`)?.points.find((p) => p.labels.step === stepLabel)?.value ?? 0;
      const ttft = histogram(families, 'chatbench_ttft_seconds');
      const ttfp = histogram(families, 'chatbench_ttfp_seconds');
      const now = { ttft: summedCounts(ttft), ttfp: summedCounts(ttfp) };
      // The cumulative counts WINDOW_TICKS ticks ago (none yet: zeros, the run's start).
      const before = history.length >= WINDOW_TICKS ? history[history.length - WINDOW_TICKS] : undefined;
      history.push(now);
      if (history.length > WINDOW_TICKS) history.shift();
      points.push({
        t_s: Math.round(options.now() - start) / 1000,
        step: step === null ? null : step + 1,
        offered: rate('offered'),
        sent: rate('sent'),
        ok: rate('ok'),
        rate_limited: rate('rate_limited'),
        errors: rate('errors'),
        in_flight: tick.in_flight,
        ttft_ms: quantiles(now.ttft, before?.ttft, ttft?.bounds ?? []),
        ttfp_ms: quantiles(now.ttfp, before?.ttfp, ttfp?.bounds ?? []),
      });
      if (points.length > MAX_POINTS) points.shift();
      const summed: Record<string, number> = {};
      for (const p of scalar(families, 'chatbench_requests_total')?.points ?? [])
        summed[p.labels.outcome!] = (summed[p.labels.outcome!] ?? 0) + p.value;
      outcomes = summed;
      text = null;
    },
    onStep(s) {
      steps.push(s);
      text = null;
    },
    finish(v) {
      verdict = { status: v.status, headline: v.headline };
      const decided = v.reasons.filter((r) => r.kind !== 'run');
      if (decided.length > 0)
        conditions = decided.map((r) => ({
          kind: r.kind === 'gate' ? 'gate' : 'slo',
          text: r.text,
          state: r.passed ? 'met' : 'broken',
          detail: r.detail,
        }));
      text = null;
    },
    current: snapshot,
    json() {
      text ??= JSON.stringify(snapshot());
      return text;
    },
  };
}

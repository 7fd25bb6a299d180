import { describe, expect, it } from 'vitest';
import type { CapacityStep } from '../records/load-summary.js';
import type { LoadTick } from '../runner/load-ticker.js';
import { createLiveSeries, LATENCY_BOUNDS_S } from '../telemetry/series.js';
import { decide } from '../verdict/verdict.js';
import { parseSlo } from '../metrics/load-slo.js';
import { bucketQuantile, createDashboardSnapshots, MAX_POINTS, WINDOW_TICKS } from './snapshot.js';
import { DashboardSnapshotSchema } from '../viewer/dashboard-snapshot.js';

const record = (over: Partial<Parameters<ReturnType<typeof createLiveSeries>['observeRecord']>[0]> = {}) => ({
  set: 'default',
  mode: 'stream' as const,
  model_asked: [],
  turn: null,
  outcome: 'ok' as const,
  ttfp_ms: 100,
  ttft_ms: 400,
  total_ms: 2000,
  response_ms: 2100,
  queue_ms: 1,
  ...over,
});
const tick = (over: Partial<LoadTick> = {}): LoadTick => ({
  elapsed_ms: 1000,
  offered: 10,
  sent: 10,
  done: 8,
  in_flight: 2,
  queued: 0,
  ok: 7,
  rate_limited: 1,
  errors: 0,
  dropped: 0,
  late: 0,
  current_rate_per_s: 10,
  ttfp_p95_ms: 100,
  ...over,
});

/** A series, its snapshots and a fake clock (ms) moved by the test. */
function setup(command: 'load' | 'capacity' = 'load') {
  const clock = { ms: 0 };
  const series = createLiveSeries({ redact: (v) => v, steps: command === 'capacity', set: 'default', mode: 'stream' });
  const conditions = [
    { kind: 'slo' as const, text: 'ttft_ms.p95<=1500' },
    { kind: 'gate' as const, text: 'error_rate<=0.01' },
  ];
  const snapshots = createDashboardSnapshots({ series, command, conditions, now: () => clock.ms });
  /** One second: the records, then the tick (series first, as cli/run-telemetry calls them). */
  const second = (records: ReturnType<typeof record>[], t: Partial<LoadTick>) => {
    clock.ms += 1000;
    for (const r of records) series.observeRecord(r);
    const full = tick(t);
    series.observeTick(full);
    snapshots.onTick(full);
  };
  return { clock, series, snapshots, second };
}

describe('dashboard snapshot', () => {
  it.each([
    ['empty', [0, 0, 0], 0.5, null],
    ['one bucket, interpolated', [0, 10, 0], 0.5, 1.5],
    ['past the last bound: its edge', [0, 0, 4], 0.99, 2],
    ['the first bucket starts at 0', [4, 0, 0], 0.25, 0.25],
  ])('bucketQuantile: %s', (_, counts, q, want) => {
    expect(bucketQuantile(q, counts, [1, 2])).toBe(want);
  });

  it('a quantile from the series buckets lies in the bucket of the true one', () => {
    const values = Array.from({ length: 100 }, (_, i) => 50 + i * 10); // 50 … 1040 ms
    const counts = new Array<number>(LATENCY_BOUNDS_S.length + 1).fill(0);
    for (const v of values) counts[LATENCY_BOUNDS_S.findIndex((b) => v / 1000 <= b)]! += 1;
    const p95 = bucketQuantile(0.95, counts, LATENCY_BOUNDS_S)! * 1000;
    expect(p95).toBeGreaterThanOrEqual(700);
    expect(p95).toBeLessThanOrEqual(1000);
  });

  it('before any tick: running, no points, the SLOs and gates pending', () => {
    const { snapshots } = setup();
    const s = DashboardSnapshotSchema.parse(JSON.parse(snapshots.json()));
    expect(s).toMatchObject({
      command: 'load',
      state: 'running',
      points: [],
      outcomes: {},
      verdict: null,
      health: null,
    });
    expect(s.conditions.map((c) => [c.kind, c.state])).toEqual([
      ['slo', 'pending'],
      ['gate', 'pending'],
    ]);
  });

  it('each tick adds a point: the series rates, in flight, quantiles over the window, outcomes summed', () => {
    const { snapshots, second } = setup();
    second([record({ ttft_ms: 400 }), record({ ttft_ms: 400 })], {
      elapsed_ms: 1000,
      offered: 10,
      sent: 10,
      ok: 2,
      rate_limited: 0,
      in_flight: 8,
    });
    second([record({ ttft_ms: 800 }), record({ outcome: 'rate_limited', ttft_ms: null, ttfp_ms: null })], {
      elapsed_ms: 2000,
      offered: 20,
      sent: 18,
      ok: 3,
      rate_limited: 1,
      in_flight: 4,
    });
    const s = snapshots.current();
    expect(s.points).toHaveLength(2);
    const [first, last] = s.points;
    expect(first).toMatchObject({ t_s: 1, step: null, offered: 0, in_flight: 8 }); // a rate needs two ticks
    expect(last).toMatchObject({ t_s: 2, offered: 10, sent: 8, ok: 1, rate_limited: 1, errors: 0, in_flight: 4 });
    // 400 ms lies in (300, 500]; the window holds both seconds: 400, 400, 800 → p50 in the 400 ms bucket.
    expect(first!.ttft_ms!.p50).toBeGreaterThan(300);
    expect(first!.ttft_ms!.p50).toBeLessThanOrEqual(500);
    expect(last!.ttft_ms!.p99).toBeGreaterThan(700);
    expect(last!.ttft_ms!.p99).toBeLessThanOrEqual(1000);
    expect(s.outcomes).toMatchObject({ ok: 3, rate_limited: 1, timeout: 0 });
    expect(s.in_flight).toBe(4);
  });

  it(`quantiles cover the last ${WINDOW_TICKS} ticks; a quiet window has none`, () => {
    const { snapshots, second } = setup();
    second([record({ ttft_ms: 5000 })], {});
    for (let i = 0; i < WINDOW_TICKS - 1; i++) second([], {});
    expect(snapshots.current().points.at(-1)!.ttft_ms!.p50).toBeGreaterThan(3000); // still in the window
    second([], {});
    expect(snapshots.current().points.at(-1)!.ttft_ms).toBeNull();
  });

  it(`keeps at most ${MAX_POINTS} points`, () => {
    const { snapshots, second } = setup();
    for (let i = 0; i < MAX_POINTS + 3; i++) second([], { elapsed_ms: (i + 1) * 1000 });
    const points = snapshots.current().points;
    expect(points).toHaveLength(MAX_POINTS);
    expect(points[0]!.t_s).toBe(4);
  });

  it('the JSON is made once per change, not per request', () => {
    const { snapshots, second } = setup();
    second([record()], {});
    const a = snapshots.json();
    expect(snapshots.json()).toBe(a);
    second([], { elapsed_ms: 2000 });
    expect(snapshots.json()).not.toBe(a);
  });

  it('health: the latest probe and the counts', () => {
    const { snapshots, second } = setup();
    second([], { health: { offset_ms: 900, status: 503, ms: 12, error: null }, health_probes: 3, health_failures: 1 });
    expect(snapshots.current().health).toEqual({ up: false, ms: 12, probes: 3, failures: 1 });
  });

  it('the end: the verdict layer decides the SLOs and gates, the state is done', () => {
    const { snapshots, second } = setup();
    second([record()], {});
    const slo = parseSlo('ttft_ms.p95<=1500');
    const verdict = decide({
      slos: [{ text: slo.gate.text, figure: 'ttft_ms.p95', value: 2026, passed: false, op: '<=', threshold: 1500 }],
      detail: '1 requests',
    });
    snapshots.finish(verdict);
    const s = DashboardSnapshotSchema.parse(JSON.parse(snapshots.json()));
    expect(s.state).toBe('done');
    expect(s.verdict).toEqual({ status: 'failed', headline: verdict.headline });
    expect(s.conditions).toEqual([
      { kind: 'slo', text: 'ttft_ms.p95<=1500', state: 'broken', detail: verdict.reasons[0]!.detail },
    ]);
  });

  it("capacity: points carry their step, rates are the current step's, decided steps are listed", () => {
    const { series, snapshots, second } = setup('capacity');
    expect(snapshots.current().conditions.every((c) => c.state === 'per-step')).toBe(true);
    second([], { elapsed_ms: 1000, offered: 5 });
    second([], { elapsed_ms: 2000, offered: 10 });
    const step = { index: 0, phase: 'ramp', target: 5, good: true, reasons: [] } as unknown as CapacityStep;
    snapshots.onStep(step);
    // Both are told (cli/run-telemetry); the new step's counters start at 0.
    series.setStep(1);
    snapshots.setStep(1);
    second([], { elapsed_ms: 1000, offered: 0 });
    second([], { elapsed_ms: 2000, offered: 7 });
    const s = snapshots.current();
    expect(s.points.map((p) => [p.step, p.offered])).toEqual([
      [1, 0],
      [1, 5],
      [2, 0],
      [2, 7],
    ]);
    expect(s.steps).toEqual([step]);
  });
});

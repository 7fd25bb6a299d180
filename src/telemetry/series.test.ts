import { describe, expect, it } from 'vitest';
import type { LoadTick } from '../runner/load-ticker.js';
import { promValues } from './prometheus.js';
import {
  bucketOf,
  createLiveSeries,
  LATENCY_BOUNDS_S,
  MAX_CELLS,
  type Family,
  type HistogramFamily,
  type ScalarFamily,
} from './series.js';
import { metricDataOf } from './otlp.js';

const record = (over: Partial<Parameters<ReturnType<typeof createLiveSeries>['observeRecord']>[0]> = {}) => ({
  set: 'default',
  mode: 'stream' as const,
  model_asked: ['openai:gpt-4o'],
  turn: null,
  outcome: 'ok' as const,
  ttfp_ms: 120,
  ttft_ms: 450,
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
const family = (families: Family[], name: string) => families.find((f) => f.name === name)!;
const series = (steps = false) =>
  createLiveSeries({ redact: (v) => v.replaceAll('sk-secret', '[redacted]'), steps, set: 'default', mode: 'stream' });

describe('telemetry series', () => {
  it('bounds run from 1 ms to 300 s, rising, at most 5/3× apart', () => {
    expect(LATENCY_BOUNDS_S[0]).toBe(0.001);
    expect(LATENCY_BOUNDS_S.at(-1)).toBe(300);
    for (let i = 1; i < LATENCY_BOUNDS_S.length; i++)
      expect(LATENCY_BOUNDS_S[i]! / LATENCY_BOUNDS_S[i - 1]!).toBeLessThanOrEqual(5 / 3 + 1e-9);
  });

  it.each([
    [0, 0],
    [0.001, 0],
    [0.0011, 1],
    [0.45, LATENCY_BOUNDS_S.indexOf(0.5)],
    [0.5, LATENCY_BOUNDS_S.indexOf(0.5)],
    [300, LATENCY_BOUNDS_S.length - 1],
    [301, LATENCY_BOUNDS_S.length],
  ])('bucket of %s s is %i (le: the first bound at or above)', (s, bucket) => {
    expect(bucketOf(s)).toBe(bucket);
  });

  it('counts records by outcome per label cell, and latencies of ok requests only', () => {
    const s = series();
    s.observeRecord(record());
    s.observeRecord(record({ ttft_ms: 900 }));
    s.observeRecord(record({ outcome: 'rate_limited', ttfp_ms: null, ttft_ms: null, total_ms: 5, response_ms: 6 }));
    s.observeRecord(record({ model_asked: ['anthropic:sk-secret-model'], outcome: 'timeout' }));
    const f = s.families();
    const requests = family(f, 'chatbench_requests_total') as ScalarFamily;
    const nonZero = requests.points.filter((p) => p.value > 0).map((p) => [p.labels.model, p.labels.outcome, p.value]);
    expect(nonZero).toEqual([
      ['openai:gpt-4o', 'ok', 2],
      ['openai:gpt-4o', 'rate_limited', 1],
      ['anthropic:[redacted]-model', 'timeout', 1],
    ]);
    const ttft = family(f, 'chatbench_ttft_seconds') as HistogramFamily;
    expect(ttft.points.map((p) => p.count)).toEqual([2, 0]);
    expect(ttft.points[0]!.sum).toBeCloseTo(1.35);
    expect(ttft.points[0]!.counts[LATENCY_BOUNDS_S.indexOf(0.5)]).toBe(1);
    expect(ttft.points[0]!.counts[LATENCY_BOUNDS_S.indexOf(1)]).toBe(1);
    // Schedule lag: every sent request, whatever its outcome.
    expect((family(f, 'chatbench_schedule_lag_seconds') as HistogramFamily).points.map((p) => p.count)).toEqual([3, 1]);
  });

  it('bounds turns (10+) and cells (one `other` past MAX_CELLS)', () => {
    const s = series();
    s.observeRecord(record({ turn: 3 }));
    s.observeRecord(record({ turn: 12 }));
    s.observeRecord(record({ turn: 40 }));
    for (let i = 0; i < MAX_CELLS + 5; i++) s.observeRecord(record({ model_asked: [`m${i}`] }));
    const requests = family(s.families(), 'chatbench_requests_total') as ScalarFamily;
    const cells = new Set(requests.points.map((p) => `${p.labels.model}|${p.labels.turn}`));
    expect(cells.size).toBe(MAX_CELLS + 1);
    expect(requests.points.find((p) => p.labels.turn === '10+' && p.labels.outcome === 'ok')!.value).toBe(2);
    // Two cells of turns, MAX_CELLS − 2 of models: the 7 models after them share `other`.
    expect(requests.points.find((p) => p.labels.model === 'other' && p.labels.outcome === 'ok')!.value).toBe(7);
  });

  it('rates come from two ticks; a capacity step labels its series and starts its counters anew', () => {
    const s = series(true);
    s.observeTick(tick());
    s.observeTick(tick({ elapsed_ms: 3000, offered: 30, sent: 28, ok: 17, rate_limited: 3, errors: 2 }));
    s.setStep(1);
    s.observeTick(tick({ elapsed_ms: 500, offered: 4 }));
    s.observeRecord(record());
    const f = s.families();
    expect((family(f, 'chatbench_sent_per_second') as ScalarFamily).points).toEqual([
      { labels: { set: 'default', mode: 'stream', step: '1' }, value: 9 },
      { labels: { set: 'default', mode: 'stream', step: '2' }, value: 0 },
    ]);
    expect((family(f, 'chatbench_offered_total') as ScalarFamily).points.map((p) => p.value)).toEqual([30, 4]);
    expect((family(f, 'chatbench_requests_total') as ScalarFamily).points[0]!.labels.step).toBe('2');
    expect(f.some((x) => x.name.startsWith('chatbench_health'))).toBe(false);
  });

  it('health gauges appear with a probe', () => {
    const s = series();
    s.observeTick(
      tick({ health: { offset_ms: 0, ms: 12, status: 503, error: 'saturated' }, health_probes: 4, health_failures: 1 }),
    );
    const f = s.families();
    expect((family(f, 'chatbench_health_up') as ScalarFamily).points[0]!.value).toBe(0);
    expect((family(f, 'chatbench_health_probe_seconds') as ScalarFamily).points[0]!.value).toBe(0.012);
    expect((family(f, 'chatbench_health_probe_failures_total') as ScalarFamily).points[0]!.value).toBe(1);
  });

  it('Prometheus values: cumulative buckets with le, _sum and _count', () => {
    const s = series();
    s.observeRecord(record({ ttft_ms: 450 }));
    s.observeRecord(record({ ttft_ms: 4 }));
    const values = promValues(family(s.families(), 'chatbench_ttft_seconds'));
    const bucket = (le: string) =>
      values.find((v) => v.metricName === 'chatbench_ttft_seconds_bucket' && v.labels.le === le)!.value;
    expect([bucket('0.003'), bucket('0.005'), bucket('0.5'), bucket('+Inf')]).toEqual([0, 1, 2, 2]);
    expect(values.find((v) => v.metricName === 'chatbench_ttft_seconds_count')!.value).toBe(2);
  });

  it('OpenTelemetry data: cumulative sums, gauges and explicit-bucket histograms in seconds', () => {
    const s = series();
    s.observeRecord(record());
    s.observeTick(tick());
    const data = metricDataOf(s.families(), 1_700_000_000_000, 1_700_000_001_500);
    const ttft = data.find((d) => d.descriptor.name === 'chatbench.ttft')!;
    expect(ttft.descriptor.unit).toBe('s');
    expect(ttft.dataPoints[0]!.endTime).toEqual([1_700_000_001, 500_000_000]);
    expect(data.find((d) => d.descriptor.name === 'chatbench.requests')!.dataPointType).toBe(3); // SUM
    expect(data.find((d) => d.descriptor.name === 'chatbench.in_flight')!.dataPointType).toBe(2); // GAUGE
  });
});

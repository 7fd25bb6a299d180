import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../records/record.js';
import type { LoadHealth, LoadSpecFields } from './load-input.js';
import { computeLoadFigures, plannedEndMs } from './load.js';
import { parseSlo } from './load-slo.js';
import { toLoadRecord } from './load-window.js';
import { makeRecord } from './test-records.js';

const SPEC: LoadSpecFields = {
  operation: 'chat',
  mode: 'stream',
  model: 'open',
  rate: 10,
  arrival: 'constant',
  stages: null,
  duration_ms: 10_000,
  requests: null,
  warmup_ms: 2000,
  cooldown_ms: 2000,
  set: 'default',
};

const HEALTH: LoadHealth = {
  planned_arrivals: 0,
  sent: 0,
  dropped: [],
  late_sends: 0,
  schedule_lag_ms: { p50: 0.2, p99: 1, max: 2 },
  peak_in_flight: 3,
  cpu_user_ms: 40,
  cpu_system_ms: 10,
  interrupted: false,
  started_at: '2026-01-01T00:00:00.000Z',
  start_delay_ms: 0,
  schedule_ms: 10_000,
};

let n = 0;
/** An open-loop record scheduled at `at` ms, sent `queue` ms later, lasting `total` ms. */
function rec(at: number, over: Partial<RequestRecord> = {}, queue = 0, total = 100): ReturnType<typeof toLoadRecord> {
  n += 1;
  const outcome = over.outcome ?? 'ok';
  return toLoadRecord(
    makeRecord({
      question_id: `q${n}`,
      repeat: n,
      scheduled_offset_ms: at,
      sent_offset_ms: at + queue,
      queue_ms: queue,
      total_ms: total,
      response_ms: queue + total,
      ttfp_ms: outcome === 'ok' ? 10 : null,
      headers_ms: 5,
      attempts: [
        {
          attempt: 0,
          outcome,
          http_status: outcome === 'rate_limited' ? 429 : 200,
          error_code: null,
          retry_after_s: null,
          total_ms: total,
        },
      ],
      ...over,
    }),
  );
}

/** One arrival every 100 ms for 10 s (10/s), all ok. */
const steady = () => Array.from({ length: 100 }, (_, i) => rec(i * 100));

describe('computeLoadFigures: windows and rates', () => {
  it('splits warm-up, measured and cool-down by arrival, with per-second rates of the measured window', () => {
    const { summary } = computeLoadFigures({
      records: steady(),
      spec: SPEC,
      generator: { ...HEALTH, planned_arrivals: 100, sent: 100 },
      slos: [],
    });
    const { warmup, measured, cooldown } = summary.windows;
    expect([warmup.start_ms, warmup.end_ms, measured.end_ms, cooldown.end_ms]).toEqual([0, 2000, 8000, 10_000]);
    expect([warmup.sent, measured.sent, cooldown.sent]).toEqual([20, 60, 20]);
    expect(measured.duration_s).toBe(6);
    expect(measured.rates.offered).toBeCloseTo(10);
    expect(measured.rates.sent).toBeCloseTo(10);
    expect(measured.rates.ok).toBeCloseTo(10);
    expect(measured.rates.completed).toBeCloseTo(10);
    expect(measured.rates.rate_limited).toBe(0);
    expect(measured.shares.ok_rate).toBe(1);
    expect(summary.run.duration_ms).toBe(10_000);
    expect(summary.warning).toBeNull();
  });

  it('counts dropped arrivals as offered but not sent, and warns in the first line', () => {
    const dropped = [{ scheduled_offset_ms: 3000 }, { scheduled_offset_ms: 3050 }, { scheduled_offset_ms: 500 }];
    const { summary } = computeLoadFigures({
      records: steady(),
      spec: SPEC,
      generator: { ...HEALTH, dropped },
      slos: [],
    });
    expect(summary.windows.measured.offered).toBe(62);
    expect(summary.windows.measured.dropped).toBe(2);
    expect(summary.windows.measured.rates.offered).toBeCloseTo(62 / 6);
    expect(summary.windows.warmup.dropped).toBe(1);
    expect(summary.generator.fell_behind).toBe(true);
    expect(summary.warning).toMatch(/^Warning: the load generator fell behind.*3 arrivals dropped/);
  });

  it('warns when the schedule lag p99 is over 5 ms and a tenth of the median latency, with 1% of sends late', () => {
    const { summary } = computeLoadFigures({
      records: steady(),
      spec: SPEC,
      generator: { ...HEALTH, sent: 100, schedule_lag_ms: { p50: 1, p99: 12.5, max: 30 }, late_sends: 7 },
      slos: [],
    });
    expect(summary.generator.fell_behind).toBe(true);
    expect(summary.warning).toContain('schedule lag p99 12.5 ms');
    expect(summary.warning).toContain('7 late sends of 100');
  });

  it('does not warn about a lateness small next to the latencies measured (4 late of 150, lag p99 7.6 ms, TTFP 300 ms)', () => {
    const records = Array.from({ length: 150 }, (_, i) => rec(i * 66, { ttfp_ms: 300 }, 0, 400));
    const { summary } = computeLoadFigures({
      records,
      spec: SPEC,
      generator: {
        ...HEALTH,
        sent: 150,
        planned_arrivals: 150,
        schedule_lag_ms: { p50: 0.4, p99: 7.6, max: 9 },
        late_sends: 4,
      },
      slos: [],
    });
    expect(summary.generator.fell_behind).toBe(false);
    expect(summary.warning).toBeNull();
  });

  it('splits 429s, errors and ok into rates and shares', () => {
    const records = steady().map((r, i) =>
      i % 10 === 3
        ? rec(i * 100, { outcome: 'rate_limited' })
        : i % 10 === 7
          ? rec(i * 100, { outcome: 'http_error' })
          : r,
    );
    const { measured } = computeLoadFigures({ records, spec: SPEC, generator: null, slos: [] }).summary.windows;
    expect(measured.rates.rate_limited).toBeCloseTo(1);
    expect(measured.rates.errors).toBeCloseTo(1);
    expect(measured.rates.ok).toBeCloseTo(8);
    expect(measured.shares.rate_limited_rate).toBeCloseTo(0.1);
    expect(measured.shares.error_rate).toBeCloseTo(0.1);
    expect(measured.latency.ttfp_ms?.count).toBe(48);
  });

  it('reports service time from sent and response time from scheduled', () => {
    const records = Array.from({ length: 100 }, (_, i) => rec(i * 100, {}, i >= 50 ? 400 : 0, 100));
    const { summary, samples } = computeLoadFigures({
      records,
      spec: { ...SPEC, warmup_ms: 0, cooldown_ms: 0 },
      generator: null,
      slos: [],
    });
    const { latency } = summary.windows.measured;
    expect(latency.total_ms?.max).toBe(100);
    expect(latency.response_ms?.max).toBe(500);
    expect(latency.response_ms?.p50).toBe(300);
    expect(latency.queue_ms?.p99).toBe(400);
    expect(samples.response_ms).toHaveLength(100);
    // No generator.json: lag from queue_ms, and 400 ms behind is late.
    expect(summary.generator.from_generator).toBe(false);
    expect(summary.generator.late_sends).toBe(50);
    expect(summary.warning).toMatch(/^Warning/);
  });

  it('ends an interrupted run at its last arrival, and a requests-bounded open run at requests / rate', () => {
    const records = Array.from({ length: 30 }, (_, i) => rec(i * 100));
    const interrupted = computeLoadFigures({
      records,
      spec: { ...SPEC, warmup_ms: 0, cooldown_ms: 0 },
      generator: { ...HEALTH, interrupted: true },
      slos: [],
    });
    expect(interrupted.summary.run.duration_ms).toBe(2900);
    expect(interrupted.summary.run.interrupted).toBe(true);
    expect(plannedEndMs({ ...SPEC, duration_ms: null, requests: 50 })).toBe(5000);
    expect(
      plannedEndMs({
        ...SPEC,
        stages: [
          { duration_ms: 1000, target: 5 },
          { duration_ms: 2000, target: 0 },
        ],
      }),
    ).toBe(3000);
    expect(plannedEndMs({ ...SPEC, model: 'closed', duration_ms: null, requests: 50 })).toBeNull();
  });

  it('closed model: no schedule lag, offered equals sent, no warning; users are the target', () => {
    const records = Array.from({ length: 40 }, (_, i) => rec(i * 250, { scheduled_offset_ms: i * 250, queue_ms: 0 }));
    const closed = { ...SPEC, model: 'closed' as const, rate: undefined, concurrency: 4, warmup_ms: 0, cooldown_ms: 0 };
    const health = {
      ...HEALTH,
      schedule_lag_ms: { p50: null, p99: null, max: null },
      cpu_user_ms: null,
      cpu_system_ms: null,
    };
    const { summary } = computeLoadFigures({ records, spec: closed, generator: health, slos: [] });
    expect(summary.generator.schedule_lag_ms).toBeNull();
    expect(summary.generator.cpu_ms_per_request).toBeNull();
    expect(summary.warning).toBeNull();
    expect(summary.run).toMatchObject({ model: 'closed', target: 4, arrival: null });
    expect(summary.windows.measured.offered).toBe(summary.windows.measured.sent);
  });

  it('has empty figures, never zeros, for an empty measured window', () => {
    const { measured } = computeLoadFigures({
      records: [],
      spec: { ...SPEC, warmup_ms: 20_000 },
      generator: null,
      slos: [],
    }).summary.windows;
    expect(measured.duration_s).toBe(0);
    expect(measured.rates.ok).toBeNull();
    expect(measured.shares.ok_rate).toBeNull();
    expect(measured.latency.ttfp_ms).toBeNull();
  });

  it('tracks the TTFP trend within the window', () => {
    const records = Array.from({ length: 100 }, (_, i) => rec(i * 100, { ttfp_ms: i < 50 ? 100 : 300 }));
    const { ttfp_trend } = computeLoadFigures({
      records,
      spec: { ...SPEC, warmup_ms: 0, cooldown_ms: 0 },
      generator: null,
      slos: [],
    }).summary.windows.measured;
    expect(ttfp_trend).toEqual({ first_p50_ms: 100, last_p50_ms: 300, rise: 2 });
  });
});

describe('goodput and SLOs', () => {
  const records = Array.from({ length: 100 }, (_, i) =>
    rec(i * 100, { ttfp_ms: i % 4 === 0 ? 3000 : 100, outcome: i % 10 === 9 ? 'timeout' : 'ok' }),
  );
  const spec = { ...SPEC, warmup_ms: 0, cooldown_ms: 0 };

  it('counts ok requests meeting every latency SLO per second; errors are never good', () => {
    const slos = [parseSlo('ttfp_ms.p95<=2000'), parseSlo('error_rate<=0.01')];
    const { summary } = computeLoadFigures({ records, spec, generator: null, slos });
    // 100 arrivals, 10 timeouts (i ≡ 9 mod 10, never ≡ 0 mod 4): of the 90 ok, 25 are slow.
    const ok = records.filter((r) => r.outcome === 'ok');
    const good = ok.filter((r) => (r.ttfp_ms ?? Infinity) <= 2000).length;
    expect(good).toBe(65);
    expect(summary.windows.measured.good).toBe(good);
    expect(summary.windows.measured.rates.goodput).toBeCloseTo(good / 10);
    expect(summary.slos.map((s) => s.passed)).toEqual([false, false]);
    expect(summary.slos[1]?.reason).toContain('error_rate = 10%');
  });

  it('with no SLO every ok request is good', () => {
    const { measured } = computeLoadFigures({ records, spec, generator: null, slos: [] }).summary.windows;
    expect(measured.good).toBe(90);
  });

  it('a per-request SLO (no statistic) is checked on the max', () => {
    const { summary } = computeLoadFigures({
      records,
      spec,
      generator: null,
      slos: [parseSlo('ttfp_ms<=5000'), parseSlo('total_ms<=50')],
    });
    expect(summary.slos.map((s) => [s.figure, s.passed])).toEqual([
      ['ttfp_ms.max', true],
      ['total_ms.max', false],
    ]);
    expect(summary.windows.measured.good).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { HealthProbeRun } from '../records/health-probe.js';
import { TimelineRowSchema } from '../records/load-summary.js';
import { probeFigures, withHealth } from './health.js';

const RUN: HealthProbeRun = {
  path: '/health/ready',
  interval_ms: 500,
  samples: [
    { offset_ms: -20, ms: 1, status: 200, error: null }, // before the zero: in no window, in no second
    { offset_ms: 0, ms: 2, status: 200, error: null },
    { offset_ms: 500, ms: 4, status: 200, error: null },
    {
      offset_ms: 1000,
      ms: 30,
      status: 503,
      error: 'SERVICE_UNAVAILABLE Request threadpool saturated for 12.3s (5 requests queued)',
    },
    { offset_ms: 1500, ms: 6, status: 200, error: null },
    { offset_ms: 2000, ms: null, status: null, error: 'ECONNREFUSED' },
  ],
};

describe('probeFigures', () => {
  it("counts the window's probes, failures by status, latency of the answered ones and the first failure", () => {
    const f = probeFigures(RUN, 0, 2500);
    expect(f).toMatchObject({
      path: '/health/ready',
      interval_ms: 500,
      probes: 5,
      failures: 2,
      statuses: { '200': 3, '503': 1, no_answer: 1 },
      first_failure_ms: 1000,
    });
    expect(f.first_failure).toBe('503: SERVICE_UNAVAILABLE Request threadpool saturated for 12.3s (5 requests queued)');
    expect(f.health_ms).toMatchObject({ count: 4, max: 30, min: 2 });
    expect(probeFigures(RUN, 0, 1000)).toMatchObject({
      probes: 2,
      failures: 0,
      first_failure: null,
      first_failure_ms: null,
    });
    expect(probeFigures(RUN, 3000, 4000)).toMatchObject({ probes: 0, failures: 0, health_ms: null });
  });
});

describe('withHealth', () => {
  it('fills each second: probes, failures, the slowest latency and the worst status (no answer worst)', () => {
    const rows = [0, 1, 2].map((second) =>
      TimelineRowSchema.parse({
        second,
        window: 'measured',
        offered: 0,
        sent: 0,
        dropped: 0,
        ok: 0,
        rate_limited: 0,
        errors: 0,
        in_flight: 0,
        ttfp_p50_ms: null,
        ttfp_p95_ms: null,
        total_p50_ms: null,
        total_p95_ms: null,
      }),
    );
    const out = withHealth(rows, RUN);
    expect(out.map((r) => [r.health_probes, r.health_failures, r.health_max_ms, r.health_status])).toEqual([
      [2, 0, 4, 200],
      [2, 1, 30, 503],
      [1, 1, null, null],
    ]);
    expect(withHealth(rows, null)).toEqual(rows);
  });
});

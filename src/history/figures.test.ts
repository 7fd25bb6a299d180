import { describe, expect, it } from 'vitest';
import type { CapacityResult } from '../records/load-summary.js';
import { capacityFigures } from './figures.js';

const step = (index: number, target: number, good: boolean) => ({
  index,
  phase: 'ramp' as const,
  target,
  good,
  reasons: [],
  dir: `step-${index}`,
  offered_rate: target,
  sent_rate: target,
  ok_rate_per_s: target,
  goodput: good ? target : target / 2,
  rate_limited_rate: 0,
  error_rate: good ? 0 : 0.2,
  tpot_per_token_p50_ms: 20,
  output_tokens_per_s: 40,
  itl_p95_ms: 25,
  ttft_p50_ms: 1000,
  ttft_p95_ms: good ? 1500 : 3000,
  ttfp_p50_ms: 100,
  ttfp_p95_ms: good ? 200 : 900,
  total_p95_ms: 800,
  response_p95_ms: 850,
  ttfp_rise: null,
  warning: null,
  loop_delay_ms: null,
});

describe('capacityFigures', () => {
  it("keeps the sustainable target and the knee for the run, and each step's figures by its index", () => {
    const result = {
      capacity_version: 1,
      unit: 'requests_per_s',
      sustainable: 10,
      knee: 20,
      stopped: 'converged',
      precision: 0.1,
      slos: [],
      steps: [step(0, 10, true), step(1, 20, false)],
      duration_s: 30,
    } as CapacityResult;
    const rows = capacityFigures(result);
    expect(rows.filter((r) => r.step === null).map((r) => [r.figure, r.value])).toEqual([
      ['sustainable', 10],
      ['knee', 20],
    ]);
    expect(rows.find((r) => r.step === 1 && r.figure === 'ttfp_p95_ms')?.value).toBe(900);
    expect(rows.find((r) => r.step === 1 && r.figure === 'ttft_p95_ms')?.value).toBe(3000);
    expect(rows.find((r) => r.step === 0 && r.figure === 'goodput')?.value).toBe(10);
    // A figure a step does not have (null) is left out, not stored as 0.
    expect(rows.some((r) => r.figure === 'ttfp_rise')).toBe(false);
  });

  it('stores no knee when no step failed', () => {
    const result = {
      capacity_version: 1,
      unit: 'users',
      sustainable: null,
      knee: null,
      stopped: 'floor',
      precision: 0.1,
      slos: [],
      steps: [],
      duration_s: 1,
    } as CapacityResult;
    expect(capacityFigures(result)).toEqual([]);
  });
});

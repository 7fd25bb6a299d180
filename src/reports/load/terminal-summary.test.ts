import { describe, expect, it } from 'vitest';
import type { CapacityResult, CapacityStep } from '../../records/load-summary.js';
import type { Paint } from '../paint.js';
import { capacityVerdict, formatFigure, renderCapacitySummary } from './terminal-summary.js';

/** Marks instead of colour codes, so a test can see what would be coloured. */
const MARKS: Paint = { enabled: true, good: (t) => `<g>${t}</g>`, bad: (t) => `<b>${t}</b>`, warn: (t) => `<w>${t}</w>`, dim: (t) => t, bold: (t) => t };

const step = (index: number, target: number, good: boolean, over: Partial<CapacityStep> = {}): CapacityStep => ({
  index, phase: index < 3 ? 'ramp' : 'bisect', target, good, reasons: good ? [] : ['ttfp_ms.p95<=2000 broken: 2310 ms'], dir: `steps/0${index + 1}-rate-${target}`,
  offered_rate: target, sent_rate: target, ok_rate_per_s: good ? target : target * 0.8, goodput: target, rate_limited_rate: good ? 0 : 0.2, error_rate: 0,
  ttft_p50_ms: 600, ttft_p95_ms: good ? 1500 : 2900, ttfp_p50_ms: 200, ttfp_p95_ms: good ? 900 : 2310, total_p95_ms: 3000, response_p95_ms: 3100, ttfp_rise: 0.01, tpot_per_token_p50_ms: null, output_tokens_per_s: null, itl_p95_ms: null, warning: null, loop_delay_ms: null, ...over,
});

const RESULT: CapacityResult = {
  capacity_version: 1, unit: 'requests_per_s', sustainable: 32, knee: 34, stopped: 'converged', precision: 0.1,
  slos: ['ttfp_ms.p95<=2000'], steps: [step(0, 8, true), step(1, 16, true), step(2, 32, true), step(3, 64, false), step(4, 34, false)], duration_s: 100,
};

describe('renderCapacitySummary', () => {
  it('a row per step with its figures, the bad ones marked with why; the SLOs', () => {
    const text = renderCapacitySummary(RESULT, MARKS);
    const lines = text.split('\n');
    expect(lines[0]).toBe('capacity: arrival rate, 5 steps in 100 s');
    expect(lines[2]).toMatch(/^ +step +target +offered +ok +429 +errors +TTFT p50 +TTFT p95 +TTFP p95 +total p95 +response p95 +verdict$/);
    expect(lines[5]).toMatch(/^ +3 +32\/s +32\.0\/s +32\.0\/s +0% +0% +600 ms +1500 ms +900 ms +3000 ms +3100 ms +good$/);
    expect(lines[6]).toMatch(/<b>bad<\/b> {2}ttfp_ms\.p95<=2000 broken: 2310 ms$/);
    expect(text).toContain('SLOs: ttfp_ms.p95<=2000');
    expect(text).not.toContain('warning');
  });

  it('warns first when the generator fell behind in some steps', () => {
    const behind = { ...RESULT, steps: [...RESULT.steps.slice(0, 3), step(3, 64, false, { warning: 'Warning: fell behind' }), RESULT.steps[4]!] };
    expect(renderCapacitySummary(behind, MARKS).split('\n')[0]).toBe('<w>warning: the load generator fell behind in 1 of 5 steps (64/s): they measure the generator as much as the service</w>');
  });

  it('the verdict: found, failed (nothing sustainable: exit 1) or interrupted', () => {
    expect(capacityVerdict(RESULT, MARKS)).toMatch(/^<g>FOUND<\/g>: highest sustainable: 32 requests\/s; knee at 34 requests\/s/);
    expect(capacityVerdict({ ...RESULT, sustainable: null, stopped: 'floor' }, MARKS)).toMatch(/^<b>FAILED<\/b>: no sustainable target found/);
    expect(capacityVerdict({ ...RESULT, stopped: 'interrupted' }, MARKS)).toMatch(/^<w>INTERRUPTED<\/w>: /);
  });
});

describe('formatFigure', () => {
  it.each([
    ['ttfp_ms.p95', 402.4, '402 ms'],
    ['ttfp_ms', 12.34, '12.3 ms'],
    ['error_rate', 0.0123, '1.2%'],
    ['ok_per_s', 19.87, '19.9/s'],
    ['goodput', 3, '3/s'],
    ['dropped', 4, '4'],
    ['ttft_ms.p99', null, '–'],
  ] as const)('%s %s → %s', (figure, value, shown) => {
    expect(formatFigure(figure, value)).toBe(shown);
  });
});

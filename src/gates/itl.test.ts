import { describe, expect, it } from 'vitest';
import { createRunCollector } from '../compare/run-data.js';
import { evaluateGates } from './evaluate.js';
import { makeRun } from '../../test/fixtures/runs/make-runs.js';
import { FIGURE_NAMES, figureKind, higherIsBetter } from '../figures/catalogue.js';
import { parseGate } from '../figures/grammar.js';
import { figureUnit } from '../figures/units.js';
import { createGoodPredicate, evaluateSlos, parseSlo } from '../metrics/load-slo.js';
import type { LoadSummary } from '../records/load-summary.js';
import type { LatencyStats } from '../records/summary.js';

// Every ok answer of the run streams with gaps 10, 20 and 30 ms: pooled, the ITL's p50 is 20 ms, its max 30.
const GAPS = [10, 20, 30];
const run = (() => {
  const collector = createRunCollector();
  for (const record of makeRun({ misses: new Set() })) collector.add({ ...record, answer_gaps_ms: GAPS });
  return collector.finish('run');
})();

describe('the ITL in the figure catalogue', () => {
  it('is a latency figure named answer_gap_ms (summary.json), itl_ms its other name, lower is better, in ms', () => {
    expect(figureKind('answer_gap_ms')).toBe('latency');
    expect(FIGURE_NAMES).toContain('answer_gap_ms');
    expect(higherIsBetter('answer_gap_ms.p95')).toBe(false);
    expect(figureUnit('answer_gap_ms.p95')).toBe('ms');
    expect(parseGate('itl_ms.p95 <= 50')).toMatchObject({ figure: 'answer_gap_ms', stat: 'p95', threshold: 50 });
    expect(() => parseGate('itl_ms <= 50')).toThrow(/needs a statistic/);
  });

  it('a gate reads the pooled gaps of the group: passes under them, fails over them', () => {
    const [passed] = evaluateGates([parseGate('itl_ms.p50 <= 25')], run);
    // The pooled histogram keeps percentiles within 0.1% (metrics/pooled-latency).
    expect(passed!.passed).toBe(true);
    expect(passed!.value).toBeCloseTo(20, 1);
    expect(passed!.reason).toBe('answer_gap_ms.p50 <= 25 passed for set accurate/stream: 20 ms');
    const [failed] = evaluateGates([parseGate('answer_gap_ms.max < 25')], run);
    expect(failed!.passed).toBe(false);
    expect(failed!.value).toBeCloseTo(30, 1);
    expect(failed!.reason).toContain('failed for set accurate/stream: 30 ms');
  });

  it('a run without gaps (full mode, or before ITL) fails the gate saying so', () => {
    const collector = createRunCollector();
    for (const record of makeRun({ misses: new Set() })) collector.add({ ...record, answer_gaps_ms: [] });
    const [result] = evaluateGates([parseGate('itl_ms.p95 <= 50')], collector.finish('none'));
    expect(result).toMatchObject({ passed: false, value: null });
    expect(result!.reason).toContain('no answer_gap_ms.p95 in the run');
  });
});

describe('a load SLO on the ITL', () => {
  const stats: LatencyStats = { count: 300, mean: 20, min: 10, p50: 20, p90: 29, p95: 30, p99: 30, p99_9: 30, max: 30 };
  const summaryWith = (gaps: LatencyStats | null) =>
    ({ windows: { measured: { latency: { answer_gap_ms: gaps } } }, by_turn: {} }) as unknown as LoadSummary;

  it("reads the measured window's pooled gaps; it defines no goodput (a gap is not a request)", () => {
    const slos = [parseSlo('itl_ms.p95 <= 40'), parseSlo('answer_gap_ms.p50 < 15')];
    const [met, broken] = evaluateSlos(slos, summaryWith(stats));
    expect(met).toMatchObject({ figure: 'answer_gap_ms.p95', value: 30, passed: true });
    expect(broken).toMatchObject({ value: 20, passed: false });
    expect(broken!.reason).toBe('answer_gap_ms.p50 < 15 broken: answer_gap_ms.p50 = 20 ms');
    expect(evaluateSlos(slos, summaryWith(null))[0]!.reason).toContain('no answer_gap_ms.p95 in the measured window');
    const good = createGoodPredicate(slos);
    const ok = { outcome: 'ok', headers_ms: 5, ttfp_ms: 9, ttft_ms: 9, total_ms: 99, response_ms: 99, queue_ms: 0 };
    expect(good(ok)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { createRunCollector } from '../compare/run-data.js';
import { evaluateGates } from '../gates/evaluate.js';
import { makeRun } from '../../test/fixtures/runs/make-runs.js';
import { FIGURE_NAMES, figureKind, higherIsBetter } from './catalogue.js';
import { parseGate } from './grammar.js';
import { figureUnit } from './units.js';

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

import { describe, expect, it } from 'vitest';
import { compareRuns } from '../compare/compare.js';
import { createRunCollector, type RunData } from '../compare/run-data.js';
import { UsageError } from '../errors.js';
import type { RequestRecord } from '../records/record.js';
import { BASELINE_MISSES, DEGRADED_MISSES, makeRun } from '../../test/fixtures/runs/make-runs.js';
import { evaluateGates, gateTargets } from './evaluate.js';
import { parseGate } from '../figures/grammar.js';

const runOf = (records: RequestRecord[], source = 'run'): RunData => {
  const collector = createRunCollector();
  for (const r of records) collector.add(r);
  return collector.finish(source);
};
const gates = (...texts: string[]) => texts.map((t) => parseGate(t));
const RESAMPLES = 500;

const baseline = runOf(makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'fast'] }), 'base');
const compareWith = (current: RunData) => ({
  baseline,
  comparison: compareRuns(baseline, current, { resamples: RESAMPLES }),
});

describe('absolute gates', () => {
  const run = runOf(makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'fast'] }));
  it.each([
    { gate: 'citation_recall >= 0.9', passed: true, value: 0.9 },
    { gate: 'citation_recall > 0.9', passed: false, value: 0.9 },
    { gate: 'pass_rate >= 0.95', passed: false, value: 0.9 },
    { gate: 'ok_rate == 1', passed: true, value: 1 },
    { gate: 'error_rate <= 0', passed: true, value: 0 },
    { gate: 'rate_limited_rate < 0.01', passed: true, value: 0 },
    { gate: 'pass_at_n >= 0.9', passed: true, value: 0.9 },
    { gate: 'flaky_rate <= 0', passed: true, value: 0 },
    { gate: 'ttfp_ms.max <= 10000', passed: true },
    { gate: 'ttfp_ms.p50 < 1', passed: false },
  ])('$gate → passed $passed on each set', ({ gate, passed, value }) => {
    const results = evaluateGates(gates(gate), run);
    expect(results.map((r) => r.target.set)).toEqual(['accurate', 'fast']);
    for (const r of results) {
      expect(r.passed).toBe(passed);
      if (value !== undefined) expect(r.value).toBeCloseTo(value, 12);
    }
  });

  it('a scope narrows the groups; a failed score gate names the lowest questions', () => {
    const [result, ...rest] = evaluateGates(gates('set:fast mode:stream citation_recall >= 0.95'), run);
    expect(rest).toEqual([]);
    expect(result!.reason).toBe('citation_recall >= 0.95 failed for set fast/stream: 0.9; lowest: q4, q17, q29');
    expect(result!.questions).toEqual(['q4', 'q17', 'q29']);
  });

  it('a figure no request had fails, saying so', () => {
    const timeouts = runOf(
      makeRun({ misses: new Set(), timeouts: new Set(Array.from({ length: 30 }, (_, i) => i + 1)) }),
    );
    const [r] = evaluateGates(gates('ttfp_ms.p95 <= 2000'), timeouts);
    expect(r).toMatchObject({ passed: false, value: null });
    expect(r!.reason).toContain('no ttfp_ms.p95 in the run');
  });
});

describe('delta and ratio gates', () => {
  it('a significant citation drop fails the delta gate and names the questions that broke', () => {
    const degraded = runOf(makeRun({ misses: DEGRADED_MISSES, sets: ['accurate', 'fast'] }));
    const [accurate] = evaluateGates(
      gates('set:accurate citation_recall delta >= -0.02 significant'),
      degraded,
      compareWith(degraded),
    );
    expect(accurate!.passed).toBe(false);
    expect(accurate!.significant).toBe(true);
    expect(accurate!.value).toBeCloseTo(-0.3, 12);
    expect(accurate!.ci!.high).toBeLessThan(0);
    expect(accurate!.reason).toMatch(
      /^citation_recall delta >= -0\.02 significant failed for set accurate\/stream: -0\.3 \[-0\.\d+, -0\.\d+\] significant \(0\.9 → 0\.6\); dropped most: q2, q6, q9, q11, q14$/,
    );
  });

  it('with "significant", a small drop that crosses the threshold but is not significant passes', () => {
    const oneMore = runOf(makeRun({ misses: new Set([...BASELINE_MISSES, 8]), sets: ['accurate', 'fast'] }));
    const compared = compareWith(oneMore);
    const [plain] = evaluateGates(gates('set:accurate citation_recall delta >= -0.02'), oneMore, compared);
    const [lenient] = evaluateGates(
      gates('set:accurate citation_recall delta >= -0.02 significant'),
      oneMore,
      compared,
    );
    expect(plain!.value).toBeCloseTo(-1 / 30, 12);
    expect(plain!.significant).toBe(false);
    expect(plain!.passed).toBe(false);
    expect(lenient!.passed).toBe(true);
    expect(lenient!.reason).toContain('passed for set accurate/stream: -0.033');
  });

  it('a slower run fails the latency ratio gate; the same run passes it', () => {
    const slower = runOf(makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'fast'], slower: 1.6 }));
    const results = evaluateGates(gates('ttfp_ms.p95 ratio <= 1.2'), slower, compareWith(slower));
    expect(results.map((r) => r.passed)).toEqual([false, false]);
    expect(results[0]!.value).toBeCloseTo(1.6, 9);
    expect(results[0]!.ci!.low).toBeGreaterThan(1);
    const same = runOf(makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'fast'] }));
    expect(evaluateGates(gates('ttfp_ms.p95 ratio <= 1.2'), same, compareWith(same)).every((r) => r.passed)).toBe(true);
  });

  it('a score ratio uses the delta interval scaled by the baseline', () => {
    const degraded = runOf(makeRun({ misses: DEGRADED_MISSES, sets: ['accurate', 'fast'] }));
    const [r] = evaluateGates(gates('set:accurate pass_rate ratio >= 0.9'), degraded, compareWith(degraded));
    expect(r!.value).toBeCloseTo(0.6 / 0.9, 12);
    expect(r!.ci!.high).toBeLessThan(1);
  });

  it('a group missing from the baseline fails its delta gate', () => {
    const renamed = runOf(makeRun({ misses: BASELINE_MISSES, sets: ['accurate', 'new-set'] }));
    const results = evaluateGates(gates('pass_rate delta >= 0'), renamed, compareWith(renamed));
    expect(results.map((r) => [r.target.set, r.passed])).toEqual([
      ['accurate', true],
      ['new-set', false],
    ]);
    expect(results[1]!.reason).toBe('pass_rate delta >= 0 failed for set new-set/stream: not in the baseline');
  });
});

describe('targets and scope errors', () => {
  const run = runOf(makeRun({ misses: BASELINE_MISSES, multiModel: true }));
  it('a multi-model set is gated per model', () => {
    expect(gateTargets(run).map((g) => [g.set, g.model_index])).toEqual([
      ['accurate', null],
      ['duo', 0],
      ['duo', 1],
    ]);
    const results = evaluateGates(gates('set:duo citation_recall >= 0.95'), run);
    expect(results.map((r) => [r.target.label, r.passed])).toEqual([
      ['duo · model-0 (stream)', true],
      ['duo · model-1 (stream)', false],
    ]);
  });

  it.each([
    {
      gate: 'set:nope pass_rate >= 0',
      message: 'gate "set:nope pass_rate >= 0": set:nope names no set of the run (its sets: accurate, duo)',
    },
    {
      gate: 'mode:full pass_rate >= 0',
      message: 'gate "mode:full pass_rate >= 0": mode:full names no mode of the run (it ran stream)',
    },
    {
      gate: 'pass_rate delta >= 0',
      message:
        'gate "pass_rate delta >= 0": delta needs a baseline to compare with (compare BASELINE CURRENT, or eval --baseline DIR)',
    },
    {
      gate: 'ttfp_ms.p95 ratio <= 1.2',
      message:
        'gate "ttfp_ms.p95 ratio <= 1.2": ratio needs a baseline to compare with (compare BASELINE CURRENT, or eval --baseline DIR)',
    },
  ])('$gate', ({ gate, message }) => {
    expect(() => evaluateGates(gates(gate), run)).toThrow(new UsageError(message));
  });
});

import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { computeLoadFigures } from '../metrics/load.js';
import { toLoadRecord } from '../metrics/load-window.js';
import { makeRecord } from '../metrics/test-records.js';
import { evaluateLoadGates, parseLoadGateFlag } from './load.js';

const records = Array.from({ length: 40 }, (_, i) =>
  toLoadRecord(
    makeRecord({
      question_id: `q${i}`,
      repeat: i,
      scheduled_offset_ms: i * 100,
      sent_offset_ms: i * 100,
      ttfp_ms: 100 + i * 10,
      outcome: i % 10 === 0 ? 'rate_limited' : 'ok',
    }),
  ),
);
const spec = {
  operation: 'chat',
  mode: 'stream',
  model: 'open',
  rate: 10,
  arrival: 'constant',
  stages: null,
  duration_ms: 4000,
  requests: null,
  warmup_ms: 0,
  cooldown_ms: 0,
  set: 'default',
} as const;
const summary = computeLoadFigures({ records, spec, generator: null, slos: [] }).summary;

describe('evaluateLoadGates', () => {
  it('checks latency, share and load-only figures on the measured window', () => {
    const results = evaluateLoadGates(
      ['ttfp_ms.p99 <= 3000', 'rate_limited_rate <= 0.05', 'ok_per_s >= 10', 'response_ms.p50 < 2000'].map(
        parseLoadGateFlag,
      ),
      summary,
    );
    expect(results.map((r) => r.passed)).toEqual([true, false, false, true]);
    expect(results[1]?.value).toBeCloseTo(0.1);
    expect(results[1]?.reason).toBe('rate_limited_rate <= 0.05 failed for the measured window of default/stream: 10%');
    expect(results[2]?.value).toBeCloseTo(9);
  });

  it('fails a gate whose figure has no value, saying so', () => {
    const [result] = evaluateLoadGates([parseLoadGateFlag('citation_recall >= 0.5')], summary);
    expect(result?.passed).toBe(false);
    expect(result?.reason).toContain('no citation_recall in the measured window');
  });

  it('fails a gate on a turn the measured window did not reach (the plan has it: the command checked before the run)', () => {
    const [result] = evaluateLoadGates([parseLoadGateFlag('turn:3 ttft_ms.p95 <= 4000')], summary);
    expect(result?.passed).toBe(false);
    expect(result?.value).toBeNull();
    expect(result?.reason).toContain('no ttft_ms.p95 in turn 3 in the measured window');
  });

  it('refuses scopes of another set or mode, and baselines', () => {
    expect(() => evaluateLoadGates([parseLoadGateFlag('mode:full ttfp_ms.p95 <= 1')], summary)).toThrow(UsageError);
    expect(() => evaluateLoadGates([parseLoadGateFlag('ttfp_ms.p95 ratio <= 1.2')], summary)).toThrow(
      /needs a baseline/,
    );
    expect(evaluateLoadGates([parseLoadGateFlag('set:default mode:stream error_rate <= 0')], summary)[0]?.passed).toBe(
      true,
    );
  });
});

describe('the load figures extend the catalogue for load gates only', () => {
  it('eval gates still refuse load-only figures', async () => {
    const { parseGate } = await import('../figures/grammar.js');
    expect(() => parseGate('response_ms.p95 <= 1')).toThrow(/unknown figure "response_ms"/);
    expect(parseLoadGateFlag('response_ms.p95 <= 1').figure).toBe('response_ms');
  });
});

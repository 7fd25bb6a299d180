import { describe, expect, it } from 'vitest';
import { upgradeRecordJson } from './upgrade.js';
import { GroupFiguresSchema } from './summary.js';
import { parseGate } from '../figures/grammar.js';

describe('tpot_ms reads as time_per_delta_ms (issue 27 §6)', () => {
  it('in an old record and its models', () => {
    expect(upgradeRecordJson({ tpot_ms: 12, models: [{ tpot_ms: 3 }] })).toEqual({
      time_per_delta_ms: 12,
      models: [{ time_per_delta_ms: 3 }],
    });
    expect(upgradeRecordJson({ time_per_delta_ms: 5, tpot_ms: 12 })).toEqual({ time_per_delta_ms: 5 });
  });
  it('in an old summary latency map', () => {
    const stats = { count: 1, mean: 9, min: 9, p50: 9, p90: 9, p95: 9, p99: 9, p99_9: 9, max: 9 };
    const latency = GroupFiguresSchema.shape.latency.parse({ tpot_ms: stats });
    expect(latency.time_per_delta_ms).toEqual(stats);
    expect(latency.tpot_per_token_ms).toBeNull();
  });
  it('in a gate', () => {
    const gate = parseGate('tpot_ms.p95 <= 80', 'test');
    expect(gate.figure).toBe('time_per_delta_ms');
    expect(gate.stat).toBe('p95');
  });
});

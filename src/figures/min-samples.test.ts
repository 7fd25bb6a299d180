import { describe, expect, it } from 'vitest';
import { fewSamplesNote, hasEnoughSamples, minSamples, minSamplesJson, minSamplesOf } from './min-samples.js';

describe('the minimum-sample rule', () => {
  it('asks 10 / (1 − p) samples of a p-quantile, 5 of a mean, and no number of an extreme', () => {
    expect([minSamples('p50'), minSamples('p90'), minSamples('p95'), minSamples('p99'), minSamples('p99_9')]).toEqual([
      20, 100, 200, 1000, 10_000,
    ]);
    expect(minSamples('mean')).toBe(5);
    expect(minSamples('max')).toBe(Number.POSITIVE_INFINITY);
    expect(minSamples('min')).toBe(Number.POSITIVE_INFINITY);
    expect(hasEnoughSamples('p99', 999)).toBe(false);
    expect(hasEnoughSamples('p99', 1000)).toBe(true);
    expect(minSamplesJson(minSamples('max'))).toBeNull();
    expect(minSamplesJson(200)).toBe(200);
  });

  it('reads a figure name of the catalogue', () => {
    expect(minSamplesOf('ttfp_ms.p95')).toBe(200);
    expect(minSamplesOf('total_ms.mean')).toBe(5);
    expect(minSamplesOf('citation_recall')).toBe(5);
    expect(minSamplesOf('pass_rate')).toBe(5);
    expect(minSamplesOf('ttfp_ms.max')).toBe(Number.POSITIVE_INFINITY);
  });

  it('says why a figure is not judged', () => {
    expect(fewSamplesNote('ttfp_ms.p99', 75)).toBe('n = 75, a p99 needs 1,000');
    expect(fewSamplesNote('ttfp_ms.p99_9', 75)).toBe('n = 75, a p99.9 needs 10,000');
    expect(fewSamplesNote('citation_recall', 3)).toBe('n = 3, a mean needs 5');
    expect(fewSamplesNote('ttfp_ms.max', 10_000)).toBe('a max rests on one value');
    expect(fewSamplesNote('ttfp_ms.p50', 20)).toBeUndefined();
  });
});

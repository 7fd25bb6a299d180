import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LatencyStatsSchema, MeanEstimateSchema } from '../records/summary.js';
import {
  CHUNK_VALUES,
  createNumberSample,
  latencyStats,
  latencyStatsOfSorted,
  meanEstimate,
  meanEstimateOfCounts,
  normalTwoSidedP,
  pairedTTestP,
  percentile,
  proportionEstimate,
  SortedValues,
  studentTCdf,
  studentTQuantile,
} from './stats.js';

describe('percentile (linear interpolation between closest ranks)', () => {
  it.each([
    { sorted: [1, 2, 3, 4], p: 0.5, want: 2.5 },
    { sorted: [1, 2, 3, 4], p: 0, want: 1 },
    { sorted: [1, 2, 3, 4], p: 1, want: 4 },
    { sorted: [1, 2, 3, 4], p: 0.9, want: 3.7 }, // rank 2.7
    { sorted: [10, 20], p: 0.25, want: 12.5 },
    { sorted: [7], p: 0.99, want: 7 },
    { sorted: [0, 100], p: 0.999, want: 99.9 },
    { sorted: [5, 5, 5], p: 0.3, want: 5 },
  ])('p=$p of $sorted → $want', ({ sorted, p, want }) => expect(percentile(sorted, p)).toBeCloseTo(want, 10));

  it('has no value for an empty sample', () => expect(percentile([], 0.5)).toBeUndefined());

  it('clamps p outside [0, 1] to the ends', () => {
    expect(percentile([1, 2], -1)).toBe(1);
    expect(percentile([1, 2], 2)).toBe(2);
  });

  it('is monotone in p and stays within [min, max]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 50 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, p) => {
          const sorted = [...values].sort((a, b) => a - b);
          const v = percentile(sorted, p) ?? Number.NaN;
          const next = percentile(sorted, Math.min(1, p + 0.01)) ?? Number.NaN;
          return v >= (sorted[0] ?? 0) && v <= (sorted.at(-1) ?? 0) && next >= v - 1e-9;
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('latencyStats', () => {
  it('summarises 1..100 (unsorted input, not modified)', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    const stats = latencyStats(values);
    expect(stats).toEqual({
      count: 100,
      mean: 50.5,
      min: 1,
      max: 100,
      p50: 50.5,
      p90: expect.closeTo(90.1, 9),
      p95: expect.closeTo(95.05, 9),
      p99: expect.closeTo(99.01, 9),
      p99_9: expect.closeTo(99.901, 9),
    });
    expect(values[0]).toBe(100);
    expect(LatencyStatsSchema.parse(stats)).toEqual(stats);
  });
  it('of one value is that value everywhere', () => {
    expect(latencyStats([3.25])).toEqual({
      count: 1,
      mean: 3.25,
      min: 3.25,
      p50: 3.25,
      p90: 3.25,
      p95: 3.25,
      p99: 3.25,
      p99_9: 3.25,
      max: 3.25,
    });
  });
  it('is null for no values', () => expect(latencyStats([])).toBeNull());
  it('gives the same bits in any input order', () => {
    const values = [0.1, 0.7, 1e-3, 12.345, 0.2, 3.3, 0.30000000000000004];
    expect(latencyStats([...values].reverse())).toEqual(latencyStats(values));
  });
});

describe('studentTQuantile', () => {
  // Two-sided 95% (p = 0.975) from standard t tables, by sample size n (df = n − 1).
  it.each([
    { n: 2, want: 12.706 },
    { n: 3, want: 4.303 },
    { n: 5, want: 2.776 },
    { n: 10, want: 2.262 },
    { n: 11, want: 2.228 },
    { n: 30, want: 2.045 },
    { n: 31, want: 2.042 },
    { n: 61, want: 2.0 },
    { n: 121, want: 1.98 },
  ])('n=$n → $want', ({ n, want }) => expect(studentTQuantile(0.975, n - 1)).toBeCloseTo(want, 3));

  it.each([
    { p: 0.995, df: 4, want: 4.604 },
    { p: 0.95, df: 10, want: 1.812 },
    { p: 0.9, df: 20, want: 1.325 },
    { p: 0.999, df: 3, want: 10.215 },
  ])('t($p, $df) = $want', ({ p, df, want }) => expect(studentTQuantile(p, df)).toBeCloseTo(want, 3));

  it('approaches the normal quantile for large df and is symmetric', () => {
    // z + (z³ + z) / 4df = 1.9599640 + 0.0000024
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.9599664, 6);
    expect(studentTQuantile(0.025, 7)).toBeCloseTo(-studentTQuantile(0.975, 7), 12);
    expect(studentTQuantile(0.5, 7)).toBe(0);
  });

  it('inverts the CDF to high precision', () => {
    for (const df of [1, 2, 3, 7, 29, 200, 20_000]) {
      expect(studentTCdf(studentTQuantile(0.975, df), df)).toBeCloseTo(0.975, 11);
    }
  });

  it('is NaN outside its domain', () => {
    expect(studentTQuantile(1, 5)).toBeNaN();
    expect(studentTQuantile(0.9, 0)).toBeNaN();
  });
});

describe('meanEstimate (95% Student-t)', () => {
  it('matches a hand computation: [1, 2, 3, 4, 5]', () => {
    // mean 3, s = √2.5, half = 2.776445 · √2.5 / √5
    const half = (2.7764451051977 * Math.sqrt(2.5)) / Math.sqrt(5);
    const e = meanEstimate([5, 3, 1, 4, 2]);
    expect(e?.mean).toBe(3);
    expect(e?.n).toBe(5);
    expect(e?.ci_low).toBeCloseTo(3 - half, 10);
    expect(e?.ci_high).toBeCloseTo(3 + half, 10);
  });

  it('n = 2 uses t = 12.706', () => {
    const e = meanEstimate([0, 1]);
    // s = √0.5, half = 12.7062 · √0.5 / √2 = 6.35310
    expect(e?.ci_low).toBeCloseTo(0.5 - 6.3531, 3);
    expect(e?.ci_high).toBeCloseTo(0.5 + 6.3531, 3);
  });

  it.each([
    { name: 'one value', values: [0.4], want: { mean: 0.4, ci_low: 0.4, ci_high: 0.4, n: 1 } },
    { name: 'identical values', values: [1, 1, 1], want: { mean: 1, ci_low: 1, ci_high: 1, n: 3 } },
  ])('$name: the interval is the mean', ({ values, want }) => expect(meanEstimate(values)).toEqual(want));

  it('is null for no values and clamps nothing', () => {
    expect(meanEstimate([])).toBeNull();
    const e = meanEstimate([0, 1, 1]);
    expect(e?.ci_high).toBeGreaterThan(1);
    expect(e?.ci_low).toBeLessThan(0);
    expect(MeanEstimateSchema.parse(e)).toEqual(e);
  });

  it('agrees with meanEstimateOfCounts and is order-independent to the bit', () => {
    const values = [0.1, 0.2, 0.30000000000000004, 0.1, 1 / 3, 0.7, 0.1];
    const counts = new Map<number, number>();
    for (const v of [...values].reverse()) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect(meanEstimateOfCounts(counts)).toEqual(meanEstimate(values));
    expect(meanEstimate([...values].reverse())).toEqual(meanEstimate(values));
    expect(meanEstimateOfCounts(new Map())).toBeNull();
  });
});

describe('proportionEstimate (95% Wilson)', () => {
  it.each([
    { k: 8, n: 10, low: 0.4902, high: 0.9433 },
    { k: 0, n: 10, low: 0, high: 0.2775 },
    { k: 10, n: 10, low: 0.7225, high: 1 },
    { k: 1, n: 1, low: 0.2065, high: 1 },
    { k: 50, n: 100, low: 0.4038, high: 0.5962 },
    { k: 1, n: 20, low: 0.0089, high: 0.2361 },
  ])('$k/$n → [$low, $high]', ({ k, n, low, high }) => {
    const e = proportionEstimate(k, n);
    expect(e?.mean).toBe(k / n);
    expect(e?.n).toBe(n);
    expect(e?.ci_low).toBeCloseTo(low, 4);
    expect(e?.ci_high).toBeCloseTo(high, 4);
  });

  it('has exact ends at 0 and n successes, and nothing for n = 0', () => {
    expect(proportionEstimate(0, 7)?.ci_low).toBe(0);
    expect(proportionEstimate(7, 7)?.ci_high).toBe(1);
    expect(proportionEstimate(0, 0)).toBeNull();
  });
});

describe('normalTwoSidedP and pairedTTestP', () => {
  it('gives the normal tail: z = 1.96 → 0.05, 0 → 1, 3.29 → 0.001', () => {
    expect(normalTwoSidedP(1.959963984540054)).toBeCloseTo(0.05, 6);
    expect(normalTwoSidedP(-1.959963984540054)).toBeCloseTo(0.05, 6);
    expect(normalTwoSidedP(0)).toBeCloseTo(1, 6);
    expect(normalTwoSidedP(3.2905267)).toBeCloseTo(0.001, 6);
    expect(normalTwoSidedP(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('matches scipy ttest_1samp, and handles no spread and too few values', () => {
    // scipy.stats.ttest_1samp([0.1, -0.2, 0.3, 0.4, 0.05], 0).pvalue = 0.281031
    expect(pairedTTestP([0.1, -0.2, 0.3, 0.4, 0.05])).toBeCloseTo(0.281031, 5);
    expect(pairedTTestP([1, 1, 1])).toBe(0);
    expect(pairedTTestP([0, 0, 0, 0])).toBe(1);
    expect(pairedTTestP([0.4])).toBeNull();
    // A tiny p keeps its digits (computed from the tail, not 1 − CDF).
    expect(pairedTTestP(Array.from({ length: 50 }, (_, i) => 1 + (i % 2) * 0.01))).toBeGreaterThan(0);
  });
});

describe('createNumberSample', () => {
  it('grows past its capacity and gives the same figures as the plain sorted array', () => {
    const values = Array.from({ length: 1_000 }, (_, i) => ((i * 7919) % 1_009) / 7 + 0.1);
    const sample = createNumberSample(4);
    for (const v of values) sample.push(v);
    expect(sample.length).toBe(1_000);
    expect(latencyStatsOfSorted(sample.sorted())).toEqual(latencyStats(values));
    sample.push(-1);
    expect(sample.sorted()[0]).toBe(-1);
    expect(latencyStatsOfSorted(createNumberSample().sorted())).toBeNull();
  });
});

describe('createNumberSample keeps µs figures as integers (issue 24)', () => {
  it.each([
    ['µs figures only', [12.345, 0, 0.001, 4_294_967.295, 1.1, 250.5, 12.345]],
    ['a figure past 2³² µs', [1.5, 4_294_967.296, 3]],
    ['a rate with more decimals', [2.5, 1 / 3, 7]],
    ['a negative', [2, -0.5, 1]],
    ['minus zero', [2, -0, 1]],
  ])('%s: the same values, to the bit, in order', (_name, values) => {
    const sample = createNumberSample(2);
    for (const v of values) sample.push(v);
    const expected = Float64Array.from(values).sort();
    const got = sample.sorted();
    expect(got.length).toBe(values.length);
    got.forEach((v, i) => expect(Object.is(v, expected[i])).toBe(true));
  });
});

describe('createNumberSample holds its values in chunks (issue 24 §3)', () => {
  const expectSame = (got: Float64Array, values: readonly number[]) => {
    const expected = Float64Array.from(values).sort();
    expect(got.length).toBe(expected.length);
    for (let i = 0; i < got.length; i += 1)
      if (!Object.is(got[i], expected[i])) expect([i, got[i]]).toEqual([i, expected[i]]);
  };
  // Values around each chunk boundary, and a switch to doubles after several full chunks.
  it.each([
    ['µs values over three chunks and a part', 3 * CHUNK_VALUES + 17, null],
    ['exactly two chunks', 2 * CHUNK_VALUES, null],
    ['one value past a chunk', CHUNK_VALUES + 1, null],
    ['a rate arriving after two chunks', 2 * CHUNK_VALUES + 5, 2 * CHUNK_VALUES + 3],
    ['a rate first, then chunks of doubles', CHUNK_VALUES * 2 + 1, 0],
  ])('%s: every value back, in order, to the bit', (_name, count, rateAt) => {
    const values = Array.from({ length: count }, (_, i) => (i === rateAt ? 1 / 3 : ((i * 7919) % 100_003) / 1000));
    const sample = createNumberSample();
    for (const v of values) sample.push(v);
    expect(sample.length).toBe(count);
    expectSame(sample.sorted(), values);
    // sortedValues keeps them as it held them, and gives back the same doubles.
    const sorted = sample.sortedValues();
    expect(sorted.length).toBe(count);
    expectSame(sorted.toFloat64(), values);
    expectSame(sorted.toFloat64(), values);
    expect(sample.length).toBe(0);
  });

  it('sorted() leaves the sample as it was: later pushes and calls see every value', () => {
    const values: number[] = [];
    const sample = createNumberSample(1);
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < CHUNK_VALUES; i += 1) {
        const v = ((round * CHUNK_VALUES + i) * 48271) % 65_537;
        values.push(v);
        sample.push(v);
      }
      expectSame(sample.sorted(), values);
    }
  });
});

describe('SortedValues', () => {
  const values = (seed: number, n: number) => Array.from({ length: n }, (_, i) => ((i * seed) % 10_007) / 1000);
  const sortedOf = (list: readonly number[]) => {
    const sample = createNumberSample();
    for (const v of list) sample.push(v);
    return sample.sortedValues();
  };
  const read = (sorted: SortedValues) => Array.from({ length: sorted.length }, (_, i) => sorted.at(i));

  it('reads each rank back as the double it stands for, and gives the statistics of the same values to the bit', () => {
    const list = [...values(7919, 5000), 1 / 3];
    const sorted = sortedOf(list);
    expect(read(sorted)).toEqual([...list].sort((a, b) => a - b));
    expect(sorted.at(sorted.length)).toBeUndefined();
    expect(latencyStatsOfSorted(sorted)).toEqual(latencyStats(list));
  });

  it('joins parts into one ascending set of values: whole microseconds kept, a part of doubles makes them doubles', () => {
    const a = values(7919, 3000);
    const b = values(104_729, 2000);
    const one = sortedOf(a);
    expect(SortedValues.union([one])).toBe(one);
    const micros = SortedValues.union([sortedOf(a), sortedOf(b)]);
    expect(read(micros)).toEqual([...a, ...b].sort((x, y) => x - y));
    expect(latencyStatsOfSorted(micros)).toEqual(latencyStats([...a, ...b]));
    const mixed = SortedValues.union([sortedOf(a), sortedOf([...b, 2 / 3])]);
    expect(read(mixed)).toEqual([...a, ...b, 2 / 3].sort((x, y) => x - y));
    expect(latencyStatsOfSorted(mixed)).toEqual(latencyStats([...a, ...b, 2 / 3]));
  });
});

import { describe, expect, it } from 'vitest';
import { latencyStatsOfSorted, percentile } from '../metrics/stats.js';
import { LATENCY_STATS } from '../figures/catalogue.js';
import { interval, latencyIntervals, pairedMeanInterval, signTestP, TAIL } from './bootstrap.js';
import { createRandom, hashSeed, Sfc32 } from './prng.js';

describe('createRandom', () => {
  it('is deterministic under its seed, uniform-looking, and differs between seeds', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(createRandom(43)()).not.toBe(first[0]);
    expect(createRandom('seed|x')()).toBe(createRandom(hashSeed('seed|x'))());
    const r = createRandom(7);
    let sum = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const v = r();
      expect(v >= 0 && v < 1).toBe(true);
      sum += v;
    }
    expect(sum / 20_000).toBeCloseTo(0.5, 1);
  });
});

describe('Sfc32', () => {
  it("is createRandom's stream; tally and sumOfDraws draw as floor(next() · n) would", () => {
    const random = createRandom('stream');
    const generator = new Sfc32('stream');
    const mismatches: number[] = [];
    for (let i = 0; i < 10_000; i += 1) if (generator.next() !== random()) mismatches.push(i);
    expect(mismatches).toEqual([]);
    const tallied = new Sfc32('tally');
    // tally: the counts of as many draws, and the stream goes on from the same place.
    const looped = new Sfc32('tally');
    const counts = new Uint32Array(37);
    const expected = new Uint32Array(37);
    for (const draws of [0, 1, 36, 1_000]) {
      tallied.tally(counts, 37, draws);
      for (let i = 0; i < draws; i += 1) expected[Math.floor(looped.next() * 37)]! += 1;
      expect([...counts]).toEqual([...expected]);
    }
    expect(tallied.next()).toBe(looped.next());
    // sumOfDraws: values summed in the order drawn.
    const values = Float64Array.from({ length: 29 }, (_, i) => 0.1 * i - 1.3);
    for (let round = 0; round < 20; round += 1) {
      let sum = 0;
      for (let i = 0; i < values.length; i += 1) sum += values[Math.floor(looped.next() * values.length)]!;
      expect(tallied.sumOfDraws(values)).toBe(sum);
    }
    expect(tallied.next()).toBe(looped.next());
  });
});

describe('the intervals of a seed do not change', () => {
  // Computed before the generator became a class (and before any later change to the resampling):
  // the intervals a comparison prints for a seed are part of what a run reproduces.
  it('latencyIntervals and pairedMeanInterval give the pinned numbers', () => {
    const base = Float64Array.from({ length: 37 }, (_, i) => 100 + ((i * 53) % 41) * 3.25).sort();
    const cur = Float64Array.from({ length: 23 }, (_, i) => 95 + ((i * 31) % 29) * 4.5).sort();
    expect(latencyIntervals(base, cur, 500, new Sfc32('golden|latency'))).toEqual(GOLDEN_LATENCY);
    const diffs = Array.from({ length: 19 }, (_, i) => ((i * 7) % 5) / 4 - 0.4);
    expect(pairedMeanInterval(diffs, 500, new Sfc32('golden|paired'))).toEqual(GOLDEN_PAIRED);
  });
});

const GOLDEN_LATENCY = {
  p50: {
    se: 15.00622465201069,
    delta: { low: -49.2625, high: 11.25 },
    ratio: { low: 0.7232966306546298, high: 1.07908611599297 },
  },
  p90: {
    se: 16.175021102159675,
    delta: { low: -51.40499999999998, high: 11.352500000000035 },
    ratio: { low: 0.7652091517824159, high: 1.055923334620518 },
  },
  p95: {
    se: 13.467638148710758,
    delta: { low: -45.85249999999999, high: 5.478750000000033 },
    ratio: { low: 0.7966257011829079, high: 1.0266530181981421 },
  },
  p99: {
    se: 8.896198031700866,
    delta: { low: -35.59249999999999, high: 0.8864999999999893 },
    ratio: { low: 0.8436585826957169, high: 1.0040278169697012 },
  },
  p99_9: {
    se: 8.564164750847773,
    delta: { low: -35.827424999999984, high: 0.6559500000000055 },
    ratio: { low: 0.8441116743928984, high: 1.002978206583428 },
  },
  mean: {
    se: 9.965630642865225,
    delta: { low: -34.647473560517035, high: 2.6651586368977633 },
    ratio: { low: 0.7952605128569183, high: 1.0171531573459416 },
  },
  max: {
    se: 8.55844979396103,
    delta: { low: -36, high: 0.75 },
    ratio: { low: 0.8434782608695652, high: 1.0034052213393871 },
  },
};
const GOLDEN_PAIRED = { low: -0.08421052631578946, high: 0.23848684210526286 };

describe('pairedMeanInterval', () => {
  // 40 questions that all lost about 0.1 (±0.05): the drop is real, the interval must exclude 0.
  const drop = Array.from({ length: 40 }, (_, i) => -0.1 + ((i % 5) - 2) * 0.025);
  // 40 questions, half up 1 and half down 1: no change on average, the interval must include 0.
  const noise = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 1 : -1));

  it('excludes 0 for a consistent drop', () => {
    const ci = pairedMeanInterval(drop, 2000, new Sfc32(1))!;
    expect(ci.high).toBeLessThan(0);
    expect(ci.low).toBeGreaterThan(-0.12);
  });

  it('includes 0 for changes that cancel out', () => {
    const ci = pairedMeanInterval(noise, 2000, new Sfc32(1))!;
    expect(ci.low).toBeLessThan(0);
    expect(ci.high).toBeGreaterThan(0);
  });

  it('matches the normal approximation on a large sample (mean ± 1.96·s/√n)', () => {
    const diffs = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 1 : 0)); // mean 0.25, s ≈ 0.4335
    const ci = pairedMeanInterval(diffs, 4000, new Sfc32(3))!;
    const half = (1.96 * Math.sqrt((0.25 * 0.75 * 400) / 399)) / Math.sqrt(400);
    expect(ci.low).toBeCloseTo(0.25 - half, 2);
    expect(ci.high).toBeCloseTo(0.25 + half, 2);
  });

  it('is the same under the same seed and has no interval for no pairs', () => {
    expect(pairedMeanInterval(noise, 500, new Sfc32(9))).toEqual(pairedMeanInterval(noise, 500, new Sfc32(9)));
    expect(pairedMeanInterval(noise, 500, new Sfc32(9))).not.toEqual(pairedMeanInterval(noise, 500, new Sfc32(10)));
    expect(pairedMeanInterval([], 500, new Sfc32(9))).toBeNull();
    expect(pairedMeanInterval([0, 0, 0], 100, new Sfc32(9))).toEqual({ low: 0, high: 0 });
  });
});

describe('latencyIntervals', () => {
  const sample = (n: number, scale: number, seed: number) => {
    const r = createRandom(seed);
    return Array.from({ length: n }, () => scale * (100 + 400 * r() ** 3)).sort((a, b) => a - b);
  };

  it('equals a naive resample-and-sort bootstrap drawn from the same stream', () => {
    const base = sample(57, 1, 1);
    const cur = sample(43, 1.1, 2);
    const got = latencyIntervals(base, cur, 200, new Sfc32(5))!;
    const r = createRandom(5);
    const resample = (s: number[]) =>
      latencyStatsOfSorted(Array.from(s, () => s[Math.floor(r() * s.length)]!).sort((a, b) => a - b))!;
    const deltas = LATENCY_STATS.map(() => [] as number[]);
    for (let b = 0; b < 200; b += 1) {
      const bs = resample(base);
      const cs = resample(cur);
      LATENCY_STATS.forEach((stat, s) => deltas[s]!.push(cs[stat] - bs[stat]));
    }
    LATENCY_STATS.forEach((stat, s) => {
      const sorted = deltas[s]!.sort((a, b) => a - b);
      expect(got[stat].delta.low).toBeCloseTo(percentile(sorted, 0.025)!, 9);
      expect(got[stat].delta.high).toBeCloseTo(percentile(sorted, 0.975)!, 9);
    });
  });

  it('a run 50% slower has a ratio interval above 1; the same sample twice has one around 1', () => {
    const base = sample(200, 1, 1);
    const slower = base.map((v) => v * 1.5);
    const ci = latencyIntervals(base, slower, 1000, new Sfc32(1))!;
    expect(ci.p95.ratio!.low).toBeGreaterThan(1.1);
    expect(ci.p50.delta.low).toBeGreaterThan(0);
    const same = latencyIntervals(base, sample(200, 1, 1), 1000, new Sfc32(1))!;
    expect(same.p95.ratio!.low).toBeLessThan(1);
    expect(same.p95.ratio!.high).toBeGreaterThan(1);
  });

  it('has no interval when a side is empty', () => {
    expect(latencyIntervals([], [1, 2], 10, new Sfc32(1))).toBeNull();
  });
});

describe('signTestP (exact binomial, two-sided)', () => {
  it.each([
    { worse: 0, better: 0, p: 1 },
    { worse: 1, better: 0, p: 1 },
    { worse: 5, better: 5, p: 1 },
    { worse: 9, better: 1, p: 22 / 1024 }, // 2·(C(10,0)+C(10,1))/2^10
    { worse: 1, better: 9, p: 22 / 1024 },
    { worse: 15, better: 5, p: (2 * (1 + 20 + 190 + 1140 + 4845 + 15504)) / 2 ** 20 },
    { worse: 30, better: 0, p: 2 / 2 ** 30 },
    { worse: 6, better: 2, p: (2 * (1 + 8 + 28)) / 256 },
  ])('worse $worse, better $better → p = $p', ({ worse, better, p }) => {
    expect(signTestP(worse, better)).toBeCloseTo(p, 12);
  });
});

describe('interval', () => {
  it('selects the same 2.5th and 97.5th percentiles as sorting does, ties, NaN and one value included', () => {
    const random = createRandom('interval');
    for (const n of [...Array.from({ length: 60 }, (_, i) => i + 1), 2000]) {
      for (const levels of [3, 1000]) {
        const values = Float64Array.from({ length: n }, () => Math.floor(random() * levels) - levels / 2);
        const sorted = Float64Array.from(values).sort();
        expect(interval(values)).toEqual({ low: percentile(sorted, TAIL), high: percentile(sorted, 1 - TAIL) });
      }
    }
    const withNaN = Float64Array.from([3, Number.NaN, 1, 2]);
    const sorted = Float64Array.from(withNaN).sort();
    expect(interval(withNaN)).toEqual({ low: percentile(sorted, TAIL), high: percentile(sorted, 1 - TAIL) });
  });
});

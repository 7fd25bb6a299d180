import { describe, expect, it } from 'vitest';
import {
  arrivals,
  constantProfile,
  countRemaining,
  shardUsers,
  stagesProfile,
  userSteps,
  type Arrival,
} from './arrivals.js';

const all = (iterable: Iterable<Arrival>) => [...iterable];

describe('open-model arrivals', () => {
  it('places a constant rate exactly: n · 1000 / rate, the first at 0, none at the end', () => {
    const offsets = all(arrivals({ profile: constantProfile(200, 1000), shape: 'constant', seed: 1 }));
    expect(offsets).toHaveLength(200);
    offsets.forEach((a, n) => {
      expect(a.index).toBe(n);
      expect(a.offset_ms).toBeCloseTo(n * 5, 9);
    });
  });

  it('stops at maxArrivals when only a request count bounds an endless rate', () => {
    const offsets = all(
      arrivals({ profile: constantProfile(3, Infinity), shape: 'constant', seed: 1, maxArrivals: 7 }),
    );
    expect(offsets.map((a) => a.offset_ms)).toEqual(
      [0, 1000 / 3, 2000 / 3, 1000, 4000 / 3, 5000 / 3, 2000].map((x) => expect.closeTo(x, 9)),
    );
  });

  it('gives Poisson gaps with the right mean and a coefficient of variation near 1 (20k arrivals, seeded)', () => {
    const rate = 50;
    const offsets = all(
      arrivals({ profile: constantProfile(rate, Infinity), shape: 'poisson', seed: 42, maxArrivals: 20_000 }),
    ).map((a) => a.offset_ms);
    const gaps = offsets.slice(1).map((t, i) => t - offsets[i]!);
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / (gaps.length - 1));
    expect(mean).toBeGreaterThan((1000 / rate) * 0.97);
    expect(mean).toBeLessThan((1000 / rate) * 1.03);
    expect(sd / mean).toBeGreaterThan(0.97);
    expect(sd / mean).toBeLessThan(1.03);
    // The same seed gives the same schedule; another seed another one.
    const again = all(
      arrivals({ profile: constantProfile(rate, Infinity), shape: 'poisson', seed: 42, maxArrivals: 5 }),
    );
    expect(again.map((a) => a.offset_ms)).toEqual(offsets.slice(0, 5));
    const other = all(
      arrivals({ profile: constantProfile(rate, Infinity), shape: 'poisson', seed: 43, maxArrivals: 5 }),
    );
    expect(other.map((a) => a.offset_ms)).not.toEqual(offsets.slice(0, 5));
  });

  it('integrates stages: each stage gets the area under its ramp', () => {
    // 0→10/s over 10 s (50 arrivals), hold 10/s for 5 s (50), 10→0 over 4 s (20): 120 in all.
    const stages = [
      { duration_ms: 10_000, target: 10 },
      { duration_ms: 5_000, target: 10 },
      { duration_ms: 4_000, target: 0 },
    ];
    const offsets = all(arrivals({ profile: stagesProfile(stages), shape: 'constant', seed: 1 })).map(
      (a) => a.offset_ms,
    );
    const between = (from: number, to: number) => offsets.filter((t) => t >= from && t < to).length;
    expect(offsets).toHaveLength(120);
    expect(between(0, 10_000)).toBe(50);
    expect(between(10_000, 15_000)).toBe(50);
    expect(between(15_000, 19_000)).toBe(20);
    // Within the first ramp the rate grows linearly: arrival n at t = sqrt(2n / slope), slope 1/s².
    expect(offsets[8]).toBeCloseTo(4000, 6);
    // Arrivals are in time order.
    expect(offsets.every((t, i) => i === 0 || t >= offsets[i - 1]!)).toBe(true);
  });

  it('Poisson arrivals follow a ramp too (time-rescaling)', () => {
    const stages = [{ duration_ms: 100_000, target: 100 }];
    const offsets = all(arrivals({ profile: stagesProfile(stages), shape: 'poisson', seed: 7 })).map(
      (a) => a.offset_ms,
    );
    const firstHalf = offsets.filter((t) => t < 50_000).length;
    // Expected 1250 in the first half, 3750 in the second (the ramp's area); within 4 standard deviations.
    expect(Math.abs(firstHalf - 1250)).toBeLessThan(4 * Math.sqrt(1250));
    expect(Math.abs(offsets.length - firstHalf - 3750)).toBeLessThan(4 * Math.sqrt(3750));
  });

  it.each([2, 3, 7])('splits into %i shards whose arrivals add up exactly to the whole', (count) => {
    const options = { profile: constantProfile(37, 3000), shape: 'poisson' as const, seed: 5 };
    const whole = all(arrivals(options));
    const shards = Array.from({ length: count }, (_, i) =>
      all(arrivals({ ...options, shard: { index: i + 1, count } })),
    );
    expect(shards.reduce((sum, s) => sum + s.length, 0)).toBe(whole.length);
    const merged = shards.flat().sort((a, b) => a.index - b.index);
    expect(merged).toEqual(whole);
    // Balanced within one arrival.
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('counts what an iterator still holds', () => {
    const iterator = arrivals({ profile: constantProfile(10, 1000), shape: 'constant', seed: 1 });
    iterator.next();
    iterator.next();
    expect(countRemaining(iterator)).toBe(8);
  });
});

describe('closed-model users', () => {
  it('splits users across shards exactly (sum) and evenly (within one)', () => {
    for (const users of [0, 1, 5, 10, 11, 64]) {
      for (const count of [1, 2, 3, 4]) {
        const shares = Array.from({ length: count }, (_, i) => shardUsers(users, { index: i + 1, count }));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(users);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('ramps users: a user joins when the line passes below it and leaves when the line falls to it', () => {
    const steps = userSteps({
      stages: [
        { duration_ms: 4000, target: 4 },
        { duration_ms: 2000, target: 4 },
        { duration_ms: 2000, target: 0 },
      ],
    });
    expect(steps).toEqual([
      { offset_ms: 0, users: 1 },
      { offset_ms: 1000, users: 2 },
      { offset_ms: 2000, users: 3 },
      { offset_ms: 3000, users: 4 },
      { offset_ms: 6500, users: 3 },
      { offset_ms: 7000, users: 2 },
      { offset_ms: 7500, users: 1 },
      { offset_ms: 8000, users: 0 },
    ]);
    expect(userSteps({ users: 8 }, { index: 2, count: 3 })).toEqual([{ offset_ms: 0, users: 3 }]);
  });

  it('shard steps add up to the whole at every moment', () => {
    const stages = [
      { duration_ms: 3000, target: 7 },
      { duration_ms: 3000, target: 2 },
    ];
    const at = (steps: ReturnType<typeof userSteps>, t: number) =>
      steps.filter((s) => s.offset_ms <= t).at(-1)?.users ?? 0;
    const whole = userSteps({ stages });
    const shards = [1, 2, 3].map((index) => userSteps({ stages }, { index, count: 3 }));
    for (let t = 0; t <= 6000; t += 125) expect(shards.reduce((sum, s) => sum + at(s, t), 0)).toBe(at(whole, t));
  });
});

import { describe, expect, it } from 'vitest';
import { createRng, sampleLogNormal } from './rng.js';

const draws = (rng: { next(): number }, n: number) => Array.from({ length: n }, () => rng.next());
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? NaN;

describe('createRng', () => {
  it('the same parts give the same sequence; any other part an unrelated one', () => {
    expect(draws(createRng(1, 'hello', 0), 5)).toEqual(draws(createRng(1, 'hello', 0), 5));
    expect(draws(createRng(1, 'hello', 1), 5)).not.toEqual(draws(createRng(1, 'hello', 0), 5));
    expect(draws(createRng(2, 'hello', 0), 5)).not.toEqual(draws(createRng(1, 'hello', 0), 5));
    expect(draws(createRng('1'), 3)).not.toEqual(draws(createRng(1), 3)); // a string is not its number
  });
  it('is uniform enough: mean near 0.5, every decile used', () => {
    const values = draws(createRng(7), 20_000);
    expect(values.reduce((s, v) => s + v, 0) / values.length).toBeCloseTo(0.5, 1);
    const deciles = new Array(10).fill(0);
    for (const v of values) deciles[Math.floor(v * 10)]++;
    for (const count of deciles) expect(count).toBeGreaterThan(1800);
  });
  it('uuids are version 4, lowercase, and do not repeat across 20,000 requests', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) ids.add(createRng(1, 'session', 'same question', i).uuid());
    expect(ids.size).toBe(20_000);
    // One assertion over them all: an expect() per id cost more than making it.
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect([...ids].filter((id) => !v4.test(id))).toEqual([]);
  });
  it('chance(0) never, chance(1) always, int within range', () => {
    const rng = createRng(3);
    const wrong: string[] = [];
    for (let i = 0; i < 1000; i++) {
      if (rng.chance(0)) wrong.push(`${i}: chance(0)`);
      if (!rng.chance(1)) wrong.push(`${i}: not chance(1)`);
      const k = rng.int(3);
      if (!(k >= 0 && k < 3 && Number.isInteger(k))) wrong.push(`${i}: int(3) = ${k}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('sampleLogNormal', () => {
  it.each([
    { median: 700, p99: 2000 },
    { median: 12, p99: 40 },
    { median: 300, p99: 300 },
  ])('median $median and p99 $p99 come back within 5% over 40,000 seeded draws', (dist) => {
    const rng = createRng(42, 'lognormal');
    const values = Array.from({ length: 40_000 }, () => sampleLogNormal(rng, dist));
    expect(quantile(values, 0.5) / dist.median).toBeCloseTo(1, 1);
    expect(Math.abs(quantile(values, 0.99) / dist.p99 - 1)).toBeLessThan(0.05);
    expect(Math.min(...values)).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import { benjaminiHochberg, FDR_Q } from './fdr.js';

describe('benjaminiHochberg', () => {
  it('gives p · m / rank, made monotone, on a small vector', () => {
    // By hand: sorted 0.005 0.01 0.03 0.04 0.2 → ·5/rank = 0.025 0.025 0.05 0.05 0.2 (already monotone)
    const q = benjaminiHochberg([0.01, 0.04, 0.03, 0.005, 0.2]);
    [0.025, 0.05, 0.05, 0.025, 0.2].forEach((want, i) => expect(q[i]).toBeCloseTo(want, 12));
  });

  it('keeps adjusted values monotone in p, caps them at 1, and handles the edges', () => {
    expect(benjaminiHochberg([])).toEqual([]);
    expect(benjaminiHochberg([0.3])).toEqual([0.3]);
    for (const q of benjaminiHochberg([0.9, 0.95, 0.99])) expect(q).toBeCloseTo(0.99, 12);
    const q = benjaminiHochberg([0.001, 0.5, 0.02, 0.021, 1]);
    expect(q[0]).toBeLessThanOrEqual(q[2]!);
    expect(q[2]).toBeLessThanOrEqual(q[3]!);
    expect(Math.max(...q)).toBeLessThanOrEqual(1);
  });

  it('calls nothing among many nulls that a per-test 5% would call (the reason it exists)', () => {
    // 100 tests of nothing: p-values spread evenly over (0, 1]. At 5% each, five look "significant".
    const p = Array.from({ length: 100 }, (_, i) => (i + 1) / 100);
    expect(p.filter((v) => v <= 0.05)).toHaveLength(5);
    expect(benjaminiHochberg(p).filter((v) => v <= FDR_Q)).toHaveLength(0);
    // One real change among them is still found.
    expect(benjaminiHochberg([1e-6, ...p]).filter((v) => v <= FDR_Q)).toHaveLength(1);
  });
});

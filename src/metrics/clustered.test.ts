import { describe, expect, it } from 'vitest';
import {
  addToCluster,
  clusteredMean,
  clusteredProportion,
  clusteredProportionOfCounts,
  clusterValues,
  type ClusterValues,
} from './clustered.js';
import { meanEstimate, proportionEstimate } from './stats.js';

const clusters = (...tries: number[][]) => new Map(tries.map((values, i) => [`q${i + 1}`, values]));
// 10 questions × 3 repeats, 24 of 30 tries passed: 7 questions always, one 2 of 3, one 1 of 3, one never.
const TEN_BY_THREE = clusters(...Array.from({ length: 7 }, () => [1, 1, 1]), [1, 1, 0], [1, 0, 0], [0, 0, 0]);

describe('clusteredProportion (pass rate by question)', () => {
  it('10 questions × 3 repeats: n = 10 and the wider interval (Wilson at n_eff = 13.85, not 30)', () => {
    const e = clusteredProportion(TEN_BY_THREE)!;
    expect(e.n).toBe(10);
    expect(e.mean).toBe(0.8);
    // Vectors computed independently (Python): Wilson(0.8, 180/13) = [0.53737, 0.93232]; unclustered Wilson(24, 30) = [0.62694, 0.90495].
    expect(e.ci_low).toBeCloseTo(0.537375, 5);
    expect(e.ci_high).toBeCloseTo(0.932315, 5);
    const naive = proportionEstimate(24, 30)!;
    expect(naive.ci_low).toBeCloseTo(0.626943, 5);
    expect(e.ci_high - e.ci_low).toBeGreaterThan(naive.ci_high - naive.ci_low);
  });

  it('is the plain Wilson interval with one try per question, and order does not matter', () => {
    expect(clusteredProportion(clusters([1], [0], [1], [1]))).toEqual(proportionEstimate(3, 4));
    const reversed = new Map([...TEN_BY_THREE].reverse().map(([k, v]) => [k, [...v].reverse()]));
    expect(clusteredProportion(reversed)).toEqual(clusteredProportion(TEN_BY_THREE));
  });

  it('every try passed: as many samples as questions, never as many as tries', () => {
    const all = clusteredProportion(clusters([1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]))!;
    expect(all).toMatchObject({ mean: 1, ci_high: 1, n: 5 });
    expect(all.ci_low).toBeCloseTo(proportionEstimate(5, 5)!.ci_low, 12);
    expect(clusteredProportion(new Map())).toBeNull();
  });

  it("from each question's passes and tries alone: the same estimate, to the bit", () => {
    const counts = (c: ReadonlyMap<string, readonly number[]>) =>
      new Map([...c].map(([k, v]) => [k, { passed: v.filter((x) => x === 1).length, tries: v.length }]));
    for (const c of [
      TEN_BY_THREE,
      clusters([1], [0], [1], [1]),
      clusters([1, 1], [1, 1]),
      clusters([0, 1, 0, 0], [1], []),
    ]) {
      expect(clusteredProportionOfCounts(counts(c))).toEqual(clusteredProportion(c));
    }
    expect(clusteredProportionOfCounts(new Map())).toBeNull();
  });
});

describe('clusteredMean (scores by question)', () => {
  it('4 questions × 2 tries: mean ± t(0.975, 3) · cluster-robust SE, n = 4', () => {
    const e = clusteredMean(clusters([0.5, 1], [0, 0.5], [1, 1], [0.25, 0.75]))!;
    // Python: m = 0.625, SE = 0.161374, t(0.975, 3) = 3.182446 → [0.111435, 1.138565].
    expect(e.n).toBe(4);
    expect(e.mean).toBe(0.625);
    expect(e.ci_low).toBeCloseTo(0.111435, 5);
    expect(e.ci_high).toBeCloseTo(1.138565, 5);
  });

  it('is the plain Student-t interval with one value per question; one question → no width', () => {
    expect(clusteredMean(clusters([0.2], [0.9], [0.4]))).toEqual(meanEstimate([0.2, 0.9, 0.4]));
    expect(clusteredMean(clusters([0.2, 0.4]))).toEqual({
      mean: 0.30000000000000004,
      ci_low: 0.30000000000000004,
      ci_high: 0.30000000000000004,
      n: 1,
    });
    expect(clusteredMean(new Map())).toBeNull();
  });
});

describe('ClusterValues (a cluster kept compactly)', () => {
  it('gives back the multiset it was given, integers counted and others kept', () => {
    const values = [3, 0.25, 0, 3, 1, 0.25, 0.1, 3, 0];
    let cluster: ClusterValues | undefined;
    for (const v of values) cluster = addToCluster(cluster, v);
    expect(clusterValues(cluster!).sort((a, b) => a - b)).toEqual([...values].sort((a, b) => a - b));
    expect(typeof cluster === 'object' && cluster.ints.size).toBe(3);
    expect(clusterValues(addToCluster(undefined, 0.5))).toEqual([0.5]);
  });

  it('clusteredMean over the kept clusters is the same to the bit', () => {
    const raw = clusters([0.1, 0.7, 0.2, 1], [1, 1, 1], [0.3], [0, 0.9, 0.9]);
    const kept = new Map(
      [...raw].map(([k, v]) => [
        k,
        clusterValues(v.reduce<ClusterValues | undefined>((c, x) => addToCluster(c, x), undefined)!),
      ]),
    );
    expect(clusteredMean(kept)).toEqual(clusteredMean(raw));
  });
});

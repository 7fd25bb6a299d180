import { describe, expect, it } from 'vitest';
import { CUTOFFS, RankingScoresSchema } from '../records/scores.js';
import { rankedUnique } from '../records/citations.js';
import { rankingNames, rankingScores, writeRankingScores } from './ranking.js';

const q1 = rankingScores(['B', 'A', 'D', 'C'], ['A', 'C']);
const q2 = rankingScores([], ['X']);
const q3 = rankingScores(['N'], []);
const q4 = rankingScores(['P'], ['P', 'Q', 'R']);

// docs/reference/metrics.md test vectors (trec_eval 10.0), to 4 decimals. "AP" (uncut) is AP@10 here:
// every list is shorter than 10.
describe('docs/reference/metrics.md vectors', () => {
  it.each([
    { measure: 'precision_at_1', q1: 0, q2: 0, q4: 1 },
    { measure: 'precision_at_3', q1: 0.3333, q2: 0, q4: 0.3333 },
    { measure: 'precision_at_5', q1: 0.4, q2: 0, q4: 0.2 },
    { measure: 'recall_at_3', q1: 0.5, q2: 0, q4: 0.3333 },
    { measure: 'recall_at_5', q1: 1, q2: 0, q4: 0.3333 },
    { measure: 'hit_at_1', q1: 0, q2: 0, q4: 1 },
    { measure: 'hit_at_3', q1: 1, q2: 0, q4: 1 },
    { measure: 'reciprocal_rank', q1: 0.5, q2: 0, q4: 1 },
    { measure: 'ap_at_10', q1: 0.5, q2: 0, q4: 0.3333 },
    { measure: 'ap_at_3', q1: 0.25, q2: 0, q4: 0.3333 },
    { measure: 'ndcg_at_3', q1: 0.3869, q2: 0, q4: 0.4693 },
    { measure: 'ndcg_at_5', q1: 0.6509, q2: 0, q4: 0.4693 },
  ] as const)('$measure: q1 $q1, q2 $q2, q4 $q4', ({ measure, ...want }) => {
    expect(q1[measure]).toBeCloseTo(want.q1, 4);
    expect(q2[measure]).toBeCloseTo(want.q2, 4);
    expect(q4[measure]).toBeCloseTo(want.q4, 4);
  });

  it('q3 (nothing expected) is N/A for every metric', () => {
    expect(Object.values(q3).every((v) => v === null)).toBe(true);
    expect(Object.keys(q3).sort()).toEqual(Object.keys(RankingScoresSchema.shape).sort());
  });

  it('q2 (nothing cited) is 0 for every metric, never null', () => {
    expect(Object.values(q2)).toEqual(Object.values(q2).map(() => 0));
  });

  it('every result validates against RankingScoresSchema', () => {
    for (const scores of [q1, q2, q3, q4]) expect(RankingScoresSchema.parse(scores)).toEqual(scores);
  });
});

describe('edge rows', () => {
  it.each([
    { name: 'perfect single', ranked: ['A'], expected: ['A'], k: 1, p: 1, r: 1, ap: 1, ndcg: 1, hit: 1 },
    {
      name: 'perfect pair at 10',
      ranked: ['A', 'B'],
      expected: ['A', 'B'],
      k: 10,
      p: 0.2,
      r: 1,
      ap: 1,
      ndcg: 1,
      hit: 1,
    },
    { name: 'all misses', ranked: ['x', 'y', 'z'], expected: ['A'], k: 3, p: 0, r: 0, ap: 0, ndcg: 0, hit: 0 },
    // hit at rank 10 of 12: counts at k=10 only.
    {
      name: 'hit at rank 10',
      ranked: ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C'],
      expected: ['A'],
      k: 10,
      p: 0.1,
      r: 1,
      ap: 0.1,
      ndcg: 1 / Math.log2(11),
      hit: 1,
    },
    // m > k: AP divides by all m (4), nDCG's ideal by min(m, k) = 1.
    { name: 'm > k', ranked: ['A'], expected: ['A', 'B', 'C', 'D'], k: 1, p: 1, r: 0.25, ap: 0.25, ndcg: 1, hit: 1 },
  ])('$name @$k', ({ ranked, expected, k, p, r, ap, ndcg, hit }) => {
    const s = rankingScores(ranked, expected) as Record<string, number | null>;
    expect(s[`precision_at_${k}`]).toBeCloseTo(p, 10);
    expect(s[`recall_at_${k}`]).toBeCloseTo(r, 10);
    expect(s[`ap_at_${k}`]).toBeCloseTo(ap, 10);
    expect(s[`ndcg_at_${k}`]).toBeCloseTo(ndcg, 10);
    expect(s[`hit_at_${k}`]).toBe(hit);
  });

  it('reads a hit past rank 10 into the reciprocal rank only', () => {
    const ranked = [...'abcdefghijk'].concat('A');
    const s = rankingScores(ranked, ['A']);
    expect(s.reciprocal_rank).toBeCloseTo(1 / 12, 12);
    for (const k of CUTOFFS) expect(s[`hit_at_${k}`]).toBe(0);
  });

  it('treats duplicate expected ids as one (m = |E|)', () => {
    expect(rankingScores(['A'], ['A', 'A', 'B']).recall_at_1).toBe(0.5);
  });

  it('keeps every score within [0, 1]', () => {
    const s = rankingScores(['A', 'x', 'B', 'C', 'y', 'D'], ['D', 'C', 'B', 'A', 'Z']);
    for (const v of Object.values(s)) expect(v === null || (v >= 0 && v <= 1)).toBe(true);
  });
});

describe('rankedUnique', () => {
  it.each([
    { ids: [], ranked: [], duplicates: 0 },
    { ids: ['a', 'b', 'a', 'c', 'b'], ranked: ['a', 'b', 'c'], duplicates: 2 },
    { ids: [' a ', 'a', '', '  '], ranked: ['a'], duplicates: 1 },
  ])('$ids → $ranked (+$duplicates)', ({ ids, ranked, duplicates }) => {
    expect(rankedUnique(ids)).toEqual({ ranked, duplicates });
  });
});

describe('writeRankingScores', () => {
  it("writes rankingScores' values under prefixed names, every key set, nothing else touched", () => {
    const lists: Array<[string[], string[]]> = [
      [
        ['B', 'A', 'D', 'C'],
        ['A', 'C'],
      ],
      [[], ['X']],
      [['N'], []],
      [
        ['x', 'y', 'z', 'w', 'v', 'u', 't', 's', 'r', 'q', 'A'],
        ['A', 'B'],
      ],
      [
        ['A', 'x', 'B', 'C', 'y', 'D'],
        ['D', 'C', 'B', 'A', 'Z'],
      ],
    ];
    for (const [ranked, expected] of lists) {
      const out: Record<string, number | null> = { other: 7 };
      for (const key of Object.keys(RankingScoresSchema.shape)) out[`retrieval_${key}`] = -1;
      writeRankingScores(out, rankingNames('retrieval_'), ranked, new Set(expected));
      const want = Object.fromEntries(
        Object.entries(rankingScores(ranked, expected)).map(([key, value]) => [`retrieval_${key}`, value]),
      );
      expect(out).toEqual({ other: 7, ...want });
    }
  });
});

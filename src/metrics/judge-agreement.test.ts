import { describe, expect, it } from 'vitest';
import type { Judgement } from '../records/quality.js';
import type { HumanVerdict } from '../records/review.js';
import { agreementOf, cohenKappa, createAgreementAccumulator, flipped, type VerdictPair } from './judge-agreement.js';
import { makeModel, makeRecord } from './test-records.js';

/** A small seeded generator (mulberry32) for the tests: metrics take their randomness injected. */
function createRandom(seed: number | string): () => number {
  let a =
    typeof seed === 'number' ? seed : [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pairs = (spec: Array<[boolean, boolean, number]>): VerdictPair[] =>
  spec.flatMap(([judge, human, n]) => Array.from({ length: n }, () => ({ judge, human })));

describe('cohenKappa', () => {
  it('the textbook example: p_o 0.7, p_e 0.5 → 0.4', () => {
    expect(
      cohenKappa(
        pairs([
          [true, true, 20],
          [true, false, 5],
          [false, true, 10],
          [false, false, 15],
        ]),
      ),
    ).toBeCloseTo(0.4, 12);
  });
  it.each([
    {
      name: 'perfect agreement',
      p: pairs([
        [true, true, 3],
        [false, false, 2],
      ]),
      want: 1,
    },
    { name: 'no items', p: [], want: null },
    { name: 'both always pass: undefined', p: pairs([[true, true, 4]]), want: null },
    {
      name: 'one rater constant, the other not: 0',
      p: pairs([
        [true, true, 2],
        [true, false, 2],
      ]),
      want: 0,
    },
  ])('$name', ({ p, want }) => expect(cohenKappa(p)).toBe(want));
});

describe('agreementOf', () => {
  it('gives the point values and a seeded bootstrap interval around them', () => {
    const p = pairs([
      [true, true, 20],
      [true, false, 5],
      [false, true, 10],
      [false, false, 15],
    ]);
    const a = agreementOf(p, createRandom('x'), 500)!;
    expect(a.accuracy.value).toBeCloseTo(0.7, 12);
    expect(a.kappa?.value).toBeCloseTo(0.4, 12);
    expect(a.accuracy.ci_low).toBeLessThan(0.7);
    expect(a.accuracy.ci_high).toBeGreaterThan(0.7);
    expect(a.kappa!.ci_low).toBeLessThan(0.4);
    expect(agreementOf(p, createRandom('x'), 500)).toEqual(a);
    expect(agreementOf([], createRandom('x'))).toBeNull();
  });
  it('a constant pair has a zero-width accuracy interval and no kappa', () => {
    const a = agreementOf(pairs([[true, true, 5]]), createRandom(1), 100)!;
    expect(a.accuracy).toEqual({ value: 1, ci_low: 1, ci_high: 1 });
    expect(a.kappa).toBeNull();
  });
});

it.each([
  { asks: [0.9, 0.8], want: false },
  { asks: [0.9, 0.2], want: true },
  { asks: [0.5, 0.49], want: true },
  { asks: [0.9, null], want: null },
  { asks: [0.9], want: null },
])('flipped($asks) → $want', ({ asks, want }) => expect(flipped(asks)).toBe(want));

describe('createAgreementAccumulator', () => {
  const judged = (score: number, asks: (number | null)[] = [score]): Judgement => ({
    model: 'm',
    prompt_version: 'v1',
    verdicts: { correctness: { status: 'ok', score, reason: 'r', error: null, asks, cached: 0 } },
  });
  it('pairs judged answers with the most specific label, and counts flips', () => {
    const acc = createAgreementAccumulator(
      [
        { question_id: 'q2', set: null, figure: null, verdict: 'fail', source: null },
        { question_id: 'q2', set: 'b', figure: 'correctness', verdict: 'pass', source: null },
      ],
      () => createRandom(1),
    );
    acc.add(makeRecord({ question_id: 'q1', set: 'a', human_verdict: 'pass', judge: judged(0.9, [0.9, 0.8]) }));
    acc.add(makeRecord({ question_id: 'q2', set: 'a', judge: judged(0.9, [0.9, 0.1]) }));
    acc.add(makeRecord({ question_id: 'q2', set: 'b', judge: judged(0.9) }));
    acc.add(makeRecord({ question_id: 'q3', set: 'a', judge: judged(0.1) })); // no label
    acc.add(
      makeRecord({
        question_id: 'q4',
        set: 'm',
        scores: null,
        models: [makeModel(0, { judge: judged(0.2) }), makeModel(1, { judge: judged(0.8) })],
        human_verdict: 'fail',
      }),
    );
    const { agreement, consistency } = acc.finish();
    expect(agreement).toHaveLength(1);
    expect(agreement[0]).toMatchObject({ figure: 'correctness', n: 5, judge_pass: 4, human_pass: 2 });
    expect(agreement[0]!.accuracy.value).toBeCloseTo(3 / 5, 12);
    expect(consistency).toEqual([
      { figure: 'correctness', items: 2, flipped: 1, flip_rate: expect.objectContaining({ mean: 0.5, n: 2 }) },
    ]);
  });
});

it('a review of the very answer (reviews.jsonl) outranks the labels file and the dataset column', () => {
  const judged: Judgement = {
    model: 'm',
    prompt_version: 'v1',
    verdicts: { relevance: { status: 'ok', score: 1, reason: null, error: null, asks: [1], cached: 0 } },
  };
  const record = makeRecord({ question_id: 'q1', set: 'a', human_verdict: 'pass', judge: judged });
  const duo = makeRecord({
    question_id: 'q1',
    set: 'm',
    scores: null,
    models: [makeModel(0, { judge: judged }), makeModel(1, { judge: judged })],
  });
  const review = (verdict: 'pass' | 'fail') =>
    ({ human_verdict: verdict, pass: verdict === 'pass' }) as unknown as HumanVerdict;
  const reviews = new Map([
    [record.key, review('fail')],
    [`${duo.key}#1`, review('fail')],
  ]);
  const acc = createAgreementAccumulator(
    [{ question_id: 'q1', set: null, figure: null, verdict: 'pass', source: null }],
    () => createRandom(2),
    reviews,
  );
  acc.add(record);
  acc.add(duo);
  // record: review fail (not the label's pass); duo model 0: the label's pass; duo model 1: review fail.
  expect(acc.finish().agreement[0]).toMatchObject({ figure: 'relevance', n: 3, judge_pass: 3, human_pass: 1 });
});

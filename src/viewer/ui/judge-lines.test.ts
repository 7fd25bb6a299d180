import { describe, expect, it } from 'vitest';
import { judgeLines } from './judge-lines.js';

const verdict = (over: Record<string, unknown>) => ({
  status: 'ok',
  score: 0.8,
  reason: null,
  error: null,
  asks: [0.8],
  cached: 0,
  ...over,
});

describe('judgeLines', () => {
  it('gives one line per judged figure: score, reason, error; not-applicable figures left out', () => {
    const judge = {
      model: 'sim-judge',
      prompt_version: '1',
      verdicts: {
        correctness: verdict({ reason: 'names the policy' }),
        groundedness: verdict({ status: 'judge_error', score: null, error: 'timeout', asks: [null, null] }),
        relevance: verdict({ status: 'not_applicable', score: null }),
        rubric: verdict({ score: 1, asks: [1, 1] }),
      },
    };
    expect(judgeLines(judge)).toEqual([
      { figure: 'correctness', score: 0.8, reason: 'names the policy', error: null, asks: 1 },
      { figure: 'groundedness', score: null, reason: null, error: 'timeout', asks: 2 },
      { figure: 'rubric', score: 1, reason: null, error: null, asks: 2 },
    ]);
  });

  it.each([null, 'text', [], { verdicts: null }, { verdicts: { correctness: 0.5 } }])(
    'gives null for a shape it does not know: %j',
    (judge) => {
      expect(judgeLines(judge)).toBeNull();
    },
  );
});

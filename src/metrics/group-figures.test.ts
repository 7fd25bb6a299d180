import { describe, expect, it } from 'vitest';
import type { Judgement, JudgeVerdict } from '../records/quality.js';
import { createJudgeAskCounter } from './group-figures.js';
import { questionValue } from './question-value.js';

const verdict = (asks: (number | null)[]): JudgeVerdict => ({
  status: asks.some((a) => a !== null) ? 'ok' : asks.length === 0 ? 'not_applicable' : 'judge_error',
  score: null,
  reason: null,
  error: null,
  asks,
  cached: 0,
});
const judgement = (verdicts: Judgement['verdicts']): Judgement => ({ model: 'm', prompt_version: '1', verdicts });

describe('createJudgeAskCounter (judge_error_rate)', () => {
  it('counts every ask (× --judge-repeat) and those without a verdict; a not-applicable figure asks nothing', () => {
    const counter = createJudgeAskCounter();
    expect(counter.figures()).toEqual({ judge_asks: 0, judge_failed_asks: 0, judge_error_rate: null });
    counter.add(null);
    counter.add(
      judgement({ correctness: verdict([1, null, 0.5]), relevance: verdict([null, null, null]), rubric: verdict([]) }),
    );
    counter.add(judgement({ correctness: verdict([0]) }));
    expect(counter.figures()).toEqual({ judge_asks: 7, judge_failed_asks: 4, judge_error_rate: 4 / 7 });
  });

  it('gives a question its own judge_error_rate, N/A when the judge was not asked', () => {
    const q = { outcomes: ['ok', 'ok'] as const, passes: [true, true] };
    expect(questionValue({ ...q, outcomes: [...q.outcomes], judge: { asks: 4, failed: 1 } }, 'judge_error_rate')).toBe(
      0.25,
    );
    expect(
      questionValue({ ...q, outcomes: [...q.outcomes], judge: { asks: 0, failed: 0 } }, 'judge_error_rate'),
    ).toBeNull();
    expect(questionValue({ ...q, outcomes: [...q.outcomes] }, 'judge_error_rate')).toBeNull();
  });
});

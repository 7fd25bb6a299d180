import { describe, expect, it } from 'vitest';
import { questionValue, type QuestionFigures } from './question-value.js';

const question = (over: Partial<QuestionFigures>): QuestionFigures => ({
  outcomes: ['ok', 'ok'],
  passes: [true, false],
  ...over,
});

describe('questionValue: pass_rate of a question that expects nothing (issue 27)', () => {
  it.each([
    { checked: undefined, want: 0.5 },
    { checked: true, want: 0.5 },
    { checked: false, want: null },
  ])('checked $checked → $want', ({ checked, want }) => {
    expect(questionValue(question(checked === undefined ? {} : { checked }), 'pass_rate')).toBe(want);
  });

  it('an unchecked question still has its other rates', () => {
    expect(questionValue(question({ checked: false, outcomes: ['ok', 'timeout'] }), 'ok_rate')).toBe(0.5);
  });
});

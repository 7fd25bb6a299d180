import { expect, it } from 'vitest';
import { stripCitations } from '../records/citations.js';
import { answerTokens } from './answer-quality.js';
import { loweredAnswer, plainAnswer } from './answer-text.js';
import { checkAnswer, foldText } from './checks.js';

const ANSWERS = [
  'The ＰＴＯ is 25 days [[1]](https://wiki/pto). Ａｌｌ  staff\tget it [[2]](https://wiki/x).',
  'Ünïcode ﬁne print [[1]](https://wiki/a)',
  '',
  'The ＰＴＯ is 25 days [[1]](https://wiki/pto). Ａｌｌ  staff\tget it [[2]](https://wiki/x).',
];

it('gives each answer its own forms, whichever answer came before', () => {
  for (const answer of [...ANSWERS, ...ANSWERS.toReversed()]) {
    // Built anew each time, so the cache is checked on equal text, not on the same string object only.
    const copy = [...answer].join('');
    expect(plainAnswer(copy)).toBe(stripCitations(answer));
    expect(loweredAnswer(copy)).toBe(stripCitations(answer).normalize('NFKC').toLowerCase());
    expect(plainAnswer(answer)).toBe(stripCitations(answer));
  }
});

it('leaves the checks and the tokens as they were defined: folded, then split', () => {
  const answer = ANSWERS[0]!;
  expect(answerTokens(answer)).toEqual(['pto', 'is', '25', 'days', 'all', 'staff', 'get', 'it']);
  // A reference tokenised between the answer's two readers evicts nothing that matters.
  answerTokens('Another reference entirely');
  const checks = checkAnswer(answer, 2, {
    must_contain: ['all staff get', 'PTO'],
    must_not_contain: ['[[1]]'],
    expect_no_answer: false,
  });
  expect(checks.missing_phrases).toEqual([]);
  expect(checks.forbidden_phrases).toEqual([]);
  expect(foldText(stripCitations(answer))).toContain('all staff get it');
});

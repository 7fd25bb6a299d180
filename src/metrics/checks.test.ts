import { describe, expect, it } from 'vitest';
import { checkAnswer, foldedSpaces, foldText, passes, type PassInputs } from './checks.js';

const none = { must_contain: [], must_not_contain: [], expect_no_answer: false };

describe('foldText', () => {
  it.each([
    { text: '  Docker\n\tCOMPOSE  ', want: 'docker compose' },
    { text: 'a\u00a0b', want: 'a b' }, // no-break space
    { text: 'ＡＢＣ', want: 'abc' }, // full-width letters under NFKC
    { text: '', want: '' },
  ])('$text → $want', ({ text, want }) => expect(foldText(text)).toBe(want));
});

describe('foldedSpaces', () => {
  // The replace it skips when the text has single spaces only: same text out, whatever the text.
  const fold = (text: string) => text.replace(/\s+/gu, ' ').trim();
  it.each([' a b ', 'a  b', 'a\tb', 'a\u00a0b', 'a\u2028b', '\ufeffa', 'a b c', '', ' ', 'ab\r\n'])('%j', (text) =>
    expect(foldedSpaces(text)).toBe(fold(text)),
  );

  it('equals the replace on 2,000 random texts of spaces, whitespace and letters', () => {
    const alphabet = [' ', ' ', ' ', 'a', 'b', '\t', '\n', '\u00a0', '\u3000', '\ufeff', '\u200b'];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 2000; i++) {
      const text = Array.from(
        { length: Math.floor(next() * 12) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join('');
      expect(foldedSpaces(text)).toBe(fold(text));
    }
  });
});

describe('checkAnswer', () => {
  const answer = 'It runs on\nDocker   Compose [[1]](https://d.example/x) or KUBERNETES.';

  it('finds must_contain phrases case- and whitespace-insensitively', () => {
    const checks = checkAnswer(answer, 1, { ...none, must_contain: ['docker compose', 'Kubernetes', 'helm'] });
    expect(checks.missing_phrases).toEqual(['helm']);
  });

  it('reads the citation-free answer: a phrase spanning a marker matches, a link does not', () => {
    expect(checkAnswer(answer, 1, { ...none, must_contain: ['compose or kubernetes'] }).missing_phrases).toEqual([]);
    expect(checkAnswer(answer, 1, { ...none, must_not_contain: ['d.example'] }).forbidden_phrases).toEqual([]);
  });

  it('lists must_not_contain phrases that are present, as the dataset wrote them', () => {
    const checks = checkAnswer(answer, 1, { ...none, must_not_contain: ['  KUBERNETES ', 'windows'] });
    expect(checks.forbidden_phrases).toEqual(['  KUBERNETES ']);
  });

  it('ignores phrases that fold to nothing', () => {
    const checks = checkAnswer('x', 0, { ...none, must_contain: ['  '], must_not_contain: [''] });
    expect(checks).toEqual({
      missing_phrases: [],
      forbidden_phrases: [],
      unmatched_patterns: [],
      forbidden_matches: [],
      no_answer_ok: null,
    });
  });

  it('treats a null answer as containing nothing', () => {
    const checks = checkAnswer(null, 0, { ...none, must_contain: ['a'], must_not_contain: ['b'] });
    expect(checks).toEqual({
      missing_phrases: ['a'],
      forbidden_phrases: [],
      unmatched_patterns: [],
      forbidden_matches: [],
      no_answer_ok: null,
    });
  });

  it.each([
    { cited: 0, want: true },
    { cited: 2, want: false },
  ])('expect_no_answer with $cited cited → $want', ({ cited, want }) => {
    expect(checkAnswer('no idea', cited, { ...none, expect_no_answer: true }).no_answer_ok).toBe(want);
  });
});

describe('passes', () => {
  const base: PassInputs = {
    outcome: 'ok',
    invalid_citations: 0,
    citation_recall: 0.5,
    expects_documents: true,
    checks: {
      missing_phrases: [],
      forbidden_phrases: [],
      unmatched_patterns: [],
      forbidden_matches: [],
      no_answer_ok: null,
    },
  };
  it.each<{ name: string; change: Partial<PassInputs>; want: boolean }>([
    { name: 'all good', change: {}, want: true },
    { name: 'not ok', change: { outcome: 'truncated' }, want: false },
    { name: 'invalid citation', change: { invalid_citations: 1 }, want: false },
    { name: 'recall 0 with documents expected', change: { citation_recall: 0 }, want: false },
    { name: 'nothing expected: recall N/A', change: { citation_recall: null, expects_documents: false }, want: true },
    { name: 'missing phrase', change: { checks: { ...base.checks, missing_phrases: ['x'] } }, want: false },
    { name: 'forbidden phrase', change: { checks: { ...base.checks, forbidden_phrases: ['x'] } }, want: false },
    { name: 'unmatched pattern', change: { checks: { ...base.checks, unmatched_patterns: ['/x/iu'] } }, want: false },
    { name: 'forbidden match', change: { checks: { ...base.checks, forbidden_matches: ['/x/iu'] } }, want: false },
    { name: 'cited when no answer expected', change: { checks: { ...base.checks, no_answer_ok: false } }, want: false },
    {
      name: 'nothing cited when no answer expected',
      change: { checks: { ...base.checks, no_answer_ok: true }, expects_documents: false, citation_recall: null },
      want: true,
    },
  ])('$name → $want', ({ change, want }) => expect(passes({ ...base, ...change })).toBe(want));
});

describe('must_match and must_not_match', () => {
  const none = { must_contain: [], must_not_contain: [], expect_no_answer: false };
  it.each([
    {
      name: 'a bare pattern is case-insensitive',
      must_match: ['/\\b25 days\\b/iu'],
      answer: 'You get 25 Days [[1]](x).',
      unmatched: [],
    },
    {
      name: 'markers are stripped first',
      must_match: ['/days \\.$/u'],
      answer: 'You get 25 days [[1]](https://d.example/1).',
      unmatched: [],
    },
    { name: 'case-sensitive when written so', must_match: ['/Days/'], answer: 'days', unmatched: ['/Days/'] },
    { name: 'a null answer matches nothing', must_match: ['/./u'], answer: null, unmatched: ['/./u'] },
  ])('$name', ({ must_match, answer, unmatched }) => {
    expect(checkAnswer(answer, 0, { ...none, must_match }).unmatched_patterns).toEqual(unmatched);
  });
  it('must_not_match lists the patterns that matched', () => {
    expect(
      checkAnswer('I am not sure.', 0, { ...none, must_not_match: ['/not sure/iu', '/guess/iu'] }).forbidden_matches,
    ).toEqual(['/not sure/iu']);
  });
});

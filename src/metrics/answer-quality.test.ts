import { describe, expect, it } from 'vitest';
import { answerTokens, lcsLength, referenceScores, rougeL, tokenF1 } from './answer-quality.js';

describe('answerTokens (SQuAD normalisation)', () => {
  it.each([
    { text: 'The cat sat on the mat.', want: ['cat', 'sat', 'on', 'mat'] },
    { text: 'A cat sat on a mat', want: ['cat', 'sat', 'on', 'mat'] },
    { text: 'Compose [[1]](https://d.example/1) a message.', want: ['compose', 'message'] },
    { text: 'ＡＢＣ state-of-the-art, 25%!', want: ['abc', 'stateoftheart', '25'] },
    { text: '  \n ', want: [] },
    { text: 'An apple, THE pear', want: ['apple', 'pear'] },
  ])('$text', ({ text, want }) => expect(answerTokens(text)).toEqual(want));
});

describe('docs/reference/metrics.md test vectors', () => {
  it('"The cat sat on the mat." vs "A cat sat on a mat": 1.0 and 1.0', () => {
    expect(referenceScores('The cat sat on the mat.', 'A cat sat on a mat')).toEqual({ answer_f1: 1, rouge_l: 1 });
  });
  it('"Paid leave is 25 days" vs "25 days of paid leave": F1 0.8, ROUGE-L 0.4', () => {
    const { answer_f1, rouge_l } = referenceScores('Paid leave is 25 days', '25 days of paid leave');
    expect(answer_f1).toBeCloseTo(0.8, 12);
    expect(rouge_l).toBeCloseTo(0.4, 12);
  });
});

describe('edge cases', () => {
  it.each([
    { a: [], g: [], f1: 1, rouge: 1 },
    { a: ['x'], g: [], f1: 0, rouge: 0 },
    { a: [], g: ['x'], f1: 0, rouge: 0 },
    { a: ['x', 'y'], g: ['z'], f1: 0, rouge: 0 },
    // multiset: the answer's second "a" has nothing left to match
    { a: ['a', 'a', 'b'], g: ['a', 'b'], f1: 0.8, rouge: 0.8 },
    { a: ['b', 'a'], g: ['a', 'b'], f1: 1, rouge: 0.5 },
  ])('$a vs $g', ({ a, g, f1, rouge }) => {
    expect(tokenF1(a, g)).toBeCloseTo(f1, 12);
    expect(rougeL(a, g)).toBeCloseTo(rouge, 12);
  });
  it('lcsLength', () => {
    expect(lcsLength(['a', 'b', 'c', 'd'], ['b', 'd'])).toBe(2);
    expect(lcsLength([], ['a'])).toBe(0);
  });
  it('is N/A without a reference; a null answer scores 0', () => {
    expect(referenceScores('anything', null)).toEqual({ answer_f1: null, rouge_l: null });
    expect(referenceScores('anything', '  ')).toEqual({ answer_f1: null, rouge_l: null });
    expect(referenceScores(null, 'twenty days')).toEqual({ answer_f1: 0, rouge_l: 0 });
  });
});

describe('lcsLength on integer rows', () => {
  /** The textbook table, for comparison. */
  const naive = (a: readonly string[], b: readonly string[]): number => {
    const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        t[i]![j] = a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
    return t[a.length]![b.length]!;
  };
  it('agrees with the textbook table on seeded random token lists, empty ones and repeats included', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const words = ['a', 'b', 'c', 'd', 'e', 'pto', 'days'];
    for (let k = 0; k < 300; k++) {
      const a = Array.from({ length: Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]!);
      const b = Array.from({ length: Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]!);
      expect(lcsLength(a, b)).toBe(naive(a, b));
    }
  });
  it('agrees with the table on both sides of the bit-vector limit (30 tokens of b), long a and repeats included', () => {
    let seed = 35;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const words = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'pto', 'days', 'year'];
    for (let k = 0; k < 400; k++) {
      const vocabulary = 1 + Math.floor(next() * words.length);
      const a = Array.from({ length: Math.floor(next() * 80) }, () => words[Math.floor(next() * vocabulary)]!);
      const b = Array.from({ length: 24 + Math.floor(next() * 12) }, () => words[Math.floor(next() * vocabulary)]!);
      expect(lcsLength(a, b), `${a.join(' ')} / ${b.join(' ')}`).toBe(naive(a, b));
      // The masks kept for b give the same answer the next time.
      expect(lcsLength(b, b)).toBe(b.length);
    }
  });
});

describe('referenceScores in one pass', () => {
  it('equals tokenF1 and rougeL of the tokens, on both sides of 30 reference tokens, empty and repeated ones included', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // Articles in any case, punctuation and symbols, non-ASCII whitespace and letters, an astral letter.
    const words = [
      'a',
      'the',
      'An',
      'B',
      'c.',
      'd',
      'e',
      'PTO',
      'days',
      'year',
      '!',
      '—',
      'x\u00a0y',
      '\u3000',
      'é',
      '𝔘b',
      'state-of-the-art',
      '\t',
      'ＡＢ',
    ];
    const text = (most: number) =>
      Array.from({ length: Math.floor(next() * most) }, () => words[Math.floor(next() * words.length)]!).join(' ');
    for (let k = 0; k < 600; k++) {
      const answer = text(60);
      const reference = `${text(k % 2 === 0 ? 20 : 45)} x`; // never blank
      const a = answerTokens(answer);
      const g = answerTokens(reference);
      const got = referenceScores(answer, reference);
      expect(got, `${answer} / ${reference}`).toEqual({ answer_f1: tokenF1(a, g), rouge_l: rougeL(a, g) });
      // The reference made once gives the same the next time.
      expect(referenceScores(answer, reference)).toEqual(got);
    }
    expect(referenceScores('', '!!')).toEqual({ answer_f1: 1, rouge_l: 1 });
    expect(referenceScores('pto', 'the a')).toEqual({ answer_f1: 0, rouge_l: 0 });
  });
});

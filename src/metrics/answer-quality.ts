/**
 * @module metrics/answer-quality
 * The answer-quality figures computed without a model (docs/reference/metrics.md "Answer quality"): token F1 and
 * ROUGE-L between the answer and the dataset's reference answer, over SQuAD's normalisation.
 */
import { stripCitations } from '../records/citations.js';

const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);
/** Unicode punctuation and symbols: SQuAD drops string.punctuation, which holds both kinds. */
const PUNCTUATION = /[\p{P}\p{S}]/gu;

/**
 * SQuAD's normalisation, after the citation markers (`[[n]](link)`) are removed: Unicode NFKC,
 * lower case, punctuation and symbols dropped (not replaced: "state-of-the-art" → "stateoftheart",
 * on both sides alike), split on whitespace, the articles a/an/the left out.
 */
export function answerTokens(text: string): string[] {
  const plain = stripCitations(text).normalize('NFKC').toLowerCase().replace(PUNCTUATION, '');
  return plain.split(/\s+/u).filter((token) => token !== '' && !ARTICLES.has(token));
}

/** 2PR / (P + R), 0 when both are 0. */
const fMeasure = (precision: number, recall: number): number =>
  precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);

/**
 * Token F1 of answer tokens A against reference tokens G: common = |A ∩ G| as multisets,
 * P = common/|A|, R = common/|G|. Both empty → 1; common = 0 (one side empty included) → 0.
 */
export function tokenF1(answer: readonly string[], reference: readonly string[]): number {
  if (answer.length === 0 && reference.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const token of reference) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of answer) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      common += 1;
      counts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  return fMeasure(common / answer.length, common / reference.length);
}

/** Length of the longest common subsequence, in O(|a|·|b|) time and O(|b|) memory. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = x === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, row[j - 1] ?? 0);
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** ROUGE-L F-measure (β = 1): P = LCS/|A|, R = LCS/|G|. Both empty → 1; LCS = 0 → 0. */
export function rougeL(answer: readonly string[], reference: readonly string[]): number {
  if (answer.length === 0 && reference.length === 0) return 1;
  const lcs = lcsLength(answer, reference);
  if (lcs === 0) return 0;
  return fMeasure(lcs / answer.length, lcs / reference.length);
}

/** answer_f1 and rouge_l of an answer; both null (N/A) without a reference answer. A null answer counts as empty. */
export function referenceScores(answer: string | null, reference: string | null | undefined): { answer_f1: number | null; rouge_l: number | null } {
  if (reference === null || reference === undefined || reference.trim() === '') return { answer_f1: null, rouge_l: null };
  const a = answerTokens(answer ?? '');
  const g = answerTokens(reference);
  return { answer_f1: tokenF1(a, g), rouge_l: rougeL(a, g) };
}

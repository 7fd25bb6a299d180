/**
 * @module metrics/answer-text
 * The answer's text as scoring reads it: its citation markers stripped (records/citations.ts), then
 * Unicode NFKC and lower case. The answer checks (checks.ts) and the reference scores
 * (answer-quality.ts) read the same answer one after the other (score.ts): the last answer's forms
 * are kept, so each is computed once per answer rather than once per reader. Same text in, same
 * text out: the cache changes no figure.
 */
import { stripCitations } from '../records/citations.js';

let lastAnswer: string | undefined;
let lastPlain = '';
let lastLowered: string | undefined;

/** `answer` without its citation markers. */
export function plainAnswer(answer: string): string {
  if (answer !== lastAnswer) {
    lastAnswer = answer;
    lastPlain = stripCitations(answer);
    lastLowered = undefined;
  }
  return lastPlain;
}

/** plainAnswer in Unicode NFKC and lower case. */
export function loweredAnswer(answer: string): string {
  const plain = plainAnswer(answer);
  return (lastLowered ??= plain.normalize('NFKC').toLowerCase());
}

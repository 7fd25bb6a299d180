/**
 * @module sim/judge/rules
 * The simulated judge's verdicts: deterministic rules over the texts, not a model (docs/simulator.md,
 * "The simulated service"). They reward what the judged figures are about, so that a weaker model
 * profile scores lower, and nothing else:
 * - correctness: the share of the reference answer's content words (stop words dropped, simple
 *   stemming) and numbers the answer contains; 0 when the answer says it found nothing, or when it
 *   gives numbers and none of the reference's (a contradiction);
 * - groundedness: each sentence of the answer with at least three content words is a claim; it is
 *   supported when at least 60% of its content words occur in the text of the documents it cites
 *   (`[n]` markers; a sentence with no marker: any document); the score is the supported share (no
 *   claim → 1);
 * - relevance: a "found nothing" answer scores 1 when no answer is expected, else 0; otherwise the
 *   share of the question's content words the answer uses, × 1.5, capped at 1;
 * - rubric: every phrase quoted in the rubric must occur in the answer, or must not when "not",
 *   "never", "no" or "without" comes just before it; a rubric without quotes passes any answer that
 *   says something (three content words, not "found nothing").
 * Scores are rounded to two decimals.
 */
import type { JudgeInput } from '../../api/judge.js';
import { STOP_WORDS, words } from '../corpus/text.js';

export interface RuleVerdict {
  score: number;
  /** Rubric: the pass verdict (score 1 or 0). */
  pass?: boolean;
  reason: string;
}

const NO_ANSWER =
  /\b(could not find|couldn't find|can ?not find|no information|not found|do not know|don't know|cannot answer|no answer)\b/i;
const NUMBER = /\d+(?:[.,:]\d+)*/g;

/** A crude stemmer: enough to match "receives", "received" and "receive", or "days" and "day". */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Content words of a text, stemmed, without numbers (counted apart), each once. */
export function contentStems(text: string): string[] {
  return [
    ...new Set(
      words(text)
        .filter((w) => !STOP_WORDS.has(w) && !/^\d/.test(w))
        .map(stem),
    ),
  ];
}

const numbersOf = (text: string): string[] => [...new Set(text.match(NUMBER) ?? [])];
const round2 = (x: number): number => Math.round(x * 100) / 100;
const share = (wanted: readonly string[], present: ReadonlySet<string>): number =>
  wanted.length === 0 ? 1 : wanted.filter((w) => present.has(w)).length / wanted.length;
const quote = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

function correctness(answer: string, reference: string): RuleVerdict {
  if (NO_ANSWER.test(answer))
    return { score: 0, reason: 'the answer says it found nothing; the reference answers the question' };
  const refNumbers = numbersOf(reference);
  const ansNumbers = numbersOf(answer);
  const missingNumbers = refNumbers.filter((n) => !ansNumbers.includes(n));
  if (refNumbers.length > 0 && missingNumbers.length === refNumbers.length && ansNumbers.length > 0) {
    return {
      score: 0,
      reason: `contradicts the reference: it says ${ansNumbers[0]} where the reference says ${refNumbers[0]}`,
    };
  }
  const refStems = contentStems(reference);
  const present = new Set(contentStems(answer));
  const missing = refStems.filter((s) => !present.has(s));
  const total = refStems.length + refNumbers.length;
  const score =
    total === 0 ? 1 : (refStems.length - missing.length + refNumbers.length - missingNumbers.length) / total;
  const gaps = [...missingNumbers, ...missing];
  return {
    score: round2(score),
    reason:
      gaps.length === 0
        ? 'states every key fact of the reference'
        : `misses ${gaps.slice(0, 4).join(', ')}${gaps.length > 4 ? ', …' : ''}`,
  };
}

function groundedness(answer: string, documents: NonNullable<JudgeInput['documents']>): RuleVerdict {
  const allText = new Set(documents.flatMap((d) => contentStems(`${d.title ?? ''} ${d.text}`)));
  const byNumber = new Map(
    documents
      .filter((d) => d.number !== null)
      .map((d) => [d.number, new Set(contentStems(`${d.title ?? ''} ${d.text}`))]),
  );
  const claims = answer
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => !NO_ANSWER.test(sentence) && contentStems(sentence.replace(/\[\d+\]/g, '')).length >= 3);
  if (claims.length === 0) return { score: 1, reason: 'no claim to support' };
  const unsupported = claims.filter((claim) => {
    const cited = [...claim.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    const text = cited.length === 0 ? allText : new Set(cited.flatMap((n) => [...(byNumber.get(n) ?? [])]));
    return share(contentStems(claim.replace(/\[\d+\]/g, '')), text) < 0.6;
  });
  const score = (claims.length - unsupported.length) / claims.length;
  return {
    score: round2(score),
    reason:
      unsupported.length === 0
        ? `all ${claims.length} claims are supported by the documents they cite`
        : `${unsupported.length} of ${claims.length} claims unsupported by their documents, e.g. ${quote(unsupported[0]!)}`,
  };
}

function relevance(question: string, answer: string, noAnswerExpected: boolean): RuleVerdict {
  if (NO_ANSWER.test(answer)) {
    return noAnswerExpected
      ? { score: 1, reason: 'says rightly that the knowledge base has no answer' }
      : { score: 0, reason: 'says it found nothing, but the question has an answer' };
  }
  const coverage = share(contentStems(question), new Set(contentStems(answer)));
  const score = round2(Math.min(1, coverage * 1.5));
  return {
    score,
    reason:
      score >= 1
        ? 'addresses what was asked'
        : `addresses part of the question (${Math.round(coverage * 100)}% of its words)`,
  };
}

const QUOTED = /["“']([^"”']{2,})["”']/g;
const NEGATION = /\b(not|never|no|without)\b[^.;]{0,30}$/i;

function rubric(answer: string, criterion: string): RuleVerdict {
  const text = answer.toLowerCase();
  const phrases = [...criterion.matchAll(QUOTED)].map((m) => ({
    phrase: m[1] ?? '',
    negative: NEGATION.test(criterion.slice(0, m.index)),
  }));
  const verdict = (pass: boolean, reason: string): RuleVerdict => ({ score: pass ? 1 : 0, pass, reason });
  if (phrases.length === 0) {
    const says = !NO_ANSWER.test(answer) && contentStems(answer).length >= 3;
    return verdict(says, says ? 'the criterion names no phrase; the answer says something' : 'the answer says nothing');
  }
  for (const { phrase, negative } of phrases) {
    const found = text.includes(phrase.toLowerCase());
    if (found === negative) return verdict(false, `${negative ? 'mentions' : 'does not mention'} ${quote(phrase)}`);
  }
  return verdict(
    true,
    `meets the criterion (${phrases.map((p) => `${p.negative ? 'no ' : ''}${quote(p.phrase)}`).join(', ')})`,
  );
}

/** The verdict the rules give for one judge input. */
export function judgeByRules(input: JudgeInput): RuleVerdict {
  switch (input.task) {
    case 'correctness':
      return correctness(input.answer, input.reference_answer ?? '');
    case 'groundedness':
      return groundedness(input.answer, input.documents ?? []);
    case 'relevance':
      return relevance(input.question, input.answer, input.no_answer_expected ?? false);
    case 'rubric':
      return rubric(input.answer, input.rubric ?? '');
  }
}

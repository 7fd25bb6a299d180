/**
 * @module metrics/checks
 * The optional answer checks of shared/spec/metrics.md (must_contain, must_not_contain,
 * expect_no_answer) and the per-question pass rule (README "Pass rule").
 */
import type { Outcome } from '../records/record.js';
import { stripCitations } from '../records/citations.js';

/**
 * Folds text for phrase matching: Unicode NFKC, lower case, every run of whitespace (newlines,
 * tabs, no-break spaces) to one space, trimmed.
 */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** What the answer checks found; the lists keep the phrases as the dataset wrote them. */
export interface AnswerChecks {
  /** must_contain phrases absent from the citation-free answer. */
  missing_phrases: string[];
  /** must_not_contain phrases present in it. */
  forbidden_phrases: string[];
  /** expect_no_answer: true when nothing was cited; null when the question does not expect that. */
  no_answer_ok: boolean | null;
}

/**
 * Runs the checks on the answer with its citation markers stripped, both sides folded by foldText
 * (case-insensitive, whitespace-folded). A phrase that folds to "" is ignored. A null answer contains
 * nothing: every must_contain phrase is missing.
 */
export function checkAnswer(
  answer: string | null,
  citedCount: number,
  expectations: { must_contain: readonly string[]; must_not_contain: readonly string[]; expect_no_answer: boolean },
): AnswerChecks {
  const text = answer === null ? null : foldText(stripCitations(answer));
  const contains = (phrase: string) => text !== null && text.includes(foldText(phrase));
  const meaningful = (phrase: string) => foldText(phrase) !== '';
  return {
    missing_phrases: expectations.must_contain.filter((p) => meaningful(p) && !contains(p)),
    forbidden_phrases: expectations.must_not_contain.filter((p) => meaningful(p) && contains(p)),
    no_answer_ok: expectations.expect_no_answer ? citedCount === 0 : null,
  };
}

/** The inputs of the pass rule. */
export interface PassInputs {
  outcome: Outcome;
  invalid_citations: number;
  /** null when nothing is expected (then the recall condition does not apply). */
  citation_recall: number | null;
  expects_documents: boolean;
  checks: AnswerChecks;
}

/**
 * The pass rule: outcome ok, no invalid citation, citation recall above 0 when documents are
 * expected, every must_contain present, no must_not_contain present, and nothing cited when the
 * question expects no answer.
 */
export function passes(inputs: PassInputs): boolean {
  const { outcome, invalid_citations, citation_recall, expects_documents, checks } = inputs;
  return (
    outcome === 'ok' &&
    invalid_citations === 0 &&
    (!expects_documents || (citation_recall ?? 0) > 0) &&
    checks.missing_phrases.length === 0 &&
    checks.forbidden_phrases.length === 0 &&
    checks.no_answer_ok !== false
  );
}

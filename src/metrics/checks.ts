/**
 * @module metrics/checks
 * The optional answer checks of docs/reference/metrics.md (must_contain, must_not_contain,
 * must_match, must_not_match, expect_no_answer) and the default per-question pass rule (docs/figures.md,
 * "Answer checks and the pass rule"; `--pass` rules: pass-rule.ts).
 */
import type { Expectations, ExpectationsInput } from '../records/expectations.js';
import type { Outcome } from '../records/record.js';
import { loweredAnswer, plainAnswer } from './answer-text.js';
import { cachedPattern } from '../records/patterns.js';

/**
 * Folds text for phrase matching: Unicode NFKC, lower case, every run of whitespace (newlines,
 * tabs, no-break spaces) to one space, trimmed.
 */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Text whose whitespace needs folding: a run of two, or a whitespace character other than the space. */
const UNFOLDED_SPACE = /\s\s|[^\S ]/u;

/**
 * foldText's whitespace step on an already NFKC, lower-cased text. Most answers have single spaces
 * only, which the step keeps as they are: a test (~0.5 µs for a 500-character answer) instead of
 * the replace (~3 µs, and ~4.5 KB of garbage: one match per space), same text out.
 */
export function foldedSpaces(lowered: string): string {
  return UNFOLDED_SPACE.test(lowered) ? lowered.replace(/\s+/gu, ' ').trim() : lowered.trim();
}

/** A question's phrases are folded once, not twice per answer (the cache is cleared when full). */
const phraseCache = new Map<string, string>();
const PHRASES_CACHED = 4_096;

function foldedPhrase(phrase: string): string {
  let folded = phraseCache.get(phrase);
  if (folded === undefined) {
    if (phraseCache.size >= PHRASES_CACHED) phraseCache.clear();
    folded = foldText(phrase);
    phraseCache.set(phrase, folded);
  }
  return folded;
}

/** What the answer checks found; the lists keep the phrases as the dataset wrote them. */
export interface AnswerChecks {
  /** must_contain phrases absent from the citation-free answer. */
  missing_phrases: string[];
  /** must_not_contain phrases present in it. */
  forbidden_phrases: string[];
  /** must_match patterns the citation-free answer does not match. */
  unmatched_patterns: string[];
  /** must_not_match patterns it matches. */
  forbidden_matches: string[];
  /** expect_no_answer: true when nothing was cited; null when the question does not expect that. */
  no_answer_ok: boolean | null;
}

/**
 * Runs the checks on the answer with its citation markers stripped. Phrases: both sides folded by
 * foldText (case-insensitive, whitespace-folded); a phrase that folds to "" is ignored. Patterns
 * (`/source/flags`, records/patterns) are matched against the citation-free text as it is. A null
 * answer contains and matches nothing: every must_contain phrase is missing, every must_match
 * pattern unmatched.
 */
export function checkAnswer(
  answer: string | null,
  citedCount: number,
  expectations: Pick<
    Expectations,
    'must_contain' | 'must_not_contain' | 'expect_no_answer' | 'must_match' | 'must_not_match'
  >,
): AnswerChecks {
  const plain = answer === null ? null : plainAnswer(answer);
  // foldText(plain), its NFKC and lower case shared with the reference scores (answer-text.ts).
  const text = answer === null ? null : foldedSpaces(loweredAnswer(answer));
  return {
    missing_phrases: phrasesWhere(expectations.must_contain, text, false),
    forbidden_phrases: phrasesWhere(expectations.must_not_contain, text, true),
    unmatched_patterns: patternsWhere(expectations.must_match, plain, false),
    forbidden_matches: patternsWhere(expectations.must_not_match, plain, true),
    no_answer_ok: expectations.expect_no_answer ? citedCount === 0 : null,
  };
}

// The two filters below are loops over the question's lists rather than closures made per answer:
// no function allocated per record, nothing called per phrase beyond the cache's lookup.

/** The meaningful `phrases` (not folding to "") that the folded answer `text` contains (`contained`) or not. */
function phrasesWhere(phrases: readonly string[], text: string | null, contained: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < phrases.length; i++) {
    const phrase = phrases[i]!;
    const folded = foldedPhrase(phrase);
    if (folded !== '' && (text !== null && text.includes(folded)) === contained) out.push(phrase);
  }
  return out;
}

/** The `patterns` that the citation-free answer `plain` matches (`matching`) or not; a null answer matches none. */
function patternsWhere(patterns: readonly string[] | undefined, plain: string | null, matching: boolean): string[] {
  const out: string[] = [];
  if (patterns === undefined) return out;
  for (let i = 0; i < patterns.length; i++) {
    const pattern = patterns[i]!;
    if ((plain !== null && cachedPattern(pattern).test(plain)) === matching) out.push(pattern);
  }
  return out;
}

/** The inputs of the pass rule. */
export interface PassInputs {
  outcome: Outcome;
  invalid_citations: number;
  /** null when nothing is expected (then the recall condition does not apply). */
  citation_recall: number | null;
  expects_documents: boolean;
  checks: AnswerChecks;
  /** 0 when an expected tool was not used; null (or absent) when no tool is expected. */
  tool_assertion?: number | null;
}

/** Whether the default rule tests anything of the question beyond "ok, no invalid citation" (scores' `checked`). */
export function expectsSomething(expectations: ExpectationsInput): boolean {
  return (
    expectations.expected_document_ids.length > 0 ||
    expectations.must_contain.length > 0 ||
    expectations.must_not_contain.length > 0 ||
    (expectations.must_match?.length ?? 0) > 0 ||
    (expectations.must_not_match?.length ?? 0) > 0 ||
    expectations.expect_no_answer ||
    (expectations.expected_tools?.length ?? 0) > 0
  );
}

/**
 * The default pass rule: outcome ok, no invalid citation, citation recall above 0 when documents
 * are expected, every must_contain present, no must_not_contain present, every must_match
 * matching, no must_not_match matching, nothing cited when the question expects no answer, and
 * every expected tool used (tool_assertion not 0).
 */
export function passes(inputs: PassInputs): boolean {
  const { outcome, invalid_citations, citation_recall, expects_documents, checks } = inputs;
  return (
    outcome === 'ok' &&
    inputs.tool_assertion !== 0 &&
    invalid_citations === 0 &&
    (!expects_documents || (citation_recall ?? 0) > 0) &&
    checks.missing_phrases.length === 0 &&
    checks.forbidden_phrases.length === 0 &&
    checks.unmatched_patterns.length === 0 &&
    checks.forbidden_matches.length === 0 &&
    checks.no_answer_ok !== false
  );
}

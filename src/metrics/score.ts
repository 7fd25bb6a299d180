/**
 * @module metrics/score
 * The scores of one answer (the record's `scores`, or one `models[]` entry's): citation scores,
 * ranking metrics over the cited list and over top_documents, invalid and duplicate citations,
 * answer checks and the pass rule. Definitions: docs/reference/metrics.md.
 */
import type { ExpectationsInput as Expectations } from '../records/expectations.js';
import type { AnswerFigures } from '../records/record.js';
import { RankingScoresSchema, ScoresSchema, type RankingScores, type Scores } from '../records/scores.js';
import { referenceScores } from './answer-quality.js';
import { checkAnswer, expectsSomething, passes } from './checks.js';
import { rankCitations, rankedUnique } from '../records/citations.js';
import { citationScores, invalidCitations, SMALL_LIST } from './citations.js';
import { rankingNames, rankingScores, writeRankingScores } from './ranking.js';
import { canonicalToolName } from '../records/tools.js';

export { ExpectationsSchema, type Expectations } from '../records/expectations.js';

/** The figures scoring reads. */
export type ScoredFigures = Pick<
  AnswerFigures,
  'outcome' | 'answer' | 'citations' | 'cited_document_ids' | 'top_document_ids' | 'markers_without_citation'
> & { tools_used?: readonly string[] | undefined };

const retrievalKeys = <T extends Record<string, unknown>>(scores: T) =>
  Object.fromEntries(Object.entries(scores).map(([key, value]) => [`retrieval_${key}`, value])) as {
    [K in keyof T as `retrieval_${K & string}`]: T[K];
  };

/** rankingScores' keys in its own order (the order records are written in), and their retrieval_ names. */
const RANKING_KEYS: readonly string[] = Object.keys(rankingScores([], []));
const RETRIEVAL_KEYS: readonly string[] = RANKING_KEYS.map((key) => `retrieval_${key}`);

/**
 * The schema's score keys (records/scores.ts) in its order, but for the ranking block and its
 * retrieval_ copy, which take rankingScores' own order: the schema lists them by metric, records
 * have always had them by cut-off.
 */
function scoreKeys(): string[] {
  const ranking = Object.keys(RankingScoresSchema.shape);
  const inBlock = new Set([...ranking, ...ranking.map((key) => `retrieval_${key}`)]);
  const blocks = new Map([
    [ranking[0]!, RANKING_KEYS],
    [`retrieval_${ranking[0]!}`, RETRIEVAL_KEYS],
  ]);
  return Object.keys(ScoresSchema.shape).flatMap((key) => blocks.get(key) ?? (inBlock.has(key) ? [] : [key]));
}

/**
 * Every key computeScores writes, in its order (the order records are written in), as an object with
 * fast properties: each call copies it (`{ ...SCORES_TEMPLATE }`, which keeps its hidden class) and
 * sets values of keys it already has. Adding the ~60 keys one by one to `{}` turned the scores into a
 * dictionary-mode object, slower for every later reader (the record's checks, JSON.stringify, the
 * summary): docs/benchmarks-log.md, "Session 35". JSON.parse builds the template with fast properties.
 */
const SCORES_TEMPLATE: Readonly<Record<string, null>> = JSON.parse(
  JSON.stringify(Object.fromEntries(scoreKeys().map((key) => [key, null]))),
) as Record<string, null>;

/** The two blocks of ranking metrics: over the cited list, and over top_documents (`retrieval_`). */
const CITED_NAMES = rankingNames('');
const RETRIEVAL_NAMES = rankingNames('retrieval_');

/** A question's expected documents as scoring reads them: the ranked list E (trimmed, first occurrence kept) and its set. */
interface ExpectedDocuments {
  readonly ranked: readonly string[];
  readonly set: ReadonlySet<string>;
}

/**
 * Kept per expected_document_ids list, which is the plan's row's (a list is not changed once read):
 * a load run scores each question's answers thousands of times, and the list, its set and the
 * ranking blocks' two sets were made again for each.
 */
const expectedCache = new WeakMap<readonly string[], ExpectedDocuments>();

function expectedDocuments(ids: readonly string[]): ExpectedDocuments {
  let expected = expectedCache.get(ids);
  if (expected === undefined) {
    const ranked = rankedUnique(ids).ranked;
    expected = { ranked, set: new Set(ranked) };
    expectedCache.set(ids, expected);
  }
  return expected;
}

/**
 * rankedUnique(ids).ranked, read-only: `ids` itself when it is that already (every id trimmed,
 * none empty, none twice: the client's cited_document_ids always, a service's top documents almost
 * always), checked in place for a short list; nothing built per answer then.
 */
function rankedIds(ids: readonly string[]): readonly string[] {
  if (ids.length > SMALL_LIST) return rankedUnique(ids).ranked;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id === '' || id.trim() !== id) return rankedUnique(ids).ranked;
    for (let j = 0; j < i; j++) if (ids[j] === id) return rankedUnique(ids).ranked;
  }
  return ids;
}

/**
 * rankCitations(citations).duplicates: the citations of a document already cited, which is the
 * non-empty ids less the distinct ones whatever their order; counted in place for a short list.
 */
function duplicateCitations(citations: ScoredFigures['citations']): number {
  if (citations.length > SMALL_LIST) return rankCitations(citations).duplicates;
  let duplicates = 0;
  for (let i = 0; i < citations.length; i++) {
    const id = citations[i]!.document_id.trim();
    if (id === '') continue;
    for (let j = 0; j < i; j++) {
      if (citations[j]!.document_id.trim() === id) {
        duplicates += 1;
        break;
      }
    }
  }
  return duplicates;
}

/** The judged scores before a judge has answered: N/A. */
const UNJUDGED = { correctness: null, groundedness: null, relevance: null, rubric: null } as const;

/**
 * Scores one answer. R = `cited_document_ids` (the client derives it with citedDocumentIds);
 * duplicates are counted from `citations`; the retrieval metrics run over `top_document_ids`
 * (trimmed, first occurrence kept); answer_f1 and rouge_l against the reference answer. The judged
 * scores are N/A here (the app fills them from the judge's verdicts), and `pass` is the default
 * rule's. A request that is not ok scores nothing: every numeric score null, counts 0, lists
 * empty, no_answer_ok null, pass false.
 */
export function computeScores(figures: ScoredFigures, expectations: Expectations): Scores {
  if (figures.outcome !== 'ok') return unscored(expectsSomething(expectations));
  const expected = expectedDocuments(expectations.expected_document_ids);
  const ranked = rankedIds(figures.cited_document_ids);
  const citation = citationScores(ranked, expected.set);
  const invalid = invalidCitations(ranked, figures.top_document_ids, figures.markers_without_citation);
  const checks = checkAnswer(figures.answer, ranked.length, expectations);
  const tools = toolScores(figures.tools_used ?? [], expectations.expected_tools ?? []);
  const out: Record<string, unknown> = { ...SCORES_TEMPLATE };
  out.citation_precision = citation.citation_precision;
  out.citation_recall = citation.citation_recall;
  out.citation_f1 = citation.citation_f1;
  // Written straight into the scores under key names made once: no object per block to copy from.
  writeRankingScores(out as Record<string, number | null>, CITED_NAMES, ranked, expected.set);
  writeRankingScores(
    out as Record<string, number | null>,
    RETRIEVAL_NAMES,
    rankedIds(figures.top_document_ids),
    expected.set,
  );
  const reference = referenceScores(figures.answer, expectations.reference_answer);
  out.answer_f1 = reference.answer_f1;
  out.rouge_l = reference.rouge_l;
  out.correctness = null;
  out.groundedness = null;
  out.relevance = null;
  out.rubric = null;
  out.tool_assertion = tools.tool_assertion;
  out.tool_precision = tools.tool_precision;
  out.duplicate_citations = duplicateCitations(figures.citations);
  out.invalid_citations = invalid;
  out.missing_phrases = checks.missing_phrases;
  out.forbidden_phrases = checks.forbidden_phrases;
  out.unmatched_patterns = checks.unmatched_patterns;
  out.forbidden_matches = checks.forbidden_matches;
  out.no_answer_ok = checks.no_answer_ok;
  out.pass = passes({
    outcome: figures.outcome,
    invalid_citations: invalid,
    citation_recall: citation.citation_recall,
    expects_documents: expected.ranked.length > 0,
    checks,
    tool_assertion: tools.tool_assertion,
  });
  out.failed_conditions = [];
  out.checked = expectsSomething(expectations);
  return out as Scores;
}

/**
 * docs/reference/metrics.md "Answer quality": `tool_assertion` is 1 when every expected tool was used, else 0
 * (as the service's own evaluation scores it with require_all), N/A without expected tools;
 * `tool_precision` is the share of the used tools that were expected, N/A when none was used or
 * none is expected. Names compare as records/tools.ts says (aliases, case).
 */
export function toolScores(
  used: readonly string[],
  expected: readonly string[],
): Pick<Scores, 'tool_assertion' | 'tool_precision'> {
  if (expected.length === 0) return { tool_assertion: null, tool_precision: null };
  const want = new Set(expected.map(canonicalToolName));
  const got = new Set(used.map(canonicalToolName));
  return {
    tool_assertion: [...want].every((name) => got.has(name)) ? 1 : 0,
    tool_precision: got.size === 0 ? null : [...got].filter((name) => want.has(name)).length / got.size,
  };
}

function unscored(checked: boolean): Scores {
  const none = rankingScores([], []);
  return {
    citation_precision: null,
    citation_recall: null,
    citation_f1: null,
    ...none,
    ...retrievalKeys<RankingScores>(none),
    answer_f1: null,
    rouge_l: null,
    ...UNJUDGED,
    duplicate_citations: 0,
    invalid_citations: 0,
    missing_phrases: [],
    forbidden_phrases: [],
    unmatched_patterns: [],
    forbidden_matches: [],
    tool_assertion: null,
    tool_precision: null,
    no_answer_ok: null,
    pass: false,
    failed_conditions: [],
    checked,
  };
}

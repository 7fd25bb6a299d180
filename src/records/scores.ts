/**
 * @module records/scores
 * The per-request scores written into every record (definitions: docs/reference/metrics.md,
 * docs/figures.md). `null` means N/A: the figure does not exist (nothing expected, nothing cited, request
 * not ok), and is excluded from means.
 */
import { z } from 'zod';

export const CUTOFFS = [1, 3, 5, 10] as const;
export type Cutoff = (typeof CUTOFFS)[number];

const Score = z.number().nullable();
type AtK<P extends string> = `${P}_at_${Cutoff}`;
const atK = <P extends string>(prefix: P) =>
  Object.fromEntries(CUTOFFS.map((k) => [`${prefix}_at_${k}`, Score])) as Record<AtK<P>, typeof Score>;

/** Ranking metrics of one ranked list against the expected set; over the cited list unprefixed, over top_documents with `retrieval_`. */
export const RankingScoresSchema = z.object({
  reciprocal_rank: Score,
  ...atK('hit'),
  ...atK('precision'),
  ...atK('recall'),
  ...atK('ap'),
  ...atK('ndcg'),
});
export type RankingScores = z.infer<typeof RankingScoresSchema>;

const retrieval = <S extends Record<string, unknown>>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([key, value]) => [`retrieval_${key}`, value])) as {
    [K in keyof S as `retrieval_${K & string}`]: S[K];
  };

export const ScoresSchema = z.object({
  citation_precision: Score,
  citation_recall: Score,
  citation_f1: Score,
  ...RankingScoresSchema.shape,
  ...retrieval(RankingScoresSchema.shape),
  /** docs/reference/metrics.md "Answer quality", without a model: token F1 and ROUGE-L against the reference answer; null without one. */
  answer_f1: Score.default(null),
  rouge_l: Score.default(null),
  /** Judged 0–1 (the record's `judge` holds the verdicts and reasons); null when N/A or when the judge failed. */
  correctness: Score.default(null),
  groundedness: Score.default(null),
  relevance: Score.default(null),
  rubric: Score.default(null),
  /** 1 when every expected tool was used, else 0; null without expected tools (docs/reference/metrics.md "Answer quality"). */
  tool_assertion: Score.default(null),
  /** Used tools that were expected / used tools; null when none was used or none expected. */
  tool_precision: Score.default(null),
  /** Cited again after its first citation (kept once in the ranking). */
  duplicate_citations: z.number().int(),
  /** A cited document the answer was not given, plus `[[n]]` markers with no citation_info. */
  invalid_citations: z.number().int(),
  /** must_contain phrases absent from the citation-free answer. */
  missing_phrases: z.array(z.string()),
  /** must_not_contain phrases present in it. */
  forbidden_phrases: z.array(z.string()),
  /** must_match patterns that did not match the citation-free answer. */
  unmatched_patterns: z.array(z.string()).default([]),
  /** must_not_match patterns that matched it. */
  forbidden_matches: z.array(z.string()).default([]),
  /** expect_no_answer questions: true when nothing was cited; null when not expected. */
  no_answer_ok: z.boolean().nullable(),
  /** The per-question pass rule (docs/figures.md, "Answer checks and the pass rule"); false for any request that is not ok. */
  pass: z.boolean(),
  /** Under a `--pass` rule: its conditions that did not hold (the default rule's reasons come from the fields above). */
  failed_conditions: z.array(z.string()).default([]),
  /**
   * Whether `pass` tested anything the question expects (an expected document, a phrase, a pattern,
   * no answer, a tool, or a `--pass` condition that applied). A question that expects nothing passes
   * whatever it is answered: its pass is "not checked" and left out of pass_rate. Absent in records
   * written before it: metrics/pass answerChecked infers it.
   */
  checked: z.boolean().optional(),
});
export type Scores = z.infer<typeof ScoresSchema>;
export type ScoreName = {
  [K in keyof Scores]-?: Scores[K] extends number | null ? K : never;
}[keyof Scores];

/**
 * @module records/quality
 * What a record keeps about the quality of an answer beyond its citations (docs/reference/metrics.md "Answer
 * quality"): the text of the documents the answer was given (bounded: what a judge or a check
 * reads), the judge's verdicts with their reasons, the results of the user's own checks, and a
 * human's verdict when the dataset gives one. Each a schema, the types inferred.
 */
import { z } from 'zod';
import { RECORD_BOUNDS as B } from './bounds.js';
import { JUDGE_FIGURES } from './judge-figures.js';

export { JUDGE_FIGURES, type JudgeFigure } from './judge-figures.js';

const Id = z.string().max(B.idChars);
const Message = z.string().max(B.messageChars);

export const JudgeFigureSchema = z.enum(JUDGE_FIGURES);

/**
 * A judged score at or above this is a "pass" verdict: what agreement with human verdicts and the
 * judge's flip rate compare. rubric is 0 or 1 already.
 */
export const JUDGE_PASS_THRESHOLD = 0.5;

/**
 * A human's verdict on an answer from the dataset's `human_verdict` column or a labels file (pass or
 * fail; the viewer's reviews, records/review, say good or bad, and a good one counts as a pass).
 */
export const LabelVerdictSchema = z.enum(['pass', 'fail']);
export type LabelVerdict = z.infer<typeof LabelVerdictSchema>;

/** How many documents a record keeps, and how much of each: enough for a judge, bounded for the file. */
export const DOCUMENT_LIMITS = { documents: 10, blurb_chars: 600, highlights: 3, highlight_chars: 300 } as const;

/** One document the answer was given, as a judge reads it: the service's blurb and match highlights. */
export const DocumentTextSchema = z.object({
  document_id: Id,
  title: Message.nullable(),
  link: Message.nullable(),
  blurb: Message,
  highlights: z.array(Message).max(B.listItems),
});
export type DocumentText = z.infer<typeof DocumentTextSchema>;

/** What the service sends of a document (SearchDoc), the fields read here. */
export interface DocumentLike {
  document_id: string;
  semantic_identifier?: string | null | undefined;
  link?: string | null | undefined;
  blurb?: string | null | undefined;
  match_highlights?: readonly string[] | null | undefined;
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** The service marks highlighted words with tags (`<hi>word</hi>`); a reader wants the words. */
const untag = (text: string): string => text.replace(/<\/?hi>/g, '');

/**
 * The record's `top_documents`: each document once (first occurrence), every cited one kept, the
 * rest in rank order up to DOCUMENT_LIMITS.documents in all; blurbs and highlights cut to their
 * limits, highlight tags removed. Order stays the service's.
 */
export function boundDocuments(documents: readonly DocumentLike[], citedIds: readonly string[]): DocumentText[] {
  const cited = new Set(citedIds);
  const seen = new Set<string>();
  const unique = documents.filter((d) => !seen.has(d.document_id) && seen.add(d.document_id));
  const room = Math.max(0, DOCUMENT_LIMITS.documents - unique.filter((d) => cited.has(d.document_id)).length);
  let others = 0;
  const kept = unique.filter((d) => cited.has(d.document_id) || others++ < room);
  return kept.map((d) => ({
    document_id: d.document_id,
    title: d.semantic_identifier ?? null,
    link: d.link ?? null,
    blurb: cut(d.blurb ?? '', DOCUMENT_LIMITS.blurb_chars),
    highlights: (d.match_highlights ?? [])
      .slice(0, DOCUMENT_LIMITS.highlights)
      .map((h) => cut(untag(h), DOCUMENT_LIMITS.highlight_chars)),
  }));
}

/**
 * One judged figure of one answer.
 * - `ok`: `score` is the mean of the asks that answered (0–1), `reason` the first answer's reason;
 * - `judge_error`: every ask failed (`error` says how); the figure is N/A in means, the request is
 *   not failed for it;
 * - `not_applicable`: the input the figure needs is missing (`reason` says which); nothing was asked.
 */
export const JudgeVerdictSchema = z.object({
  status: z.enum(['ok', 'judge_error', 'not_applicable']),
  score: z.number().min(0).max(1).nullable(),
  reason: Message.nullable(),
  error: Message.nullable(),
  /** Each ask's score in ask order (--judge-repeat), null for an ask that failed. */
  asks: z.array(z.number().min(0).max(1).nullable()).max(B.listItems),
  /** Asks answered from the on-disk cache (no call made). */
  cached: z.number().int(),
});
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

/** The judge's work on one answer. */
export const JudgementSchema = z.object({
  /** The judge model as asked (`--judge-model`). */
  model: Id,
  /** The version of the prompt files (src/judge/prompts). */
  prompt_version: Id,
  verdicts: z.partialRecord(JudgeFigureSchema, JudgeVerdictSchema),
});
export type Judgement = z.infer<typeof JudgementSchema>;

/**
 * One user check (`--checks FILE.mjs`) on one answer: `score` 0–1 or any finite number the check
 * returned (null: the check did not apply, or it failed: then `error` says why).
 */
export const CheckResultSchema = z.object({
  score: z.number().nullable(),
  reason: Message.nullable(),
  error: Message.nullable(),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

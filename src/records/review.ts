/**
 * @module records/review
 * reviews.jsonl: a person's verdict on an answer, appended by `chatbench view` to the run
 * directory, one JSON object a line. Read back as the figure `human_pass_rate` (compare, reports,
 * gates) and as `human_verdict` labels, the humans' side of a judge-agreement table. Pure: the app
 * reads the file; this parses its text and folds the reviews into one verdict per answer.
 */
import { z } from 'zod';
import { answerKey } from './answer-key.js';
import type { LabelVerdict } from './quality.js';
import { ModeSchema } from './record.js';
import { parseJsonlLine } from '../util/jsonl-line.js';

export const REVIEW_VERSION = 1;
export const REVIEWS_FILE = 'reviews.jsonl';

/**
 * A person's verdict on an answer: pass or fail, the words of labels.jsonl and the dataset's
 * `human_verdict` (docs/glossary.md). Reviews written before that say good/bad: read as pass/fail.
 */
export const VerdictSchema = z
  .enum(['pass', 'fail', 'good', 'bad'])
  .transform((verdict): LabelVerdict => (verdict === 'good' ? 'pass' : verdict === 'bad' ? 'fail' : verdict));
export type Verdict = z.output<typeof VerdictSchema>;

export const ReviewSchema = z.object({
  review_version: z.literal(REVIEW_VERSION),
  /** The record's key (`question_id|set|mode|repeat`): what the review is matched on. */
  key: z.string().min(1),
  /** Which model's answer of a multi-model record; null for a single model's answer. */
  model_index: z.number().int().nonnegative().nullable(),
  /** Copied from the record so a label file can be read without the run. */
  question_id: z.string(),
  set: z.string(),
  mode: ModeSchema,
  repeat: z.number().int().nonnegative(),
  verdict: VerdictSchema,
  note: z.string().max(4000),
  reviewer: z.string().min(1).max(200),
  /** When it was saved, ISO 8601. */
  at: z.string(),
});
export type Review = z.infer<typeof ReviewSchema>;

export { answerKey };

/** The `human_verdict` label of one answer: the last review of it in the file (a later one replaces an earlier one). */
export interface HumanVerdict {
  readonly human_verdict: Verdict;
  /** verdict === 'pass': what a judge's pass is compared with. */
  readonly pass: boolean;
  readonly review: Review;
  /** Every review of the answer, oldest first (the last decides). */
  readonly history: readonly Review[];
}

/** Answer key → its label. */
export type HumanVerdicts = ReadonlyMap<string, HumanVerdict>;

export const NO_VERDICTS: HumanVerdicts = new Map();

/**
 * Parses reviews.jsonl text. Blank lines are skipped; a last line without its newline that is not
 * JSON is a torn append (a crash mid-write) and skipped; every other bad line is a problem
 * `file:line: field: message`, all listed. Reviews come back in file order.
 */
export function parseReviews(text: string, file: string): { reviews: Review[]; problems: string[]; torn: number } {
  const parser = createReviewsParser(file);
  const lines = text.split('\n');
  const terminated = text === '' || text.endsWith('\n');
  lines.forEach((raw, index) => {
    parser.line(raw.endsWith('\r') ? raw.slice(0, -1) : raw, index + 1, index < lines.length - 1 || terminated);
  });
  return parser.result();
}

/**
 * parseReviews line by line, for a reader that streams the file: `line` takes each line (without
 * its newline), its 1-based number, and whether a newline followed it; `result` gives what
 * parseReviews would.
 */
export function createReviewsParser(file: string) {
  const reviews: Review[] = [];
  const problems: string[] = [];
  let torn = 0;
  return {
    line(line: string, number: number, terminated: boolean): void {
      const parsed = parseJsonlLine(ReviewSchema, 'review', file, line, number, terminated);
      if (parsed.kind === 'torn') torn += 1;
      else if (parsed.kind === 'value') reviews.push(parsed.value);
      else if (parsed.kind === 'problems') problems.push(...parsed.problems);
    },
    result: (): { reviews: Review[]; problems: string[]; torn: number } => ({ reviews, problems, torn }),
  };
}

/** One verdict per answer: the last review of it wins; its history is kept in order. */
export function humanVerdicts(reviews: readonly Review[]): Map<string, HumanVerdict> {
  const history = new Map<string, Review[]>();
  for (const review of reviews) {
    const id = answerKey(review.key, review.model_index);
    const list = history.get(id);
    if (list) list.push(review);
    else history.set(id, [review]);
  }
  return new Map(
    [...history].map(([id, list]) => {
      const review = list[list.length - 1]!;
      return [id, { human_verdict: review.verdict, pass: review.verdict === 'pass', review, history: list }];
    }),
  );
}

/**
 * The verdict that counts for a record as a whole: its own review; for a multi-model record with
 * none, pass when every model's answer was reviewed pass, fail when any was reviewed fail and all
 * were reviewed; undefined while any model's answer is unreviewed.
 */
export function recordVerdict(
  verdicts: HumanVerdicts,
  key: string,
  modelIndexes: readonly number[],
): boolean | undefined {
  const own = verdicts.get(key);
  if (own !== undefined || modelIndexes.length === 0) return own?.pass;
  const models = modelIndexes.map((i) => verdicts.get(answerKey(key, i)));
  if (models.some((m) => m === undefined)) return undefined;
  return models.every((m) => m!.pass);
}

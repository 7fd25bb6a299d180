/**
 * @module app/reviews
 * A run directory's reviews.jsonl (records/review): read back for compare, the reports and the
 * gates, appended to by `chatbench view`. The file sits beside results.jsonl; a run without one
 * has no review (human_pass_rate N/A), never an error.
 */
import { appendFile, readFile, stat, truncate } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { humanVerdicts, parseReviews, REVIEWS_FILE, ReviewSchema, type HumanVerdicts, type Review } from '../records/review.js';

export interface RunReviews {
  /** reviews.jsonl as messages name it. */
  readonly file: string;
  readonly reviews: readonly Review[];
  /** Answer key → its verdict (the last review of it). */
  readonly verdicts: HumanVerdicts;
}

/** The reviews.jsonl of a run directory, or the one beside a results.jsonl named directly. */
export async function reviewsFileOf(pathOrDir: string, cwd?: string): Promise<{ file: string; full: string }> {
  const full = isAbsolute(pathOrDir) || cwd === undefined ? pathOrDir : resolve(cwd, pathOrDir);
  const info = await stat(full).catch(() => undefined);
  const isFile = info !== undefined && !info.isDirectory() && basename(full) !== REVIEWS_FILE;
  return isFile ? { file: join(dirname(pathOrDir), REVIEWS_FILE), full: join(dirname(full), REVIEWS_FILE) } : { file: join(pathOrDir, REVIEWS_FILE), full: join(full, REVIEWS_FILE) };
}

/**
 * Reads a run's reviews. No file → no review. A torn last line (a crash mid-append) is skipped;
 * any other bad line is an InputError listing every one as `file:line: field: message`.
 */
export async function readReviews(pathOrDir: string, options: { cwd?: string } = {}): Promise<RunReviews> {
  const { file, full } = await reviewsFileOf(pathOrDir, options.cwd);
  let text: string;
  try {
    text = await readFile(full, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, reviews: [], verdicts: new Map() };
    throw new InputError([`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`], { cause: error });
  }
  const { reviews, problems } = parseReviews(text, file);
  if (problems.length > 0) throw new InputError(problems, { hint: 'reviews.jsonl holds one review a line, as chatbench view appends them' });
  return { file, reviews, verdicts: humanVerdicts(reviews) };
}

/**
 * Appends one review (validated first) to the run directory's reviews.jsonl as one line, written
 * in a single append so a concurrent reader sees whole lines. A torn last line left by a crash
 * (no newline: never a whole review) is cut first, so it cannot swallow the new review.
 */
export async function appendReview(runDir: string, review: Review): Promise<void> {
  const valid = ReviewSchema.parse(review);
  const full = join(runDir, REVIEWS_FILE);
  const size = (await stat(full).catch(() => undefined))?.size ?? 0;
  if (size > 0) {
    const bytes = await readFile(full);
    if (bytes[bytes.length - 1] !== 0x0a) await truncate(full, bytes.lastIndexOf(0x0a) + 1);
  }
  await appendFile(full, `${JSON.stringify(valid)}\n`);
}

/**
 * @module app/store/reviews
 * A run directory's reviews.jsonl (records/review): read back for compare, the reports and the
 * gates, appended to by `chatbench view`. The file sits beside results.jsonl; a run without one
 * has no review (human_pass_rate N/A), never an error.
 */
import { appendFile, open, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { cutTornTail } from './resume.js';
import { readFileLines } from '../../util/file-lines.js';
import {
  createReviewsParser,
  humanVerdicts,
  REVIEWS_FILE,
  ReviewSchema,
  type HumanVerdicts,
  type Review,
} from '../../records/review.js';

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
  return isFile
    ? { file: join(dirname(pathOrDir), REVIEWS_FILE), full: join(dirname(full), REVIEWS_FILE) }
    : { file: join(pathOrDir, REVIEWS_FILE), full: join(full, REVIEWS_FILE) };
}

/**
 * Reads a run's reviews. No file → no review. A torn last line (a crash mid-append) is skipped;
 * any other bad line is an InputError listing every one as `file:line: field: message`.
 */
export async function readReviews(pathOrDir: string, options: { cwd?: string } = {}): Promise<RunReviews> {
  const { file, full } = await reviewsFileOf(pathOrDir, options.cwd);
  const parser = createReviewsParser(file);
  try {
    for await (const line of readFileLines(full, { name: file })) parser.line(line.text, line.number, line.terminated);
  } catch (error) {
    if (error instanceof InputError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, reviews: [], verdicts: new Map() };
    throw new InputError([`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`], {
      cause: error,
    });
  }
  const { reviews, problems } = parser.result();
  if (problems.length > 0)
    throw new InputError(problems, { hint: 'reviews.jsonl holds one review a line, as chatbench view appends them' });
  return { file, reviews, verdicts: humanVerdicts(reviews) };
}

/** The appends of this process to each reviews.jsonl, chained: one runs at a time (see appendReview). */
const appending = new Map<string, Promise<void>>();

/**
 * Appends one review (validated first) to the run directory's reviews.jsonl as one line, written
 * in a single append so a concurrent reader sees whole lines. A torn last line left by a crash
 * (no newline: never a whole review) is cut first, so it cannot swallow the new review. Appends to
 * one file are serialised in this process: the viewer takes reviews posted at once, and a cut
 * racing another append would take a whole review with it (60 posted at once left 54 lines).
 */
export function appendReview(runDir: string, review: Review): Promise<void> {
  const valid = ReviewSchema.parse(review);
  return appendJsonLine(join(runDir, REVIEWS_FILE), valid);
}

/**
 * Appends `value` as one JSON line to the file `full`, as appendReview does (torn tail cut, appends
 * to one file serialised in this process): reviews.jsonl and the viewer's expectations.jsonl.
 */
export function appendJsonLine(full: string, value: unknown): Promise<void> {
  const previous = appending.get(full) ?? Promise.resolve();
  const next = previous.then(() => appendLine(full, `${JSON.stringify(value)}\n`));
  const settled = next.catch(() => undefined);
  appending.set(full, settled);
  void settled.then(() => {
    if (appending.get(full) === settled) appending.delete(full);
  });
  return next;
}

/**
 * Resolves once this process has no append to the run directory's reviews.jsonl pending (those
 * queued while it waits included): a reader that starts then sees every review accepted so far.
 */
export async function reviewAppendsSettled(runDir: string): Promise<void> {
  const full = join(runDir, REVIEWS_FILE);
  for (let pending = appending.get(full); pending !== undefined; pending = appending.get(full)) await pending;
}

/** Cuts a torn tail (reading back only to the last newline), then appends `line` in one write. */
async function appendLine(full: string, line: string): Promise<void> {
  const size = (await stat(full).catch(() => undefined))?.size ?? 0;
  if (size > 0) {
    const handle = await open(full, 'r');
    try {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await cutTornTail(full);
    } finally {
      await handle.close();
    }
  }
  await appendFile(full, line);
}

/**
 * @module dataset/expectation-decisions
 * A person's accept / reject of the candidate documents `chatbench draft-expectations` found, as
 * the viewer saves them (RUN/expectations.jsonl, one decision a line, the last of a candidate
 * wins), and the completed dataset they make: each question without expectations gets its accepted
 * candidates as `expected_documents`. Pure: lines in, decisions out; rows, candidates and decisions
 * in, the CSV text out.
 */
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { parseJsonlLine } from '../util/jsonl-line.js';
import type { DraftQuestion, DraftRow } from './draft-expectations.js';

/** The default name of the draft, in the run directory. */
export const DRAFT_FILE = 'expectations-draft.csv';

/** `x.csv` → `x.candidates.json`. */
export const candidatesFileOf = (csv: string): string => `${csv.replace(/\.csv$/i, '')}.candidates.json`;

/** The viewer's decisions, in the run directory. */
export const DECISIONS_FILE = 'expectations.jsonl';
export const DECISION_VERSION = 1;

/** Longest id taken (a document id or a question id): a decision's line stays a few KB. */
const MAX_ID = 2000;

export const DecisionKindSchema = z.enum(['accept', 'reject']);
export type DecisionKind = z.output<typeof DecisionKindSchema>;

/** One line of expectations.jsonl. */
export const DecisionSchema = z.strictObject({
  decision_version: z.literal(DECISION_VERSION),
  question_id: z.string().min(1).max(MAX_ID),
  document_id: z.string().min(1).max(MAX_ID),
  decision: DecisionKindSchema,
  reviewer: z.string().min(1).max(200),
  at: z.string().max(40),
});
export type Decision = z.output<typeof DecisionSchema>;

const CandidateSchema = z.object({
  document_id: z.string().min(1),
  title: z.string().nullable(),
  link: z.string().nullable(),
  sets_cited: z.number().int().nonnegative(),
  cited: z.number().int().nonnegative(),
  top: z.number().int().nonnegative(),
  best_rank: z.number().int().positive().nullable(),
});

/** One question of the `.candidates.json` that dataset/draft-expectations writes (checked against its type). */
export const DraftQuestionSchema: z.ZodType<DraftQuestion> = z.object({
  id: z.string().min(1),
  question: z.string(),
  expected: z.array(z.string()),
  proposed: z.array(z.string()),
  answers: z.number().int().nonnegative(),
  candidates: z.array(CandidateSchema),
});

export const CandidatesFileSchema = z.object({ questions: z.array(DraftQuestionSchema) });

/** Question id → document id → its last decision. */
export type Decisions = ReadonlyMap<string, ReadonlyMap<string, DecisionKind>>;

/**
 * Parses expectations.jsonl line by line (as reviews.jsonl is read): blank lines skipped; a last
 * line without its newline that is not JSON is a torn append, skipped; every other bad line is a
 * problem `file:line: field: message`. The last decision of a candidate wins.
 */
export function createDecisionsParser(file: string) {
  const decisions = new Map<string, Map<string, DecisionKind>>();
  const problems: string[] = [];
  let count = 0;
  return {
    line(line: string, number: number, terminated: boolean): void {
      const parsed = parseJsonlLine(DecisionSchema, 'decision', file, line, number, terminated);
      if (parsed.kind === 'problems') problems.push(...parsed.problems);
      if (parsed.kind !== 'value') return;
      count += 1;
      const { question_id, document_id, decision } = parsed.value;
      const ofQuestion = decisions.get(question_id) ?? new Map<string, DecisionKind>();
      ofQuestion.set(document_id, decision);
      decisions.set(question_id, ofQuestion);
    },
    result: (): { decisions: Decisions; count: number; problems: string[] } => ({ decisions, count, problems }),
  };
}

export interface Completed {
  readonly csv: string;
  /** Questions whose expected_documents are now their accepted candidates (at least one). */
  readonly accepted: number;
  /** Questions that had expectations, kept. */
  readonly kept: number;
  /** Questions without expectations and no accepted candidate: left empty (not checked). */
  readonly empty: number;
}

const EXPECTED = 'expected_documents';

/**
 * The completed dataset: `rows` (the draft's, in file order, under `columns`) with each question
 * that had no expectations given its accepted candidates (in the candidates' order) as
 * `expected_documents`, none when it has none (a proposal nobody accepted is not kept). A question
 * that had expectations, or that the candidates do not list, keeps its cells as they are.
 */
export function completeExpectations(
  columns: readonly string[],
  rows: readonly DraftRow[],
  questions: readonly DraftQuestion[],
  decisions: Decisions,
): Completed {
  const at = columns.indexOf(EXPECTED);
  const header = at === -1 ? [...columns, EXPECTED] : [...columns];
  const column = at === -1 ? columns.length : at;
  const byId = new Map(questions.map((q) => [q.id, q]));
  let accepted = 0;
  let kept = 0;
  let empty = 0;
  const records = rows.map((row) => {
    const cells = header.map((_, index) => row.cells[index] ?? '');
    const question = byId.get(row.id);
    if (question === undefined) return cells;
    if (question.expected.length > 0) {
      kept += 1;
      return cells;
    }
    const ofQuestion = decisions.get(row.id);
    const ids = question.candidates
      .filter((c) => ofQuestion?.get(c.document_id) === 'accept')
      .map((c) => c.document_id);
    if (ids.length > 0) accepted += 1;
    else empty += 1;
    cells[column] = ids.join('|');
    return cells;
  });
  return { csv: stringify([header, ...records]), accepted, kept, empty };
}

/**
 * @module dataset/draft-expectations
 * A dataset draft from a first run: the dataset as it is (its columns, its rows, its cells), with
 * `expected_documents` proposed for each question that has none, and beside it the candidates of
 * every question (title, link, how many sets cited each). Pure: the rows and the candidates in,
 * the CSV text and the candidates' JSON out. A question that already has expectations keeps them.
 */
import { stringify } from 'csv-stringify/sync';
import { proposedIds, type Candidate, type QuestionCandidates } from './expectation-candidates.js';

/** One dataset row as its file has it. */
export interface DraftRow {
  readonly id: string;
  readonly question: string;
  /** Its expected_documents as parsed (empty: none). */
  readonly expected: readonly string[];
  readonly cells: readonly string[];
}

export interface DraftOptions {
  /** Candidates proposed per question, at most. */
  readonly top: number;
  /** Sets that must have cited a candidate for it to be proposed. */
  readonly minSets: number;
}

/** One question of the candidates file. */
export interface DraftQuestion {
  readonly id: string;
  readonly question: string;
  /** The dataset's expected documents (kept as they are). */
  readonly expected: readonly string[];
  /** What the draft's expected_documents proposes (empty when the question had expectations, or nothing qualified). */
  readonly proposed: readonly string[];
  /** Answers of the run read for this question (0: the run did not ask it). */
  readonly answers: number;
  readonly candidates: readonly Candidate[];
}

export interface Draft {
  /** The dataset's CSV with expected_documents proposed. */
  readonly csv: string;
  readonly questions: readonly DraftQuestion[];
}

const EXPECTED = 'expected_documents';

/** The draft of `rows` (in file order) under `columns`, with the run's `candidates` by question id. */
export function draftExpectations(
  columns: readonly string[],
  rows: readonly DraftRow[],
  candidates: ReadonlyMap<string, QuestionCandidates>,
  options: DraftOptions,
): Draft {
  const at = columns.indexOf(EXPECTED);
  const header = at === -1 ? [...columns, EXPECTED] : [...columns];
  const column = at === -1 ? columns.length : at;
  const questions: DraftQuestion[] = [];
  const records = rows.map((row) => {
    const found = candidates.get(row.id);
    const proposed = row.expected.length > 0 || found === undefined ? [] : proposedIds(found.candidates, options);
    questions.push({
      id: row.id,
      question: row.question,
      expected: row.expected,
      proposed,
      answers: found?.answers ?? 0,
      candidates: found?.candidates ?? [],
    });
    const cells = header.map((_, index) => row.cells[index] ?? '');
    if (proposed.length > 0) cells[column] = proposed.join('|');
    return cells;
  });
  return { csv: stringify([header, ...records]), questions };
}

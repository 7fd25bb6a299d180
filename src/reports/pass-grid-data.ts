/**
 * @module reports/pass-grid-data
 * What report.html's pass/fail grid draws, gathered while the records stream past: per question
 * and column, how many tries, how many passed, whether any came back ok and the first few distinct
 * reasons, for the first MAX_GRID_QUESTIONS questions in natural id order only (a question past
 * them is dropped as soon as enough smaller ids are known: it can never come back in). The grid's
 * memory is bounded by that, whatever the run's size; only the set of question ids (for "N more
 * questions are not shown") grows with the dataset, never with the repeats.
 */
import { naturalCompare } from './format.js';
import { columnKey } from './distributions.js';
import type { ReportRow } from './report-row.js';
import { createValueTable, type ValueTable } from '../util/value-table.js';
import { bytesHolding } from '../util/bytes-holding.js';

/** Past this many questions the grid shows the first ones (natural id order) and says how many were left out. */
export const MAX_GRID_QUESTIONS = 400;

/** Reasons a cell's title lists at most. */
export const CELL_REASONS = 5;

/** One question in one column, over its repeats. */
export interface GridCell {
  tries: number;
  passed: number;
  /** Whether any try came back ok. */
  anyOk: boolean;
  /** The first CELL_REASONS distinct reasons, in the order the tries came. */
  reasons: string[];
}

export interface PassGridData {
  /** Every question id of the run (request-level rows). */
  readonly questionCount: number;
  /** The shown questions, natural id order, each with its text and its cells by column key. */
  readonly questions: ReadonlyArray<{ readonly id: string; readonly text: string; readonly cells: ReadonlyMap<string, GridCell> }>;
}

export interface PassGridBuilder {
  add(row: ReportRow): void;
  finish(): PassGridData;
}

/**
 * `ids`: the run's question ids, shared with junit.xml's cases (reports/junit-cases) and the
 * summarizer (metrics/question-index): a question then costs one entry in them, not one there and
 * one here. Which questions the grid has seen is its own byte a question, by the id's integer
 * (another user of the table may have added the id first).
 */
export function createPassGridBuilder(
  max = MAX_GRID_QUESTIONS,
  ids: ValueTable<string> = createValueTable((id) => id),
): PassGridBuilder {
  /** Kept question ids, ascending in natural order (at most `max`). */
  const kept: string[] = [];
  const state = new Map<string, { text: string; cells: Map<string, GridCell> }>();
  let seen = new Uint8Array(1024);
  const insertAt = (id: string): number => {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (naturalCompare(kept[mid]!, id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const firstSeen = (question: number): boolean => {
    seen = bytesHolding(seen, question);
    if (seen[question] === 1) return false;
    seen[question] = 1;
    return true;
  };
  return {
    add(row) {
      const id = row.question_id;
      // A question's first request-level row.
      if (row.model_index === null && firstSeen(ids.id(id))) {
        const at = insertAt(id);
        if (at < max) {
          kept.splice(at, 0, id);
          state.set(id, { text: row.question, cells: new Map() });
          if (kept.length > max) state.delete(kept.pop()!);
        }
      }
      const question = state.get(id);
      if (question === undefined) return;
      question.text = row.question;
      const key = columnKey(row);
      let cell = question.cells.get(key);
      if (cell === undefined) question.cells.set(key, (cell = { tries: 0, passed: 0, anyOk: false, reasons: [] }));
      cell.tries += 1;
      if (row.pass) cell.passed += 1;
      if (row.outcome === 'ok') cell.anyOk = true;
      for (const reason of row.reasons) {
        if (cell.reasons.length >= CELL_REASONS) break;
        if (!cell.reasons.includes(reason)) cell.reasons.push(reason);
      }
    },
    finish: () => ({ questionCount: ids.size, questions: kept.map((id) => ({ id, ...state.get(id)! })) }),
  };
}

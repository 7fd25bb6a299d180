/**
 * @module metrics/question-index
 * The pass's question ids, each interned once: an id → a small integer (in first-seen order), and
 * back. The summary's questions, its groups' and categories' rows and the repeats keep a question's
 * state at that integer (metrics/question-rows), not each in a map keyed by its id: a map entry costs
 * ~35 bytes, and a run of distinct questions held one a question in every such map (docs/benchmarks-log.md
 * "Session 40: distinct questions"). The reports' question ids are this same table.
 */
import { createValueTable, type ValueTable } from '../util/value-table.js';

export type QuestionIndex = ValueTable<string>;

export function createQuestionIndex(): QuestionIndex {
  return createValueTable((questionId: string) => questionId);
}

/**
 * @module dataset/summary
 * What `chatbench validate` tells of a dataset, folded row by row as the dataset is read
 * (dataset/read-csv scanDataset), so that a dataset of a million rows is summarised in the memory
 * of its counts, not of its rows. Pure.
 */
import type { DatasetRow } from './schema.js';

/** The counts validate prints and its --json carries. */
export interface DatasetSummary {
  /** Rows, i.e. questions (turns of conversations included). */
  questions: number;
  /** Rows per category, in order of first appearance; rows without one under "(none)". */
  readonly categories: Map<string, number>;
  withExpectedDocuments: number;
  withPhraseChecks: number;
  expectingNoAnswer: number;
  withFilters: number;
  /** Rows that set deep_research (true or false), and those asking for it. */
  settingDeepResearch: number;
  askingDeepResearch: number;
  /** Turns per conversation id. */
  readonly conversations: Map<string, number>;
  withExpectedTools: number;
  forcingTool: number;
}

export function emptySummary(): DatasetSummary {
  return {
    questions: 0,
    categories: new Map(),
    withExpectedDocuments: 0,
    withPhraseChecks: 0,
    expectingNoAnswer: 0,
    withFilters: 0,
    settingDeepResearch: 0,
    askingDeepResearch: 0,
    conversations: new Map(),
    withExpectedTools: 0,
    forcingTool: 0,
  };
}

/** Counts one row into `summary`. */
export function addRow(summary: DatasetSummary, row: DatasetRow): void {
  const e = row.expectations;
  const count = (yes: boolean) => (yes ? 1 : 0);
  summary.questions += 1;
  const category = row.category ?? '(none)';
  summary.categories.set(category, (summary.categories.get(category) ?? 0) + 1);
  summary.withExpectedDocuments += count(e.expected_document_ids.length > 0);
  summary.withPhraseChecks += count(e.must_contain.length + e.must_not_contain.length > 0);
  summary.expectingNoAnswer += count(e.expect_no_answer);
  summary.withFilters += count(row.filters !== null);
  summary.settingDeepResearch += count(row.deep_research !== null);
  summary.askingDeepResearch += count(row.deep_research === true);
  if (row.conversation !== null)
    summary.conversations.set(row.conversation, (summary.conversations.get(row.conversation) ?? 0) + 1);
  summary.withExpectedTools += count(e.expected_tools.length > 0);
  summary.forcingTool += count(row.forced_tool !== null);
}

/**
 * @module init/columns
 * What every dataset column means, one line each: `chatbench init` writes them beside the dataset
 * template (a CSV has no comments). Typed by the reader's own column list (dataset/schema), so a
 * new column cannot ship unexplained.
 */
import type { KnownColumn } from '../dataset/index.js';

export const COLUMN_HELP: Readonly<Record<KnownColumn, string>> = {
  id: "optional, unique: the question's name in every report (default: the row number)",
  question: 'required: the message sent to the service',
  expected_documents:
    'document ids the answer should cite, separated by `|` (or a JSON array); citation recall and precision are scored against them; empty: not checked',
  must_contain: 'phrases the answer must hold, separated by `|` (case-insensitive)',
  must_not_contain: 'phrases the answer must not hold, separated by `|`',
  expect_no_answer:
    '`true` when the right answer is "I don\'t know" (nothing in the documents answers it); default false',
  category: 'any label: the reports break figures down by it',
  persona_id: "the service's persona (assistant) to ask, an integer; empty: the sets' default",
  project_id: 'the project the chat session belongs to, an integer',
  additional_context: 'text sent with the question as additional context',
  source_type: 'search filter: sources separated by `|` (e.g. `confluence|google_drive`)',
  document_set: 'search filter: document set names separated by `|`',
  tags: 'search filter: `key=value|key=value`',
  time_cutoff: 'search filter: only documents updated after this ISO date-time',
  deep_research: "`true`/`false`: ask with deep research; empty: the set's choice",
  reference_answer: "the right answer in prose: answer F1, ROUGE-L and the judge's correctness compare with it",
  rubric: 'a criterion the judge checks (e.g. "mentions the approval step")',
  human_verdict: "`pass`/`fail` from a person: the judge's agreement with people is measured against it",
  must_match: 'regular expressions the answer must match, separated by `|`',
  must_not_match: 'regular expressions the answer must not match, separated by `|`',
  conversation: 'rows with the same value are the turns of one conversation, asked in one chat session',
  turn: 'the turn number within its conversation: 1, 2, 3…',
  expected_tools: 'tool names the answer must use, separated by `|` (e.g. `internal_search`)',
  forced_tool: 'a tool id, or a name, the service must use for this message',
};

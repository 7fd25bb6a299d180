/**
 * @module checks/context
 * The `ctx` a user check is called with: the dataset row (with its conversation and turn), the
 * answer (with and without its citation markers), the cited and top documents, the tools used, the
 * timings and the outcome. Plain JSON, so it
 * crosses into the checks' worker thread unchanged; built the same way for every answer (a whole
 * request, or one model of a multi-model request).
 */
import { stripCitations } from '../records/citations.js';
import type { ExpectationsInput as Expectations } from '../records/expectations.js';
import type { AnswerFigures, RequestRecord } from '../records/record.js';

/** The fields of a record the context reads (the runner's unscored record has them all). */
export type CheckedRecord = Pick<
  RequestRecord,
  | 'question_id'
  | 'question'
  | 'category'
  | 'metadata'
  | 'set'
  | 'mode'
  | 'repeat'
  | 'expected_document_ids'
  | 'http_status'
  | 'headers_ms'
> &
  Partial<Pick<RequestRecord, 'conversation' | 'turn'>>;
export type CheckedAnswer = Pick<
  AnswerFigures,
  | 'outcome'
  | 'error_code'
  | 'answer'
  | 'citations'
  | 'cited_document_ids'
  | 'top_documents'
  | 'ttfp_ms'
  | 'ttft_ms'
  | 'first_citation_ms'
  | 'total_ms'
  | 'time_per_delta_ms'
  | 'scores'
> &
  Partial<Pick<AnswerFigures, 'tools_used'>>;

export interface CheckContext {
  /** The dataset row: its known columns and every other column (`metadata`). */
  row: {
    id: string;
    question: string;
    category: string | null;
    expected_documents: string[];
    must_contain: string[];
    must_not_contain: string[];
    expect_no_answer: boolean;
    reference_answer: string | null;
    rubric: string | null;
    expected_tools: string[];
    /** The conversation this row is a turn of, and its turn number; null for a question on its own. */
    conversation: string | null;
    turn: number | null;
    metadata: Record<string, string>;
  };
  set: string;
  mode: string;
  repeat: number;
  /** Multi-model sets: which model gave this answer; null for a single model. */
  model: { index: number; name: string | null } | null;
  outcome: string;
  error_code: string | null;
  http_status: number | null;
  /** The answer as received (markers included), and without its citation markers; null when there was none. */
  answer: string | null;
  answer_text: string | null;
  citations: Array<{ citation_number: number; document_id: string }>;
  cited_documents: AnswerFigures['top_documents'];
  top_documents: AnswerFigures['top_documents'];
  /** `tpot_ms` is the old name of `time_per_delta_ms` (the same value), kept so a check written before the rename still reads it. */
  timings: {
    headers_ms: number | null;
    ttfp_ms: number | null;
    ttft_ms: number | null;
    first_citation_ms: number | null;
    total_ms: number | null;
    time_per_delta_ms: number | null;
    tpot_ms: number | null;
  };
  /** The scores computed before the checks (citations, phrases, answer_f1, rouge_l); null when the request was not ok. */
  scores: AnswerFigures['scores'];
  /** The tools the answer used (names, in order of first use). */
  tools_used: string[];
}

export function checkContext(
  record: CheckedRecord,
  answer: CheckedAnswer,
  expectations: Expectations,
  model: { index: number; name: string | null } | null,
): CheckContext {
  const cited = new Set(answer.cited_document_ids);
  return {
    row: {
      id: record.question_id,
      question: record.question,
      category: record.category,
      expected_documents: [...record.expected_document_ids],
      must_contain: [...expectations.must_contain],
      must_not_contain: [...expectations.must_not_contain],
      expect_no_answer: expectations.expect_no_answer,
      reference_answer: expectations.reference_answer ?? null,
      rubric: expectations.rubric ?? null,
      expected_tools: [...(expectations.expected_tools ?? [])],
      conversation: record.conversation ?? null,
      turn: record.turn ?? null,
      metadata: { ...record.metadata },
    },
    set: record.set,
    mode: record.mode,
    repeat: record.repeat,
    model,
    outcome: answer.outcome,
    error_code: answer.error_code,
    http_status: record.http_status,
    answer: answer.answer,
    answer_text: answer.answer === null ? null : stripCitations(answer.answer),
    citations: answer.citations.map((c) => ({ ...c })),
    cited_documents: answer.top_documents.filter((d) => cited.has(d.document_id)),
    top_documents: answer.top_documents,
    timings: {
      headers_ms: record.headers_ms,
      ttfp_ms: answer.ttfp_ms,
      ttft_ms: answer.ttft_ms,
      first_citation_ms: answer.first_citation_ms,
      total_ms: answer.total_ms,
      time_per_delta_ms: answer.time_per_delta_ms,
      tpot_ms: answer.time_per_delta_ms,
    },
    scores: answer.scores,
    tools_used: [...(answer.tools_used ?? [])],
  };
}

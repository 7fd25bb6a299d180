/**
 * @module metrics/test-records
 * Test helper only (imported by *.test.ts, never by the toolkit): builds complete, schema-valid
 * RequestRecords with every field filled, so tests state only what they are about.
 */
import {
  RECORD_VERSION,
  RequestRecordSchema,
  requestKey,
  type AnswerFigures,
  type ModelFigures,
  type RequestRecord,
} from '../records/record.js';
import type { Scores } from '../records/scores.js';
import { computeScores } from './score.js';

/**
 * Scores of an ok answer that cited nothing (all N/A, pass), overridden; `checked` as if the question
 * expected something, since most tests are of checked answers (those of unchecked ones say checked: false).
 */
export function makeScores(over: Partial<Scores> = {}): Scores {
  const base = computeScores(
    {
      outcome: 'ok',
      answer: 'x',
      citations: [],
      cited_document_ids: [],
      top_document_ids: [],
      markers_without_citation: [],
    },
    { expected_document_ids: [], must_contain: [], must_not_contain: [], expect_no_answer: false, expected_tools: [] },
  );
  return { ...base, checked: true, ...over };
}

/** The figures of an ok streamed answer, overridden. */
export function makeFigures(over: Partial<AnswerFigures> = {}): AnswerFigures {
  return {
    outcome: 'ok',
    error_code: null,
    error_message: null,
    ttfp_ms: 100,
    ttft_ms: 200,
    first_citation_ms: 250,
    total_ms: 1000,
    time_per_delta_ms: 10,
    first_packet_ms: { message_start: 90 },
    answer_gaps_ms: [10, 10],
    parts: 5,
    answer_deltas: 3,
    answer_chars: 30,
    answer: 'An answer [[1]](https://d.example/1).',
    citations: [{ citation_number: 1, document_id: 'doc-1' }],
    cited_document_ids: ['doc-1'],
    top_document_ids: ['doc-1', 'doc-2'],
    markers_without_citation: [],
    reasoning_chars: 0,
    answer_truncated: false,
    marker_citations: [],
    tool_errors: 0,
    pre_answer_processing_seconds: null,
    output_chars_per_s: null,
    tools_used: [],
    scores: makeScores(),
    top_documents: [],
    judge: null,
    checks: {},
    ...over,
  };
}

/** One models[] entry. */
export function makeModel(model_index: number, over: Partial<ModelFigures> = {}): ModelFigures {
  return { ...makeFigures(), model_index, model_name: `model-${model_index}`, message_id: null, ...over };
}

/** A complete record (validated against RequestRecordSchema), overridden; `key` follows the overrides. */
export function makeRecord(over: Partial<RequestRecord> = {}): RequestRecord {
  const question_id = over.question_id ?? 'q1';
  const set = over.set ?? 'default';
  const mode = over.mode ?? 'stream';
  const repeat = over.repeat ?? 0;
  const record: RequestRecord = {
    ...makeFigures(),
    record_version: RECORD_VERSION,
    key: requestKey(question_id, set, mode, repeat),
    question_id,
    conversation: null,
    turn: null,
    session: null,
    question: `Question ${question_id}?`,
    category: null,
    set,
    mode,
    repeat,
    expected_document_ids: ['doc-1'],
    metadata: {},
    reference_answer: null,
    rubric: null,
    human_verdict: null,
    started_at: '2026-01-01T00:00:00.000Z',
    sent_offset_ms: 0,
    scheduled_offset_ms: null,
    queue_ms: 0,
    response_ms: 1000,
    headers_ms: 50,
    http_status: 200,
    content_type: 'application/x-ndjson',
    rate_limit: null,
    chat_session_id: 'session-1',
    message_id: 1,
    unknown_parts: 0,
    decode_errors: 0,
    token_index: null,
    attempts: [{ attempt: 0, outcome: 'ok', http_status: 200, error_code: null, retry_after_s: null, total_ms: 1000 }],
    models: null,
    answered_models: null,
    ...over,
  };
  return RequestRecordSchema.parse(record);
}

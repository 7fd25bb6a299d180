/**
 * @module records/valid-record
 * A record is checked against RequestRecordSchema before it is written, so that whatever a service
 * sends, results.jsonl stays readable by `report`, `compare`, `merge` and `--baseline`. A record
 * that fails (a value no record can hold) is kept as what it is, a response chatbench could not
 * record: `invalid_response`, its identity and timing fields kept where they are valid, the figures
 * of the answer emptied, and `error_message` naming the first fields that failed.
 */
import type { z } from 'zod';
import {
  AttemptSchema,
  RECORD_VERSION,
  RequestRecordSchema,
  SessionOriginSchema,
  type RequestRecord,
} from './record.js';
import { LabelVerdictSchema } from './quality.js';
import { boundRecord } from './bounds.js';
import { surelyValidRecord } from './record-fast-check.js';

/** How many failing fields the error message names. */
const LISTED_ISSUES = 3;

const describe = (error: z.ZodError): string =>
  error.issues
    .slice(0, LISTED_ISSUES)
    .map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`)
    .join('; ');

/** A non-negative finite number, else `fallback`. */
const ms = <T extends number | null>(value: unknown, fallback: T): number | T =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/**
 * `record` within its bounds (records/bounds.ts: the same object when nothing was over one) when it
 * is a valid RequestRecord; otherwise the `invalid_response` record that says why (see the module
 * header). Never throws: the result always passes the schema.
 */
export function toValidRecord(given: RequestRecord): RequestRecord {
  // A record the fast check passes is its own bounded record (records/record-fast-check.ts).
  return surelyValidRecord(given) ? given : validBoundedRecord(boundRecord(given));
}

/** Whether zod has walked a record in this process (its validator is compiled at the first walk). */
let zodWarm = false;

/**
 * toValidRecord for a warm-up: the first call in the process runs zod's validator too, whatever the
 * fast check says, so that zod compiles it (14–22 ms, once) before the first request, not on the
 * first record the fast check leaves to it. Later calls leave that out: a process that runs many
 * (the tests, in-process) walked 24 records through zod again at each run's warm-up (~2 ms a run).
 */
export function warmValidRecord(given: RequestRecord): RequestRecord {
  if (!zodWarm) {
    zodWarm = true;
    RequestRecordSchema.safeParse(boundRecord(given));
  }
  return toValidRecord(given);
}

/**
 * toValidRecord of a record already within its bounds (boundRecord's result), so a writer that has
 * bounded it does not walk it twice. The hand-written check (records/record-fast-check.ts) passes
 * the records a run writes without zod's walk; zod decides the rest.
 */
export function validBoundedRecord(record: RequestRecord): RequestRecord {
  if (surelyValidRecord(record)) return record;
  const checked = RequestRecordSchema.safeParse(record);
  if (checked.success) return record;
  const r = record as Partial<Record<keyof RequestRecord, unknown>>;
  const fallback: RequestRecord = {
    record_version: RECORD_VERSION,
    key: text(r.key, ''),
    question_id: text(r.question_id, ''),
    question: text(r.question, ''),
    category: typeof r.category === 'string' ? r.category : null,
    set: text(r.set, ''),
    mode: r.mode === 'full' ? 'full' : 'stream',
    repeat: Number.isSafeInteger(r.repeat) && (r.repeat as number) >= 0 ? (r.repeat as number) : 0,
    expected_document_ids: Array.isArray(r.expected_document_ids)
      ? r.expected_document_ids.filter((id): id is string => typeof id === 'string')
      : [],
    metadata: Object.fromEntries(
      Object.entries(typeof r.metadata === 'object' && r.metadata !== null ? r.metadata : {}).filter(
        ([, v]) => typeof v === 'string',
      ),
    ),
    started_at: text(r.started_at, new Date(0).toISOString()),
    sent_offset_ms: ms(r.sent_offset_ms, 0),
    scheduled_offset_ms: ms(r.scheduled_offset_ms, null),
    queue_ms: ms(r.queue_ms, null),
    response_ms: ms(r.response_ms, null),
    outcome: 'invalid_response',
    http_status: Number.isSafeInteger(r.http_status) ? (r.http_status as number) : null,
    content_type: typeof r.content_type === 'string' ? r.content_type : null,
    error_code: null,
    error_message: `chatbench could not record what the service sent: ${describe(checked.error)}`,
    rate_limit: null,
    headers_ms: ms(r.headers_ms, null),
    ttfp_ms: null,
    ttft_ms: null,
    first_citation_ms: null,
    total_ms: ms(r.total_ms, null),
    time_per_delta_ms: null,
    first_packet_ms: {},
    answer_gaps_ms: [],
    parts: 0,
    answer_deltas: 0,
    answer_chars: 0,
    answer: null,
    answer_truncated: false,
    citations: [],
    marker_citations: [],
    cited_document_ids: [],
    top_document_ids: [],
    markers_without_citation: [],
    reasoning_chars: 0,
    tool_errors: 0,
    pre_answer_processing_seconds: null,
    output_chars_per_s: null,
    answered_models: null,
    top_documents: [],
    judge: null,
    checks: {},
    reference_answer: typeof r.reference_answer === 'string' ? r.reference_answer : null,
    rubric: typeof r.rubric === 'string' ? r.rubric : null,
    human_verdict: LabelVerdictSchema.nullable()
      .catch(null)
      .parse(r.human_verdict ?? null),
    chat_session_id: null,
    message_id: null,
    unknown_parts: 0,
    decode_errors: 0,
    token_index:
      Number.isSafeInteger(r.token_index) && (r.token_index as number) >= 0 ? (r.token_index as number) : null,
    attempts: Array.isArray(r.attempts) ? r.attempts.filter((a) => AttemptSchema.safeParse(a).success) : [],
    scores: null,
    models: null,
    tools_used: [],
    conversation: typeof r.conversation === 'string' ? r.conversation : null,
    turn: Number.isSafeInteger(r.turn) && (r.turn as number) > 0 ? (r.turn as number) : null,
    session: SessionOriginSchema.nullable()
      .catch(null)
      .parse(r.session ?? null),
  };
  return fallback;
}

/**
 * @module records/record
 * One line of results.jsonl: everything measured about one planned request (and its retries),
 * plus its scores. The contract between the runner and everything after it; documented field by
 * field in docs/reference/results-jsonl.md. A figure that does not exist is `null`, never 0.
 */
import { z } from 'zod';
import { CheckResultSchema, DocumentTextSchema, LabelVerdictSchema, JudgementSchema } from './quality.js';
import { ScoresSchema } from './scores.js';
import { RECORD_BOUNDS as B } from './bounds.js';

/**
 * Still 1: every field added since (tool_errors, answer_truncated, marker_citations,
 * pre_answer_processing_seconds, output_chars_per_s, answered_models, tools_used, conversation,
 * turn, session, a model's message_id) has a default, so a record written before them still
 * parses, and reports, comparisons and baselines read old runs.
 */
export const RECORD_VERSION = 1;

/**
 * docs/reference/metrics.md "Outcome classes". `ok` only when every model reached `stop` with answer text (or the
 * full response came back with a non-empty answer and no error_msg). `skipped`: a later turn of a
 * conversation whose earlier turn failed; nothing was sent for it (error_message says why).
 */
export const OutcomeSchema = z.enum([
  'ok',
  'rate_limited',
  'http_error',
  'stream_error',
  'truncated',
  'empty_answer',
  'timeout',
  'network',
  'invalid_response',
  'cancelled',
  'abandoned',
  'skipped',
]);
export type Outcome = z.infer<typeof OutcomeSchema>;
export const OUTCOMES = OutcomeSchema.options;

export const ModeSchema = z.enum(['stream', 'full']);
export type Mode = z.infer<typeof ModeSchema>;

/**
 * A time in ms: never negative (every milestone is after `sent`, every offset after the run's start).
 * zod refuses NaN and ±Infinity already; `ttfp_ms: -1e308` is refused here.
 */
const Ms = z.number().nonnegative().nullable();
const Count = z.number().int().nonnegative();
/** Bounded strings and lists (records/bounds.ts: boundRecord cuts to these before a record is written). */
const Id = z.string().max(B.idChars);
const Message = z.string().max(B.messageChars);
const DatasetText = z.string().max(B.datasetTextChars);
const list = <T extends z.ZodType>(item: T, max: number = B.listItems) => z.array(item).max(max);

export const CitationSchema = z.object({ citation_number: z.number().int(), document_id: Id });

/** What one model produced: the whole request for a single model, one `models[]` entry otherwise. */
export const AnswerFiguresSchema = z.object({
  outcome: OutcomeSchema,
  /** Streaming error code, or the error_code of an error body. */
  error_code: Id.nullable(),
  error_message: Message.nullable(),
  /** Milestones in ms after `sent` (docs/reference/metrics.md); null when the milestone did not happen. */
  ttfp_ms: Ms,
  ttft_ms: Ms,
  first_citation_ms: Ms,
  /** For a model of a multi-model stream: its stop or error; otherwise the end of the body. */
  total_ms: Ms,
  /**
   * Time per stream delta: (last answer delta - first) / (answer_deltas - 1); null under two answer
   * deltas. Was `tpot_ms` (an older record's `tpot_ms` reads as this, records/upgrade.ts): a delta
   * may hold several tokens, so the per-token TPOT is `tpot_per_token_ms`.
   */
  time_per_delta_ms: Ms,
  /** First packet of each obj.type, ms after sent. */
  first_packet_ms: z
    .record(Id, z.number().nonnegative())
    .refine((m) => Object.keys(m).length <= B.packetTypes, `at most ${B.packetTypes} packet types`),
  /** Packets of types past the first RECORD_BOUNDS.packetTypes (a stream inventing types): counted, not timed. Absent: none. */
  first_packet_others: Count.optional(),
  /** Every gap between consecutive non-empty answer deltas, ms (the first RECORD_BOUNDS.gaps). */
  answer_gaps_ms: list(z.number().nonnegative(), B.gaps),
  parts: Count,
  answer_deltas: Count,
  answer_chars: Count,
  /** The answer text as received, markers included; cut at --max-answer-bytes (see answer_truncated). */
  answer: z.string().max(B.answerChars).nullable(),
  /** The answer was longer than --max-answer-bytes: `answer` keeps its start; answer_chars counts it whole. */
  answer_truncated: z.boolean().default(false),
  /** Citations in arrival order, as the service sent them. */
  citations: list(CitationSchema),
  /**
   * `[[n]](link)` markers with no citation_info for n whose link is the link of a document the
   * answer was given: they cite that document (the service numbers citations per search call and
   * sends citation_info only for a document's first citation). First occurrence of each n.
   */
  marker_citations: list(CitationSchema).default([]),
  /** In citation-number order, de-duplicated, citations and marker_citations together: the ranked list R of docs/reference/metrics.md. */
  cited_document_ids: list(Id),
  /** final_documents of the last message_start (full mode: top_documents): what the answer was given. */
  top_document_ids: list(Id),
  /** `[[n]]` markers in the answer with neither a citation_info for n nor the link of a given document. */
  markers_without_citation: list(z.number().int()),
  reasoning_chars: Count,
  /** `{"type": "error"}` packets: a tool failed and the answer went on (v3.2+ streams them). */
  tool_errors: Count.default(0),
  /** The service's own figure from message_start (v2.12+), seconds; null when absent. */
  pre_answer_processing_seconds: z.number().nullable().default(null),
  /** Characters of the answer deltas after the first, per second from the first to the last delta; null under two deltas. */
  output_chars_per_s: z.number().nonnegative().nullable().default(null),
  /**
   * Token figures (tokens/figures.ts): absent from results.jsonl — they are counted after the run,
   * when the reports are built (app/eval/render-reports), never on the request's path. null: the answer
   * text was cut (answer_truncated) or absent, or under two tokens (tpot_per_token_ms).
   */
  output_tokens: Count.nullable().optional(),
  output_tokens_per_s: z.number().nonnegative().nullable().optional(),
  tpot_per_token_ms: Ms.optional(),
  /**
   * The tools the answer used, by name, in order of first use, each once: from the tools' start
   * packets in a stream, from `tool_calls` in a full response (records/tools.ts says which name).
   */
  tools_used: list(Id).default([]),
  scores: ScoresSchema.nullable(),
  /** The documents the answer was given, as a judge reads them (bounded: records/quality). */
  top_documents: z.array(DocumentTextSchema).default([]),
  /** The judge's verdicts (docs/reference/metrics.md "Answer quality"); null when no judge was asked. */
  judge: JudgementSchema.nullable().default(null),
  /** The user's checks (`--checks`), by export name. */
  checks: z
    .record(Id, CheckResultSchema)
    .refine((m) => Object.keys(m).length <= B.mapEntries, `at most ${B.mapEntries} checks`)
    .default({}),
});
export type AnswerFigures = z.infer<typeof AnswerFiguresSchema>;

export const ModelFiguresSchema = AnswerFiguresSchema.extend({
  model_index: Count,
  model_name: Id.nullable(),
  /** The model's assistant message id (the multi-model ids part): what a follow-up continuing from this model names as its parent. */
  message_id: z.number().int().nullable().default(null),
});
export type ModelFigures = z.infer<typeof ModelFiguresSchema>;

/** One try of the request; the last one decides the record's outcome. */
export const AttemptSchema = z.object({
  attempt: Count,
  outcome: OutcomeSchema,
  http_status: z.number().int().nullable(),
  error_code: Id.nullable(),
  retry_after_s: z.number().nonnegative().nullable(),
  total_ms: Ms,
});

/**
 * How a conversation turn's chat session came about: `new` (the first turn created it), `continued`
 * (the previous turn's session, in this run), `resumed` (a resumed run continued the session the
 * interrupted run left), `restarted` (a resumed run found the old session could not be continued,
 * so this turn opened a new one: the turns before it are not in its history).
 */
export const SessionOriginSchema = z.enum(['new', 'continued', 'resumed', 'restarted']);
export type SessionOrigin = z.infer<typeof SessionOriginSchema>;

export const RateLimitSchema = z.object({
  retry_after_s: z.number().nonnegative().nullable(),
  scope: Id.nullable(),
  reset_at: Id.nullable(),
});

export const RequestRecordSchema = AnswerFiguresSchema.extend({
  record_version: z.literal(RECORD_VERSION),
  /** `question_id|set|mode|repeat`: unique in a run; what resume and merge match on. */
  key: DatasetText,
  /** The dataset row's id: unique in a dataset, so each conversation turn has its own (default `conversation#turn`). */
  question_id: DatasetText,
  /** The dataset's `conversation` id of this turn; null for a question asked on its own. */
  conversation: DatasetText.nullable().default(null),
  /** The turn number within the conversation (1, 2, …); null for a question asked on its own. */
  turn: z.number().int().positive().nullable().default(null),
  /** How the turn's chat session came about (SessionOriginSchema); null for a question asked on its own. */
  session: SessionOriginSchema.nullable().default(null),
  question: DatasetText,
  category: DatasetText.nullable(),
  set: DatasetText,
  mode: ModeSchema,
  repeat: Count,
  expected_document_ids: list(DatasetText, B.expectedItems),
  /** Extra dataset columns, kept as they were. */
  metadata: z
    .record(DatasetText, DatasetText)
    .refine((m) => Object.keys(m).length <= B.mapEntries, `at most ${B.mapEntries} columns`),
  /** The dataset's reference answer and rubric (what correctness and rubric are judged against). */
  reference_answer: DatasetText.nullable().default(null),
  rubric: DatasetText.nullable().default(null),
  /** A human's verdict from the dataset's human_verdict column, for the judge's agreement. */
  human_verdict: LabelVerdictSchema.nullable().default(null),
  /** Wall-clock time of `sent`, ISO 8601, for humans and timelines. */
  started_at: Id,
  /** `sent` in ms after the run started (monotonic). */
  sent_offset_ms: z.number().nonnegative(),
  /** Open-loop load only: when the plan wanted it sent, ms after the run started; else null. */
  scheduled_offset_ms: Ms,
  /** sent - scheduled (0 when not scheduled). */
  queue_ms: Ms,
  /** done - scheduled: latency free of coordinated omission. */
  response_ms: Ms,
  headers_ms: Ms,
  http_status: z.number().int().nullable(),
  content_type: Id.nullable(),
  rate_limit: RateLimitSchema.nullable(),
  chat_session_id: Id.nullable(),
  message_id: z.number().int().nullable(),
  /** Parts of kinds we do not know, and lines that failed to decode. */
  unknown_parts: Count,
  /** The unknown parts by packet type (`obj.type`), when there were any (the unknown-protocol alarm names them). */
  unknown_part_kinds: z.record(z.string(), Count).optional(),
  decode_errors: Count,
  token_index: Count.nullable(),
  attempts: list(AttemptSchema),
  /** Multi-model sets: one entry per model_index that answered; null for a single model. */
  models: list(ModelFiguresSchema).nullable(),
  /**
   * Multi-model sets: how many models the service answered with (the stream's ids part), when it
   * differs from the models asked (a release before v3.2 ignores llm_overrides and answers with one).
   * Null when every model asked answered, and for a single model.
   */
  answered_models: z.number().int().nullable().default(null),
  /**
   * The models the set asked for, in slot order, as `provider:version` (or the version alone, or
   * the display name): the request's llm_override, or each of its llm_overrides. Empty: no
   * override, the service's configured model. Absent in records written before it.
   */
  model_asked: z.array(z.string()).optional(),
  /**
   * The models the service says answered, in slot order: the multi-model ids line's model_name
   * of each slot, else the `details.model` of a single model's streaming error. Null when the
   * service never said (a single-model answer that went well says nothing of its model).
   */
  model_answered: z.array(z.string()).nullable().optional(),
});
export type RequestRecord = z.infer<typeof RequestRecordSchema>;

export const requestKey = (questionId: string, set: string, mode: string, repeat: number) =>
  `${questionId}|${set}|${mode}|${repeat}`;

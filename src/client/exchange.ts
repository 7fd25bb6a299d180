/**
 * @module client/exchange
 * What one attempt of one request fills in: the record's measured fields (picked from the record
 * schema, never restated), plus when it was sent. The runner turns the final attempt into a record.
 */
import { z } from 'zod';
import type { Outcome } from '../records/record.js';
import { ModelFiguresSchema, RequestRecordSchema } from '../records/record.js';
import { compileFieldCopy, type FieldCopy } from '../util/copy-fields.js';

/** A `models[]` entry as the client produces it: scores, verdicts and checks are the app's job. */
export const UnscoredModelFiguresSchema = ModelFiguresSchema.extend({ scores: z.null() }).omit({
  judge: true,
  checks: true,
});
export type UnscoredModelFigures = z.infer<typeof UnscoredModelFiguresSchema>;

export const ExchangeSchema = RequestRecordSchema.pick({
  outcome: true,
  http_status: true,
  content_type: true,
  error_code: true,
  error_message: true,
  headers_ms: true,
  first_packet_others: true,
  ttfp_ms: true,
  ttft_ms: true,
  first_citation_ms: true,
  total_ms: true,
  time_per_delta_ms: true,
  first_packet_ms: true,
  answer_gaps_ms: true,
  parts: true,
  answer_deltas: true,
  answer_chars: true,
  answer: true,
  citations: true,
  cited_document_ids: true,
  top_document_ids: true,
  markers_without_citation: true,
  reasoning_chars: true,
  top_documents: true,
  chat_session_id: true,
  message_id: true,
  unknown_parts: true,
  unknown_part_kinds: true,
  decode_errors: true,
  rate_limit: true,
  answer_truncated: true,
  marker_citations: true,
  tool_errors: true,
  pre_answer_processing_seconds: true,
  output_chars_per_s: true,
  answered_models: true,
  tools_used: true,
}).extend({
  models: z.array(UnscoredModelFiguresSchema).nullable(),
  /** Monotonic ms (the client's `now`) just before the request was handed to undici. */
  sent: z.number(),
  /** Wall-clock time of `sent`, ISO 8601. */
  started_at: z.string(),
  /**
   * The start of a non-2xx body (≤ 300 chars, token redacted), for messages such as the early stop's.
   * Not a record field.
   */
  error_body: z.string().nullable(),
  /** How the stream was framed (`ndjson` as deployed, or real `sse`); null for a body that was not a stream. Not a record field. */
  framing: z.enum(['ndjson', 'sse']).nullable(),
  /** The streaming error's `is_retryable` (null when absent or no streaming error): false is never retried. Not a record field. */
  error_retryable: z.boolean().nullable(),
  /** The streaming error's `details.model` (v3.2+: the model that failed), the only word a single-model stream says of its model. Not a record field: the record's model_answered. */
  error_model: z.string().nullable().optional(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/** Fields the HTTP layer fills; the rest come from folding the body (collect.ts, full-response.ts). */
export type HttpFields =
  'http_status' | 'content_type' | 'headers_ms' | 'rate_limit' | 'sent' | 'started_at' | 'error_body' | 'framing';
/** What a body (stream or full response) yields: every Exchange field the HTTP layer does not fill. */
export type BodyFigures = Omit<Exchange, HttpFields>;

/**
 * How an attempt ended other than by its body: a timeout, a cancel, a broken connection, or a status
 * that decided the outcome. Applied to every model that had not finished.
 */
export interface Failure {
  outcome: Exclude<Outcome, 'ok'>;
  error_code: string | null;
  error_message: string | null;
}

/** Error messages end up in records and reports: cap them. */
export const truncateText = (text: string, max = 300): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** The HTTP fields in the order an exchange has them after the body's (results.jsonl's key order follows). */
const HTTP_KEYS: readonly HttpFields[] = [
  'http_status',
  'content_type',
  'headers_ms',
  'rate_limit',
  'error_body',
  'framing',
  'sent',
  'started_at',
];

/**
 * The keys of an exchange whose body's keys are `bodyKeys`, an object holding them (all null) with
 * fast properties, and the copy of the body's fields (util/copy-fields.ts).
 */
interface Layout {
  readonly bodyKeys: readonly string[];
  readonly template: Readonly<Record<string, null>>;
  readonly copyBody: FieldCopy;
}
const copyHttp = compileFieldCopy(HTTP_KEYS);
/** One layout per order of a body's keys (a full answer's, a stream's, a failure's): a handful. */
const layouts: Layout[] = [];
const MAX_LAYOUTS = 32;

/** Whether `figures` has exactly `keys`, in that order (a walk of its keys, nothing built). */
function hasKeys(figures: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in figures) if (keys[i++] !== key) return false;
  return i === keys.length;
}

function layoutOf(figures: object): Layout {
  for (const layout of layouts) if (hasKeys(figures, layout.bodyKeys)) return layout;
  const bodyKeys = Object.keys(figures);
  const keys = [...bodyKeys, ...HTTP_KEYS.filter((key) => !bodyKeys.includes(key))];
  // JSON.parse builds an object with fast properties, whatever the number of keys.
  const template = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((key) => [key, null])))) as Record<
    string,
    null
  >;
  const layout = { bodyKeys, template, copyBody: compileFieldCopy(bodyKeys) };
  if (layouts.length >= MAX_LAYOUTS) layouts.shift();
  layouts.push(layout);
  return layout;
}

/**
 * The exchange of a body's `figures` and its HTTP fields: figures' keys in their order, then the
 * HTTP fields (those figures does not have) in HTTP_KEYS' order, as `Object.assign({}, figures)`
 * with the HTTP fields set after would have them. Built as a copy of a template that has every key
 * already, values set on keys it has: an object with fast properties whatever the body path. Both
 * `Object.assign({}, figures)` and adding keys one by one can give a dictionary-mode object (V8:
 * more than a dozen keys added by keyed stores; a stream's exchange always was), which the record's
 * copy (runner/to-record.ts) and the redaction walk then read key by key through a hash table, and
 * a spread with new keys copies the hidden class at each one (docs/benchmarks-log.md, "The record path
 * after a response" and "Session 35").
 */
export function exchangeOf(figures: BodyFigures, http: Readonly<Pick<Exchange, HttpFields>>): Exchange {
  const layout = layoutOf(figures);
  const exchange: Record<string, unknown> = { ...layout.template };
  layout.copyBody(exchange, figures as Readonly<Record<string, unknown>>);
  copyHttp(exchange, http);
  return exchange as Exchange;
}

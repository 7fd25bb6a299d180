/**
 * @module runner/conversation-turns
 * What the runners (eval's and load's) share to play a conversation: the record of a turn that was
 * not sent, why a turn cannot follow the one before it, and how a refused session is recognised.
 *
 * A turn follows the turn before it only when that one ended `ok`; otherwise it, and every later
 * turn, is recorded `skipped` with the reason (nothing is sent for them). A record still exists
 * for every planned request.
 */
import type { Exchange } from '../client/exchange.js';
import { roundMs } from '../records/round-ms.js';
import { emptyFigures } from '../client/full-response.js';
import { continuationAfter, type Continuation, type TurnIds } from '../plan/conversation.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { RECORD_VERSION, type RequestRecord } from '../records/record.js';
import { conversationFields } from './to-record.js';
import type { UnscoredRecord } from './unscored-record.js';

/** What a turn needs to know of the turn before it: how it ended, and where it left the conversation. */
export type PreviousTurn = TurnIds & Pick<RequestRecord, 'outcome' | 'error_code' | 'error_message' | 'turn'>;

/** Where the turn after `previous` goes, or why it is not sent (recorded as the skipped turns' reason). */
export function nextTurn(
  previous: PreviousTurn,
  step: NonNullable<PlannedRequest['conversation']>,
): Continuation | string {
  if (previous.outcome === 'skipped')
    return previous.error_message ?? `turn ${previous.turn ?? '?'} of conversation ${step.id} was not sent`;
  if (previous.outcome !== 'ok') {
    return `not sent: turn ${previous.turn ?? step.turn - 1} of conversation ${step.id} ended ${previous.outcome}${previous.error_code === null ? '' : ` (${previous.error_code})`}, and a conversation ends with its first failed turn`;
  }
  const at = continuationAfter(previous, step.continue_with);
  return typeof at === 'string'
    ? `not sent: ${at} (turn ${previous.turn ?? step.turn - 1} of conversation ${step.id})`
    : at;
}

/** The record of a turn that was not sent: outcome `skipped`, every figure absent, `reason` as its error_message. */
export function skippedRecord(
  planned: PlannedRequest,
  reason: string,
  at: { offsetMs: number; wallClockMs: number },
): UnscoredRecord {
  const { models: _models, error_retryable: _retryable, ...figures } = emptyFigures(null);
  return {
    record_version: RECORD_VERSION,
    key: planned.key,
    question_id: planned.question_id,
    ...conversationFields(planned, null),
    question: planned.question,
    category: planned.category,
    set: planned.set,
    mode: planned.mode,
    repeat: planned.repeat,
    expected_document_ids: planned.expected_document_ids,
    metadata: planned.metadata,
    started_at: new Date(at.wallClockMs).toISOString(),
    sent_offset_ms: roundMs(at.offsetMs),
    scheduled_offset_ms: null,
    queue_ms: null,
    response_ms: null,
    token_index: null,
    ...figures,
    outcome: 'skipped',
    error_message: reason,
    headers_ms: null,
    http_status: null,
    content_type: null,
    rate_limit: null,
    attempts: [],
    models: null,
    scores: null,
  };
}

/**
 * Whether the service refused to continue a session (an interrupted run resumed later): it no
 * longer knows the session or the message (every listed Onyx release: a streamed
 * `VALIDATION_ERROR` before any message id, "Invalid Chat Session ID provided" or "not on the
 * latest mainline"; a full response's 400 "Message ID is required"), or says 404.
 */
export function refusedSession(exchange: Exchange): boolean {
  if (exchange.outcome === 'http_error') return exchange.http_status === 400 || exchange.http_status === 404;
  return (
    exchange.outcome === 'stream_error' &&
    exchange.error_code === 'VALIDATION_ERROR' &&
    exchange.message_id === null &&
    exchange.parts <= 1
  );
}

/**
 * @module runner/to-record
 * Builds the record of one planned request from its final attempt (which decides every figure) and
 * the list of all its attempts. Closed loop: nothing was scheduled, so scheduled_offset_ms is null,
 * queue_ms 0 and response_ms = total_ms. A conversation turn carries its conversation, turn and how
 * its session came about; a later turn's chat_session_id is the session it was sent in (its stream
 * has no session part: the session already existed).
 */
import type { Exchange } from '../client/exchange.js';
import { roundMs } from '../records/round-ms.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import type { LLMOverride, SendMessageRequest } from '../api/index.js';
import { RECORD_VERSION, type RequestRecord, type SessionOrigin } from '../records/record.js';
import type { UnscoredRecord } from './unscored-record.js';

export type AttemptRecord = RequestRecord['attempts'][number];

/** What the record keeps of attempt number `attempt` (1-based). */
export function attemptOf(exchange: Exchange, attempt: number): AttemptRecord {
  return {
    attempt,
    outcome: exchange.outcome,
    http_status: exchange.http_status,
    error_code: exchange.error_code,
    retry_after_s: exchange.rate_limit?.retry_after_s ?? null,
    total_ms: exchange.total_ms,
  };
}

/** A conversation turn's session: how it came about, and the session it was sent into (a later turn). */
export interface TurnSession {
  readonly origin: SessionOrigin;
  readonly chat_session_id: string | null;
}

/** `runStart`: the run's start on the client's monotonic clock. */
export function toRecord(
  planned: PlannedRequest,
  final: Exchange,
  attempts: readonly AttemptRecord[],
  runStart: number,
  session?: TurnSession,
): UnscoredRecord {
  // error_body, framing and error_retryable describe the attempt for the run, not the record.
  const {
    sent,
    started_at,
    error_body: _body,
    framing: _framing,
    error_retryable: _retryable,
    error_model: _model,
    models,
    ...figures
  } = final;
  return {
    record_version: RECORD_VERSION,
    key: planned.key,
    question_id: planned.question_id,
    ...conversationFields(planned, session?.origin ?? null),
    question: planned.question,
    category: planned.category,
    set: planned.set,
    mode: planned.mode,
    repeat: planned.repeat,
    expected_document_ids: planned.expected_document_ids,
    metadata: planned.metadata,
    started_at,
    sent_offset_ms: roundMs(sent - runStart),
    scheduled_offset_ms: null,
    queue_ms: 0,
    response_ms: figures.total_ms,
    token_index: null,
    ...figures,
    chat_session_id: figures.chat_session_id ?? session?.chat_session_id ?? null,
    scores: null,
    attempts: [...attempts],
    // The stream's ids part names the models; the plan's display names fill in when it did not come,
    // unless the service answered with fewer models than asked: then the one that answered is not the plan's.
    models:
      models?.map((m) => ({
        ...m,
        model_name:
          m.model_name ?? (figures.answered_models === null ? (planned.model_names?.[m.model_index] ?? null) : null),
      })) ?? null,
    model_asked: modelsAsked(planned.body),
    // Before the plan's names fill in: only what the service itself said.
    model_answered: answeredNames(models, final.error_model ?? null),
  };
}

/** `provider:version` of an override (the version alone without a provider; the display name without either). */
export function overrideLabel(o: LLMOverride): string {
  if (o.model_version != null)
    return o.model_provider != null ? `${o.model_provider}:${o.model_version}` : o.model_version;
  return o.display_name ?? o.model_provider ?? 'configured model';
}

/** The models a request body asks for, in slot order; [] for the service's configured model. */
export function modelsAsked(body: Pick<SendMessageRequest, 'llm_override' | 'llm_overrides'>): string[] {
  const overrides =
    body.llm_overrides != null && body.llm_overrides.length > 1
      ? body.llm_overrides
      : body.llm_override != null
        ? [body.llm_override]
        : [];
  return overrides.map(overrideLabel);
}

function answeredNames(models: Exchange['models'], errorModel: string | null): string[] | null {
  if (models != null && models.length > 0 && models.every((m) => m.model_name !== null))
    return models.map((m) => m.model_name!);
  return errorModel === null ? null : [errorModel];
}

/** The record's conversation, turn and session origin (all null for a question on its own). */
export function conversationFields(
  planned: Pick<PlannedRequest, 'conversation'>,
  origin: SessionOrigin | null,
): Pick<RequestRecord, 'conversation' | 'turn' | 'session'> {
  const step = planned.conversation ?? null;
  return step === null
    ? { conversation: null, turn: null, session: null }
    : { conversation: step.id, turn: step.turn, session: origin };
}

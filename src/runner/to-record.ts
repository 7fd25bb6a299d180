/**
 * @module runner/to-record
 * Builds the record of one planned request from its final attempt (which decides every figure) and
 * the list of all its attempts. Closed loop: nothing was scheduled, so scheduled_offset_ms is null,
 * queue_ms 0 and response_ms = total_ms.
 */
import type { Exchange } from '../client/exchange.js';
import { roundMs } from '../client/exchange.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { RECORD_VERSION, type RequestRecord } from '../records/record.js';
import type { UnscoredRecord } from './unscored-record.js';

export type AttemptRecord = RequestRecord['attempts'][number];

/** `runStart`: the run's start on the client's monotonic clock. */
export function toRecord(planned: PlannedRequest, final: Exchange, attempts: readonly AttemptRecord[], runStart: number): UnscoredRecord {
  const { sent, started_at, error_body: _body, models, ...figures } = final;
  return {
    record_version: RECORD_VERSION,
    key: planned.key,
    question_id: planned.question_id,
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
    scores: null,
    attempts: [...attempts],
    // The stream's ids part names the models; the plan's display names fill in when it did not come,
    // unless the service answered with fewer models than asked: then the one that answered is not the plan's.
    models: models?.map((m) => ({ ...m, model_name: m.model_name ?? (figures.answered_models === null ? planned.model_names?.[m.model_index] ?? null : null) })) ?? null,
  };
}

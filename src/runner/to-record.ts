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
import { compileFieldCopy, type FieldCopy } from '../util/copy-fields.js';
import { SCORED_FIELDS, type UnscoredRecord } from './unscored-record.js';

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

/**
 * `runStart`: the run's start on the client's monotonic clock. The record's keys come in the order
 * of one object literal (results.jsonl's): HEAD_KEYS, then the exchange's fields in their order,
 * then TAIL_KEYS; the values are set in that order too, so a later one wins as in such a literal.
 */
export function toRecord(
  planned: PlannedRequest,
  final: Exchange,
  attempts: readonly AttemptRecord[],
  runStart: number,
  session?: TurnSession,
): UnscoredRecord {
  const layout = recordLayoutOf(final);
  const record: Record<string, unknown> = { ...layout.template };
  const step = planned.conversation ?? null;
  record.record_version = RECORD_VERSION;
  record.key = planned.key;
  record.question_id = planned.question_id;
  record.conversation = step === null ? null : step.id;
  record.turn = step === null ? null : step.turn;
  record.session = step === null ? null : (session?.origin ?? null);
  record.question = planned.question;
  record.category = planned.category;
  record.set = planned.set;
  record.mode = planned.mode;
  record.repeat = planned.repeat;
  record.expected_document_ids = planned.expected_document_ids;
  record.metadata = planned.metadata;
  record.started_at = final.started_at;
  record.sent_offset_ms = roundMs(final.sent - runStart);
  record.scheduled_offset_ms = null;
  record.queue_ms = 0;
  record.response_ms = final.total_ms;
  record.token_index = null;
  layout.copy(record, final as unknown as Readonly<Record<string, unknown>>);
  record.chat_session_id = final.chat_session_id ?? session?.chat_session_id ?? null;
  record.scores = null;
  record.attempts = [...attempts];
  record.models = modelsOf(planned, final);
  record.model_asked = modelsAsked(planned.body);
  // Before the plan's names fill in: only what the service itself said.
  record.model_answered = answeredNames(final.models, final.error_model ?? null);
  return record as UnscoredRecord;
}

/** The record's first keys, before the exchange's fields. */
const HEAD_KEYS = [
  'record_version',
  'key',
  'question_id',
  'conversation',
  'turn',
  'session',
  'question',
  'category',
  'set',
  'mode',
  'repeat',
  'expected_document_ids',
  'metadata',
  'started_at',
  'sent_offset_ms',
  'scheduled_offset_ms',
  'queue_ms',
  'response_ms',
  'token_index',
] as const satisfies readonly (keyof UnscoredRecord)[];
/** The record's keys after the exchange's fields (one the exchange has already stays where it is). */
const TAIL_KEYS = [
  'chat_session_id',
  'scores',
  'attempts',
  'models',
  'model_asked',
  'model_answered',
] as const satisfies readonly (keyof UnscoredRecord)[];
/** The exchange's fields that describe the attempt for the run (error_body, framing, error_retryable), or that the record holds otherwise. */
const NOT_RECORD_FIELDS: ReadonlySet<string> = new Set([
  'sent',
  'started_at',
  'error_body',
  'framing',
  'error_retryable',
  'error_model',
  'models',
]);

/**
 * The stream's ids part names the models; the plan's display names fill in when it did not come,
 * unless the service answered with fewer models than asked: then the one that answered is not the plan's.
 */
function modelsOf(planned: PlannedRequest, final: Exchange): UnscoredRecord['models'] {
  if (final.models == null) return null;
  const fill = final.answered_models === null ? (planned.model_names ?? null) : null;
  return final.models.map((m) => ({ ...m, model_name: m.model_name ?? fill?.[m.model_index] ?? null }));
}

/**
 * A record's keys for one order of an exchange's keys (a full answer's, a stream's, a failure's: a
 * handful), in an object holding them (all null; SCORED_FIELDS undefined) with fast properties. A copy of it with every
 * value set allocates the record once; a literal with the exchange's fields spread into it (and the
 * rest object they were gathered into) grew both key by key: ~4.7 KB a full answer's record
 * (docs/benchmarks-log.md, "Session 40"). client/exchange.ts exchangeOf does the same.
 */
interface RecordLayout {
  readonly exchangeKeys: readonly string[];
  /**
   * The copy of the exchange's fields the record takes, in their order (util/copy-fields.ts):
   * worked out once a layout, not a record.
   */
  readonly copy: FieldCopy;
  readonly template: Readonly<Record<string, null | undefined>>;
}
const recordLayouts: RecordLayout[] = [];
const MAX_LAYOUTS = 32;

function recordLayoutOf(final: Exchange): RecordLayout {
  for (const layout of recordLayouts) if (hasKeys(final, layout.exchangeKeys)) return layout;
  const exchangeKeys = Object.keys(final);
  const copied = exchangeKeys.filter((key) => !NOT_RECORD_FIELDS.has(key));
  const keys = new Set<string>(HEAD_KEYS);
  for (const key of copied) keys.add(key);
  for (const key of TAIL_KEYS) keys.add(key);
  for (const key of SCORED_FIELDS) keys.add(key);
  // JSON.parse builds an object with fast properties, whatever the number of keys.
  const template = JSON.parse(JSON.stringify(Object.fromEntries([...keys].map((key) => [key, null])))) as Record<
    string,
    null | undefined
  >;
  for (const key of SCORED_FIELDS) template[key] = undefined;
  const layout = { exchangeKeys, copy: compileFieldCopy(copied), template };
  if (recordLayouts.length >= MAX_LAYOUTS) recordLayouts.shift();
  recordLayouts.push(layout);
  return layout;
}

/** Whether `value` has exactly `keys`, in that order (a walk of its keys, nothing built). */
function hasKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (keys[i++] !== key) return false;
  return i === keys.length;
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

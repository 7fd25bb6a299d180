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
  return recordBy(builderOf(final), planned, final, attempts, runStart, session);
}

/** toRecord as built without the compiled builder: the same record (tests compare the two). */
export function toRecordBySpread(
  planned: PlannedRequest,
  final: Exchange,
  attempts: readonly AttemptRecord[],
  runStart: number,
  session?: TurnSession,
): UnscoredRecord {
  return recordBy(spreadBuild, planned, final, attempts, runStart, session);
}

function recordBy(
  build: Build,
  planned: PlannedRequest,
  final: Exchange,
  attempts: readonly AttemptRecord[],
  runStart: number,
  session: TurnSession | undefined,
): UnscoredRecord {
  const step = planned.conversation ?? null;
  const models = final.models;
  return build(
    planned,
    final,
    step === null ? null : step.id,
    step === null ? null : step.turn,
    step === null ? null : (session?.origin ?? null),
    roundMs(final.sent - runStart),
    final.chat_session_id ?? session?.chat_session_id ?? null,
    attempts.slice(),
    // The stream's ids part names the models; the plan's display names fill in when it did not come,
    // unless the service answered with fewer models than asked: then the one that answered is not the plan's.
    models?.map((m) => ({
      ...m,
      model_name:
        m.model_name ?? (final.answered_models === null ? (planned.model_names?.[m.model_index] ?? null) : null),
    })) ?? null,
    modelsAsked(planned.body),
    // Before the plan's names fill in: only what the service itself said.
    answeredNames(models, final.error_model ?? null),
  );
}

/** The record's fields that are not the exchange's own, in toRecord's argument order after `planned` and `final`. */
type Build = (
  planned: PlannedRequest,
  final: Exchange,
  conversation: string | null,
  turn: number | null,
  session: SessionOrigin | null,
  sentOffsetMs: number,
  chatSessionId: string | null,
  attempts: AttemptRecord[],
  models: UnscoredRecord['models'],
  modelAsked: string[],
  modelAnswered: string[] | null,
) => UnscoredRecord;

/**
 * The exchange's fields that are not the record's: error_body, framing and error_retryable describe
 * the attempt for the run, error_model becomes model_answered, sent becomes sent_offset_ms, and
 * started_at and models have their own places in the record.
 */
const NOT_COPIED: ReadonlySet<string> = new Set([
  'sent',
  'started_at',
  'error_body',
  'framing',
  'error_retryable',
  'error_model',
  'models',
]);

/**
 * The record's keys in results.jsonl's order, each with the expression of its value (an argument of
 * Build, or a field of the exchange `f`): the planned request's fields, the exchange's own fields in
 * their order, then the attempts and models. A key the exchange has twice in this list (none today:
 * chat_session_id is set again after) keeps its first place and takes its last value, as in an
 * object literal or a spread.
 */
function recordFields(exchangeKeys: readonly string[]): [key: string, value: string][] {
  return [
    ['record_version', 'V'],
    ['key', 'p.key'],
    ['question_id', 'p.question_id'],
    ['conversation', 'conversation'],
    ['turn', 'turn'],
    ['session', 'session'],
    ['question', 'p.question'],
    ['category', 'p.category'],
    ['set', 'p.set'],
    ['mode', 'p.mode'],
    ['repeat', 'p.repeat'],
    ['expected_document_ids', 'p.expected_document_ids'],
    ['metadata', 'p.metadata'],
    ['started_at', 'f.started_at'],
    ['sent_offset_ms', 'sentOffsetMs'],
    ['scheduled_offset_ms', 'null'],
    ['queue_ms', '0'],
    ['response_ms', 'f.total_ms'],
    ['token_index', 'null'],
    ...exchangeKeys
      .filter((key) => !NOT_COPIED.has(key))
      .map((key): [string, string] => [key, `f[${JSON.stringify(key)}]`]),
    ['chat_session_id', 'chatSessionId'],
    ['scores', 'null'],
    ['attempts', 'attempts'],
    ['models', 'models'],
    ['model_asked', 'modelAsked'],
    ['model_answered', 'modelAnswered'],
  ];
}

/**
 * The record built as one object literal written for the exchange's keys: one allocation, every key
 * in its final place, no copy. The spread it replaces (`{ ...fixed, ...figures, ... }` after a rest
 * copy of the exchange) copied the exchange's ~35 fields twice, key by key through the spread's
 * runtime path (docs/benchmarks.md, "Session 37: the record path"). Undefined where code generation
 * from strings is disallowed, or for a key an object literal cannot hold as its own (`__proto__`).
 */
function compiledBuild(exchangeKeys: readonly string[]): Build | undefined {
  if (exchangeKeys.includes('__proto__')) return undefined;
  const fields = recordFields(exchangeKeys).map(([key, value]) => `${JSON.stringify(key)}: ${value}`);
  const body = `return function build(p, f, conversation, turn, session, sentOffsetMs, chatSessionId, attempts, models, modelAsked, modelAnswered) {
    return {
      ${fields.join(',\n      ')}
    };
  };`;
  try {
    return (new Function('V', body) as (version: typeof RECORD_VERSION) => Build)(RECORD_VERSION);
  } catch {
    return undefined;
  }
}

/** The same record as compiledBuild's, built by spreads (where code generation is disallowed). */
const spreadBuild: Build = (
  planned,
  final,
  conversation,
  turn,
  session,
  sentOffsetMs,
  chatSessionId,
  attempts,
  models,
  modelAsked,
  modelAnswered,
) => {
  const {
    sent: _sent,
    started_at,
    error_body: _body,
    framing: _framing,
    error_retryable: _retryable,
    error_model: _model,
    models: _models,
    ...figures
  } = final;
  return {
    record_version: RECORD_VERSION,
    key: planned.key,
    question_id: planned.question_id,
    conversation,
    turn,
    session,
    question: planned.question,
    category: planned.category,
    set: planned.set,
    mode: planned.mode,
    repeat: planned.repeat,
    expected_document_ids: planned.expected_document_ids,
    metadata: planned.metadata,
    started_at,
    sent_offset_ms: sentOffsetMs,
    scheduled_offset_ms: null,
    queue_ms: 0,
    response_ms: figures.total_ms,
    token_index: null,
    ...figures,
    chat_session_id: chatSessionId,
    scores: null,
    attempts,
    models,
    model_asked: modelAsked,
    model_answered: modelAnswered,
  };
};

/** The builder of one order of an exchange's keys (a full answer's, a stream's, a failure's: a handful). */
interface Layout {
  readonly keys: readonly string[];
  readonly build: Build;
}
const layouts: Layout[] = [];
const MAX_LAYOUTS = 32;

/** Whether `exchange` has exactly `keys`, in that order (a walk of its keys, nothing built). */
function hasKeys(exchange: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in exchange) if (keys[i++] !== key) return false;
  return i === keys.length;
}

function builderOf(exchange: Exchange): Build {
  for (const layout of layouts) if (hasKeys(exchange, layout.keys)) return layout.build;
  // for…in (hasKeys) lists inherited enumerable keys too, which a spread does not copy: such an
  // exchange (never built by the client) gets the spread, every time.
  const keys = Object.keys(exchange);
  let i = 0;
  for (const key in exchange) if (keys[i++] !== key) return spreadBuild;
  if (i !== keys.length) return spreadBuild;
  const layout = { keys, build: compiledBuild(keys) ?? spreadBuild };
  if (layouts.length >= MAX_LAYOUTS) layouts.shift();
  layouts.push(layout);
  return layout.build;
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

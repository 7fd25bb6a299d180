/**
 * @module records/record-fast-check
 * A hand-written check that a record surely passes RequestRecordSchema (records/record.ts), so that
 * results-file.ts skips zod's walk for the records a run writes by the thousand (it was a sixth of
 * the load generator's busy time at 200/s, issue 24). It is conservative: `true` only when every
 * field holds what the schema accepts; `false` means "not sure", never "invalid", and the caller then
 * asks zod, which decides and words the error. So the result of a write is zod's whatever this says.
 * Fields a load or eval record holds only after a judge or the user's checks (top_documents, judge,
 * checks, human_verdict) are accepted here only empty; anything else goes to zod.
 *
 * It also never says yes to a record over a bound (records/bounds.ts): where the schema allows more
 * than the bounds keep (an unlisted key, a phrase or name over an id's length, a metadata key), it
 * checks the bound. So a record it passes is its own bounded record, and the writer
 * (app/store/results-file.ts) skips the bounds' walk for it.
 *
 * The field lists below are the schema's, key for key (test/fuzz/record-fast-check.test.ts compares them to the
 * schemas' shapes, and fuzzes records to show this never says yes where zod says no, nor where the
 * bounds would cut). Pure.
 */
import { RECORD_BOUNDS as B } from './bounds.js';
import { OUTCOMES, RECORD_VERSION } from './record.js';

type Check = (value: unknown) => boolean;

const OUTCOME_SET: ReadonlySet<unknown> = new Set(OUTCOMES);
const SESSIONS: ReadonlySet<unknown> = new Set(['new', 'continued', 'resumed', 'restarted']);

// zod's number refuses NaN and ±Infinity; int() is a safe integer.
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const nonNegative: Check = (v) => finite(v) && v >= 0;
const int: Check = (v) => Number.isSafeInteger(v);
const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
/** A field with a zod default (or optional): absent is fine. */
const orAbsent =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
const text =
  (max: number): Check =>
  (v) =>
    typeof v === 'string' && v.length <= max;
const list =
  (item: Check, max: number = B.listItems): Check =>
  (v) => {
    if (!Array.isArray(v) || v.length > max) return false;
    for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
    return true;
  };
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** zod's record takes a plain object only (its prototype Object's or none) and checks symbol keys too. */
const isRecordLike = (v: unknown): v is Record<string, unknown> => {
  if (!isPlainObject(v)) return false;
  const prototype: unknown = Object.getPrototypeOf(v);
  return (prototype === Object.prototype || prototype === null) && Object.getOwnPropertySymbols(v).length === 0;
};
/** z.record(key, value) with at most `max` entries. */
const map =
  (key: Check, value: Check, max: number): Check =>
  (v) => {
    if (!isRecordLike(v)) return false;
    let entries = 0;
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      if (++entries > max || !key(k) || !value(v[k])) return false;
    }
    return true;
  };
const emptyList: Check = (v) => Array.isArray(v) && v.length === 0;
const emptyObject: Check = (v) => {
  if (!isRecordLike(v)) return false;
  for (const k in v) if (Object.hasOwn(v, k)) return false;
  return true;
};
/**
 * An object of `shape`, and no key besides (a key it does not list would be bounded as an id and
 * stripped by zod: "not sure"). Keys are counted, not looked up: a key of the shape whose value is
 * absent is not counted, so a key left over is one the shape does not list (or one set to undefined).
 */
const object = (shape: Readonly<Record<string, Check>>): Check => {
  const keys = Object.keys(shape);
  const checks = keys.map((k) => shape[k]!);
  return compiledObject(keys, checks) ?? interpretedObject(keys, checks);
};

/**
 * object()'s check as a function written for the shape: a property read and a call per key, each its
 * own site, so V8 reads each key through a monomorphic inline cache and inlines each check, where the
 * loop below reads every key at one megamorphic site and calls every check from one site. The loop
 * cost ~4% of the load generator's busy time at 1,000/s (docs/benchmarks-log.md, "Session 36"). The text
 * holds the shape's keys as JSON string literals and nothing else of the input; undefined where
 * code generation from strings is disallowed (--disallow-code-generation-from-strings): the loop then.
 */
function compiledObject(keys: readonly string[], checks: readonly Check[]): Check | undefined {
  const reads = keys.map(
    (key, i) => `f = v[${JSON.stringify(key)}]; if (!c${i}(f)) return false; if (f !== undefined) present++;`,
  );
  const body = `return function check(v) {
    if (!isPlainObject(v)) return false;
    let present = 0;
    let f;
    ${reads.join('\n    ')}
    let own = 0;
    for (const _ in v) own++;
    return own === present;
  };`;
  try {
    const make = new Function('isPlainObject', ...keys.map((_, i) => `c${i}`), body) as (...args: unknown[]) => Check;
    return make(isPlainObject, ...checks);
  } catch {
    return undefined;
  }
}

/** object()'s check as a loop over the shape's keys. */
function interpretedObject(keys: readonly string[], checks: readonly Check[]): Check {
  return (v) => {
    if (!isPlainObject(v)) return false;
    let present = 0;
    for (let i = 0; i < keys.length; i++) {
      const field = v[keys[i]!];
      if (!checks[i]!(field)) return false;
      if (field !== undefined) present++;
    }
    // Inherited enumerable keys (none but on a polluted prototype) count too: "not sure" then.
    let own = 0;
    for (const _ in v) own++;
    return own === present;
  };
}

const id = text(B.idChars);
const message = text(B.messageChars);
const datasetText = text(B.datasetTextChars);
const ms = nullable(nonNegative);
const score = nullable(finite);
/** A list of names or phrases: the schema's any strings, within the bounds an id list has (records/bounds.ts). */
const strings = list(id);
const citation = object({ citation_number: int, document_id: id });

/** ScoresSchema (records/scores.ts), key for key. */
export const SCORES_SHAPE: Readonly<Record<string, Check>> = (() => {
  const shape: Record<string, Check> = { citation_precision: score, citation_recall: score, citation_f1: score };
  const ranking = [
    'reciprocal_rank',
    ...['hit', 'precision', 'recall', 'ap', 'ndcg'].flatMap((p) => [1, 3, 5, 10].map((k) => `${p}_at_${k}`)),
  ];
  for (const key of ranking) shape[key] = score;
  for (const key of ranking) shape[`retrieval_${key}`] = score;
  for (const key of [
    'answer_f1',
    'rouge_l',
    'correctness',
    'groundedness',
    'relevance',
    'rubric',
    'tool_assertion',
    'tool_precision',
  ])
    shape[key] = orAbsent(score);
  Object.assign(shape, {
    duplicate_citations: int,
    invalid_citations: int,
    missing_phrases: strings,
    forbidden_phrases: strings,
    unmatched_patterns: orAbsent(strings),
    forbidden_matches: orAbsent(strings),
    no_answer_ok: nullable((v) => typeof v === 'boolean'),
    pass: (v: unknown) => typeof v === 'boolean',
    failed_conditions: orAbsent(strings),
    checked: orAbsent((v: unknown) => typeof v === 'boolean'),
  });
  return shape;
})();

/** AnswerFiguresSchema, key for key. */
export const ANSWER_FIGURES_SHAPE: Readonly<Record<string, Check>> = {
  outcome: (v) => OUTCOME_SET.has(v),
  error_code: nullable(id),
  error_message: nullable(message),
  ttfp_ms: ms,
  ttft_ms: ms,
  first_citation_ms: ms,
  total_ms: ms,
  time_per_delta_ms: ms,
  // Counted when reports are built, never written by a run (records/record.ts): absent, or as zod has them.
  output_tokens: orAbsent(nullable(count)),
  output_tokens_per_s: orAbsent(nullable(nonNegative)),
  tpot_per_token_ms: orAbsent(ms),
  first_packet_ms: map(id, nonNegative, B.packetTypes),
  first_packet_others: orAbsent(count),
  answer_gaps_ms: list(nonNegative, B.gaps),
  parts: count,
  answer_deltas: count,
  answer_chars: count,
  answer: nullable(text(B.answerChars)),
  answer_truncated: orAbsent((v) => typeof v === 'boolean'),
  citations: list(citation),
  marker_citations: orAbsent(list(citation)),
  cited_document_ids: list(id),
  top_document_ids: list(id),
  markers_without_citation: list(int),
  reasoning_chars: count,
  tool_errors: orAbsent(count),
  pre_answer_processing_seconds: orAbsent(nullable(finite)),
  output_chars_per_s: orAbsent(nullable(nonNegative)),
  tools_used: orAbsent(list(id)),
  scores: nullable(object(SCORES_SHAPE)),
  // Filled only by a judge or the user's checks: empty here, else zod decides.
  top_documents: orAbsent(emptyList),
  judge: orAbsent((v) => v === null),
  checks: orAbsent(emptyObject),
};

/** ModelFiguresSchema's own keys (beyond ANSWER_FIGURES_SHAPE). */
export const MODEL_FIGURES_SHAPE: Readonly<Record<string, Check>> = {
  ...ANSWER_FIGURES_SHAPE,
  model_index: count,
  model_name: nullable(id),
  message_id: orAbsent(nullable(int)),
};

export const ATTEMPT_SHAPE: Readonly<Record<string, Check>> = {
  attempt: count,
  outcome: (v) => OUTCOME_SET.has(v),
  http_status: nullable(int),
  error_code: nullable(id),
  retry_after_s: nullable(nonNegative),
  total_ms: ms,
};

export const RATE_LIMIT_SHAPE: Readonly<Record<string, Check>> = {
  retry_after_s: nullable(nonNegative),
  scope: nullable(id),
  reset_at: nullable(id),
};

/** RequestRecordSchema, key for key. */
export const RECORD_SHAPE: Readonly<Record<string, Check>> = {
  ...ANSWER_FIGURES_SHAPE,
  record_version: (v) => v === RECORD_VERSION,
  key: datasetText,
  question_id: datasetText,
  conversation: orAbsent(nullable(datasetText)),
  turn: orAbsent(nullable((v) => Number.isSafeInteger(v) && (v as number) > 0)),
  session: orAbsent(nullable((v) => SESSIONS.has(v))),
  question: datasetText,
  category: nullable(datasetText),
  set: datasetText,
  mode: (v) => v === 'stream' || v === 'full',
  repeat: count,
  expected_document_ids: list(datasetText, B.expectedItems),
  // A map's keys are bounded as ids (records/bounds.ts), its values as the dataset's texts.
  metadata: map(id, datasetText, B.mapEntries),
  reference_answer: orAbsent(nullable(datasetText)),
  rubric: orAbsent(nullable(datasetText)),
  human_verdict: orAbsent((v) => v === null),
  started_at: id,
  sent_offset_ms: nonNegative,
  scheduled_offset_ms: ms,
  queue_ms: ms,
  response_ms: ms,
  headers_ms: ms,
  http_status: nullable(int),
  content_type: nullable(id),
  rate_limit: nullable(object(RATE_LIMIT_SHAPE)),
  chat_session_id: nullable(id),
  message_id: nullable(int),
  unknown_parts: count,
  unknown_part_kinds: orAbsent(map((k) => typeof k === 'string', count, Number.MAX_SAFE_INTEGER)),
  decode_errors: count,
  token_index: nullable(count),
  attempts: list(object(ATTEMPT_SHAPE)),
  models: nullable(list(object(MODEL_FIGURES_SHAPE))),
  answered_models: orAbsent(nullable(int)),
  model_asked: orAbsent(strings),
  model_answered: orAbsent(nullable(strings)),
};

/** True when `record` surely passes RequestRecordSchema; false: ask zod (see the module header). */
export const surelyValidRecord: (record: unknown) => boolean = object(RECORD_SHAPE);

/**
 * surelyValidRecord with its top level checked by the loop (what a process that disallows code
 * generation from strings runs at every level): the fuzz tests hold the two to the same answers.
 */
export const surelyValidRecordByLoop: (record: unknown) => boolean = (() => {
  const keys = Object.keys(RECORD_SHAPE);
  return interpretedObject(
    keys,
    keys.map((k) => RECORD_SHAPE[k]!),
  );
})();

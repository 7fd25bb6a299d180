/**
 * @module records/record-fast-check
 * A hand-written check that a record surely passes RequestRecordSchema (records/record.ts), so that
 * results-file.ts skips zod's walk for the records a run writes by the thousand (it was a sixth of
 * the load generator's busy time at 200/s, issue 24). It is conservative: `true` only when every
 * field holds what the schema accepts; `false` means "not sure", never "invalid", and the caller then
 * asks zod, which decides and words the error. So the result of a write is zod's whatever this says.
 * An eval's documents, judge verdicts and check results are checked here too (an eval record has
 * them on both its write and every read of its reports: zod's walk of them was ~100 µs a record).
 *
 * `surelyCompleteRecord` asks more, for a line read back (app/store/read-records.ts): that zod's
 * output would be the value itself, every key zod defaults present. Every record this version writes
 * is such a line.
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
import { JUDGE_FIGURES } from './judge-figures.js';
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
/** zod's `.min(0).max(1)`: a judged score. */
const unit: Check = (v) => finite(v) && v >= 0 && v <= 1;
const bool: Check = (v) => typeof v === 'boolean';
const oneOf =
  (values: readonly unknown[]): Check =>
  (v) =>
    values.includes(v);
/** A list of names or phrases: the schema's any strings, within the bounds an id list has (records/bounds.ts). */
const strings = list(id);
const citation = object({ citation_number: int, document_id: id });
/**
 * z.partialRecord(z.enum(KEYS), value): only KEYS, each at most once (an object's keys are); a key
 * over an id's length cannot be one of them, so the bounds never cut it.
 */
const partialMap =
  (keys: readonly string[], value: Check): Check =>
  (v) => {
    if (!isRecordLike(v)) return false;
    for (const k in v) if (!Object.hasOwn(v, k) || !keys.includes(k) || !value(v[k])) return false;
    return true;
  };

/**
 * The shapes below, for one of two questions:
 * - `write`: does the record surely pass the schema? (results-file.ts, valid-record.ts: the writer
 *   writes the object it has, so a key zod would default may be absent);
 * - `read`: is zod's output this very value? (read-records.ts: a line read is used as parsed, so
 *   every key zod would default must be there; nothing is stripped, for no key is unlisted).
 * `defaulted` marks a key with a zod `.default()`; `orAbsent` one with `.optional()`, absent from
 * zod's output too.
 */
function shapes(question: 'write' | 'read') {
  const defaulted = (check: Check): Check => (question === 'write' ? orAbsent(check) : check);
  const SCORES = scoresShape(defaulted);
  const ANSWER_FIGURES = answerFiguresShape(defaulted, SCORES);
  /** ModelFiguresSchema's own keys (beyond ANSWER_FIGURES). */
  const MODEL_FIGURES: Record<string, Check> = {
    ...ANSWER_FIGURES,
    model_index: count,
    model_name: nullable(id),
    message_id: defaulted(nullable(int)),
  };
  return { SCORES, MODEL_FIGURES, RECORD: recordShape(defaulted, ANSWER_FIGURES, MODEL_FIGURES) };
}

/** ScoresSchema (records/scores.ts), key for key. */
function scoresShape(defaulted: (check: Check) => Check): Record<string, Check> {
  const SCORES: Record<string, Check> = { citation_precision: score, citation_recall: score, citation_f1: score };
  const ranking = [
    'reciprocal_rank',
    ...['hit', 'precision', 'recall', 'ap', 'ndcg'].flatMap((p) => [1, 3, 5, 10].map((k) => `${p}_at_${k}`)),
  ];
  for (const key of ranking) SCORES[key] = score;
  for (const key of ranking) SCORES[`retrieval_${key}`] = score;
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
    SCORES[key] = defaulted(score);
  Object.assign(SCORES, {
    duplicate_citations: int,
    invalid_citations: int,
    missing_phrases: strings,
    forbidden_phrases: strings,
    unmatched_patterns: defaulted(strings),
    forbidden_matches: defaulted(strings),
    no_answer_ok: nullable(bool),
    pass: bool,
    failed_conditions: defaulted(strings),
    checked: orAbsent(bool),
  });
  return SCORES;
}

/** What a judge and the user's checks read and write, as their schemas (records/quality.ts) hold it: no defaults. */
const QUALITY = (() => {
  /** DocumentTextSchema (records/quality.ts), key for key: a document the answer was given, kept for a judge. */
  const DOCUMENT: Record<string, Check> = {
    document_id: id,
    title: nullable(message),
    link: nullable(message),
    blurb: message,
    highlights: list(message),
  };
  /** JudgeVerdictSchema, key for key. */
  const VERDICT: Record<string, Check> = {
    status: oneOf(['ok', 'judge_error', 'not_applicable']),
    score: nullable(unit),
    reason: nullable(message),
    error: nullable(message),
    asks: list(nullable(unit)),
    cached: int,
  };
  /** JudgementSchema, key for key. */
  const JUDGEMENT: Record<string, Check> = {
    model: id,
    prompt_version: id,
    verdicts: partialMap(JUDGE_FIGURES, object(VERDICT)),
  };
  /** CheckResultSchema, key for key. */
  const CHECK_RESULT: Record<string, Check> = { score, reason: nullable(message), error: nullable(message) };
  return { DOCUMENT, VERDICT, JUDGEMENT, CHECK_RESULT };
})();

const ATTEMPT_CHECKS: Record<string, Check> = {
  attempt: count,
  outcome: (v) => OUTCOME_SET.has(v),
  http_status: nullable(int),
  error_code: nullable(id),
  retry_after_s: nullable(nonNegative),
  total_ms: ms,
};

const RATE_LIMIT_CHECKS: Record<string, Check> = {
  retry_after_s: nullable(nonNegative),
  scope: nullable(id),
  reset_at: nullable(id),
};

/** AnswerFiguresSchema, key for key. */
function answerFiguresShape(defaulted: (check: Check) => Check, SCORES: Record<string, Check>): Record<string, Check> {
  const { DOCUMENT, JUDGEMENT, CHECK_RESULT } = QUALITY;
  return {
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
    answer_truncated: defaulted(bool),
    citations: list(citation),
    marker_citations: defaulted(list(citation)),
    cited_document_ids: list(id),
    top_document_ids: list(id),
    markers_without_citation: list(int),
    reasoning_chars: count,
    tool_errors: defaulted(count),
    pre_answer_processing_seconds: defaulted(nullable(finite)),
    output_chars_per_s: defaulted(nullable(nonNegative)),
    tools_used: defaulted(list(id)),
    scores: nullable(object(SCORES)),
    // What a judge and the user's checks read and wrote (an eval's records; a load's keep them empty).
    top_documents: defaulted(list(object(DOCUMENT))),
    judge: defaulted(nullable(object(JUDGEMENT))),
    checks: defaulted(map(id, object(CHECK_RESULT), B.mapEntries)),
  };
}

/** RequestRecordSchema, key for key. */
function recordShape(
  defaulted: (check: Check) => Check,
  ANSWER_FIGURES: Record<string, Check>,
  MODEL_FIGURES: Record<string, Check>,
): Record<string, Check> {
  return {
    ...ANSWER_FIGURES,
    record_version: (v) => v === RECORD_VERSION,
    key: datasetText,
    question_id: datasetText,
    conversation: defaulted(nullable(datasetText)),
    turn: defaulted(nullable((v) => Number.isSafeInteger(v) && (v as number) > 0)),
    session: defaulted(nullable((v) => SESSIONS.has(v))),
    question: datasetText,
    category: nullable(datasetText),
    set: datasetText,
    mode: (v) => v === 'stream' || v === 'full',
    repeat: count,
    expected_document_ids: list(datasetText, B.expectedItems),
    // A map's keys are bounded as ids (records/bounds.ts), its values as the dataset's texts.
    metadata: map(id, datasetText, B.mapEntries),
    reference_answer: defaulted(nullable(datasetText)),
    rubric: defaulted(nullable(datasetText)),
    human_verdict: defaulted(nullable(oneOf(['pass', 'fail']))),
    started_at: id,
    sent_offset_ms: nonNegative,
    scheduled_offset_ms: ms,
    queue_ms: ms,
    response_ms: ms,
    headers_ms: ms,
    http_status: nullable(int),
    content_type: nullable(id),
    rate_limit: nullable(object(RATE_LIMIT_CHECKS)),
    chat_session_id: nullable(id),
    message_id: nullable(int),
    unknown_parts: count,
    unknown_part_kinds: orAbsent(map((k) => typeof k === 'string', count, Number.MAX_SAFE_INTEGER)),
    decode_errors: count,
    token_index: nullable(count),
    attempts: list(object(ATTEMPT_CHECKS)),
    models: nullable(list(object(MODEL_FIGURES))),
    answered_models: defaulted(nullable(int)),
    model_asked: orAbsent(strings),
    model_answered: orAbsent(nullable(strings)),
  };
}

const WRITE = shapes('write');
const READ = shapes('read');

/** The writer's shapes (and those with no default, the same for both), exported so that the fuzz tests hold them to the schemas key for key. */
export const SCORES_SHAPE: Readonly<Record<string, Check>> = WRITE.SCORES;
export const DOCUMENT_SHAPE: Readonly<Record<string, Check>> = QUALITY.DOCUMENT;
export const VERDICT_SHAPE: Readonly<Record<string, Check>> = QUALITY.VERDICT;
export const JUDGEMENT_SHAPE: Readonly<Record<string, Check>> = QUALITY.JUDGEMENT;
export const CHECK_RESULT_SHAPE: Readonly<Record<string, Check>> = QUALITY.CHECK_RESULT;
export const MODEL_FIGURES_SHAPE: Readonly<Record<string, Check>> = WRITE.MODEL_FIGURES;
export const ATTEMPT_SHAPE: Readonly<Record<string, Check>> = ATTEMPT_CHECKS;
export const RATE_LIMIT_SHAPE: Readonly<Record<string, Check>> = RATE_LIMIT_CHECKS;
export const RECORD_SHAPE: Readonly<Record<string, Check>> = WRITE.RECORD;

/** True when `record` surely passes RequestRecordSchema; false: ask zod (see the module header). */
export const surelyValidRecord: (record: unknown) => boolean = object(RECORD_SHAPE);

/**
 * True when RequestRecordSchema's output for `record` is surely `record` itself, deep-equal: it passes
 * (as surelyValidRecord), every key the schema defaults is there, and none is stripped. A line read
 * back (app/store/read-records.ts) is then used as parsed, without zod's walk and its copy: every
 * line this version writes. false: ask zod.
 */
export const surelyCompleteRecord: (record: unknown) => boolean = object(READ.RECORD);

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

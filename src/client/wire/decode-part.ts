/**
 * @module client/wire/decode-part
 * Turns the text of one NDJSON line or one SSE event's data into a StreamPart, and builds the
 * `decode_error` parts both framings emit. Every decode_error carries a short, detached excerpt, so a
 * run that keeps its errors never keeps the (up to maxLineBytes) lines they came from.
 */
import { classifyPart, type StreamPart } from '../../api/index.js';
import { decodeDeltaLine } from './delta-line.js';

/** Characters of the offending line kept in a decode_error. */
export const EXCERPT_CHARS = 200;
/** Bytes enough for EXCERPT_CHARS characters of any width. */
export const EXCERPT_BYTES = EXCERPT_CHARS * 4;
/** Characters of a reason kept in a decode_error (zod and JSON.parse messages can be long). */
const REASON_CHARS = 300;
/** Matches an empty or whitespace-only text (tried only when the text does not start with `{`). */
const BLANK = /^\s*$/;
const OPEN_BRACE = 0x7b;

const encoder = new TextEncoder();

type DecodeError = Extract<StreamPart, { kind: 'decode_error' }>;

/**
 * Parses and classifies one line/event text. A blank text yields undefined (skipped, not an error);
 * text that is not JSON, or JSON of no known part shape, yields a decode_error. Never throws.
 */
export function decodeText(text: string): StreamPart | undefined {
  // Most lines of a stream are answer deltas: read those without parsing the whole line.
  const delta = decodeDeltaLine(text);
  return delta !== undefined ? { kind: 'packet', part: delta } : decodeParsed(text);
}

/**
 * decodeText without its fast path for answer deltas: the whole line through JSON.parse. Exported so
 * that the fuzz test can hold the fast path to it.
 */
export function decodeParsed(text: string): StreamPart | undefined {
  if (text.charCodeAt(0) !== OPEN_BRACE && BLANK.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return decodeError(`not JSON: ${error instanceof Error ? error.message : String(error)}`, excerptOfText(text));
  }
  // The packets of an answer's body (most of every stream) are checked by hand; anything else, or
  // anything the hand check doubts, goes through the schemas, which also word every error.
  if (isHotPacket(value)) return { kind: 'packet', part: value };
  const head = hotHead(value);
  if (head !== undefined) return head;
  const part = classifyPart(value, '');
  return part.kind === 'decode_error' ? decodeError(part.reason, excerptOfText(text)) : part;
}

export const isInt = (v: unknown): boolean => Number.isSafeInteger(v);
const isNullishInt = (v: unknown): boolean => v === undefined || v === null || Number.isSafeInteger(v);
export const isNullishString = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
export const isNullish = (v: unknown, test: (v: unknown) => boolean): boolean =>
  v === undefined || v === null || test(v);
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/*
 * The tests handed to isNullish, every, isPlainRecord are module constants, not arrow functions written
 * at the call: V8 builds a new function object each time such an expression runs (every document of
 * every answer), ~1–2.7 KB a full answer (docs/benchmarks-log.md, "Session 40").
 */
export const isString = (v: unknown): boolean => typeof v === 'string';
export const isNumber = (v: unknown): boolean => typeof v === 'number';
export const isBoolean = (v: unknown): boolean => typeof v === 'boolean';
export const isAnything = (): boolean => true;
export const isStrings = (v: unknown): boolean => Array.isArray(v) && v.every(isString);
/** DocumentSourceSchema's rule (api/common.ts). */
const SOURCE = /^[a-z][a-z0-9_]*$/;

/**
 * SearchDocSchema (api/documents.ts) by hand. `is_internet` must be there: the schema defaults it,
 * so a document without it goes through the schema, which adds it.
 */
function isSearchDoc(d: unknown): boolean {
  if (!isRecord(d)) return false;
  return (
    typeof d.document_id === 'string' &&
    isInt(d.chunk_ind) &&
    typeof d.semantic_identifier === 'string' &&
    isNullishString(d.link) &&
    typeof d.blurb === 'string' &&
    typeof d.source_type === 'string' &&
    SOURCE.test(d.source_type) &&
    isInt(d.boost) &&
    typeof d.hidden === 'boolean' &&
    isMetadata(d.metadata) &&
    isNullish(d.score, isNumber) &&
    isNullish(d.is_relevant, isBoolean) &&
    isNullishString(d.relevance_explanation) &&
    isStrings(d.match_highlights) &&
    isNullishString(d.updated_at) &&
    isNullish(d.primary_owners, isStrings) &&
    isNullish(d.secondary_owners, isStrings) &&
    typeof d.is_internet === 'boolean' &&
    isNullishString(d.file_id)
  );
}

/** A z.record of string keys (a `__proto__` key goes through the schema). */
export function isPlainRecord(v: unknown, value: (v: unknown) => boolean): boolean {
  if (!isRecord(v)) return false;
  for (const key in v) {
    if (!Object.hasOwn(v, key) || key === '__proto__' || !value(v[key])) return false;
  }
  return true;
}

const isMetadataValue = (value: unknown): boolean => typeof value === 'string' || isStrings(value);
function isMetadata(v: unknown): boolean {
  return isPlainRecord(v, isMetadataValue);
}

export const isDocs = (v: unknown): boolean => Array.isArray(v) && v.every(isSearchDoc);

/**
 * The types checked by hand, each with the test of its fields: exactly what their schemas in
 * api/stream.ts require (a loose object: other fields pass), and none of them has a default or a
 * transform, so the value is what the schema would output. Any other type goes through the schema.
 */
type HotCheck = (obj: Record<string, unknown>) => boolean;
const HOT_TYPES: ReadonlyMap<string, HotCheck> = new Map<string, HotCheck>([
  ['message_delta', (obj) => typeof obj.content === 'string'],
  ['citation_info', (obj) => isInt(obj.citation_number) && typeof obj.document_id === 'string'],
  ['reasoning_delta', (obj) => typeof obj.reasoning === 'string'],
  ['reasoning_start', () => true],
  ['reasoning_done', () => true],
  ['section_end', () => true],
  ['chat_heartbeat', () => true],
  ['stop', (obj) => isNullishString(obj.stop_reason)],
  [
    'message_start',
    (obj) => isNullish(obj.final_documents, isDocs) && isNullish(obj.pre_answer_processing_seconds, isNumber),
  ],
  ['search_tool_documents_delta', (obj) => isDocs(obj.documents)],
  // The first packets of every answer with a search: one each per request, so by hand too.
  ['search_tool_start', (obj) => isNullish(obj.is_internet_search, isBoolean)],
  ['search_tool_queries_delta', (obj) => isStrings(obj.queries)],
  ['search_tool_filter_delta', (obj) => isNullish(obj.sources, isStrings)],
  // The next runtime's answer packets (upstream be8920ec): most of such a stream.
  ['pydantic_ai', (obj) => isPlainRecord(obj.event, isAnything) && isNullishString(obj.phase)],
  [
    'answer_metadata',
    (obj) => isNullish(obj.final_documents, isDocs) && isNullish(obj.pre_answer_processing_seconds, isNumber),
  ],
]);

type SessionCreated = Extract<StreamPart, { kind: 'session_created' }>;
type MessageIds = Extract<StreamPart, { kind: 'message_ids' }>;

/**
 * The two lines that open every stream (`{chat_session_id, incognito}` and `{user_message_id,
 * reserved_assistant_message_id}`), by hand, as api/stream.ts's kindOf and their schemas read them:
 * a line with any key that makes kindOf choose another kind, or without `incognito` (the schema
 * defaults it), goes through the schemas.
 */
function hotHead(value: unknown): SessionCreated | MessageIds | undefined {
  if (!isRecord(value) || 'obj' in value || 'error' in value || 'responses' in value) return undefined;
  if ('reserved_assistant_message_id' in value) {
    return isInt(value.reserved_assistant_message_id) &&
      isNullishInt(value.user_message_id) &&
      value.user_message_id !== undefined
      ? { kind: 'message_ids', part: value as MessageIds['part'] }
      : undefined;
  }
  if (typeof value.chat_session_id === 'string' && typeof value.incognito === 'boolean') {
    return { kind: 'session_created', part: value as SessionCreated['part'] };
  }
  return undefined;
}

type Packet = Extract<StreamPart, { kind: 'packet' }>['part'];

/** A `{placement, obj}` packet of a HOT_TYPES type whose fields and placement are right. */
function isHotPacket(value: unknown): value is Packet {
  if (typeof value !== 'object' || value === null) return false;
  const { placement, obj } = value as { placement?: unknown; obj?: unknown };
  if (
    typeof obj !== 'object' ||
    obj === null ||
    Array.isArray(obj) ||
    typeof placement !== 'object' ||
    placement === null ||
    Array.isArray(placement)
  )
    return false;
  const fields = HOT_TYPES.get((obj as { type?: unknown }).type as string);
  if (fields === undefined || !fields(obj as Record<string, unknown>)) return false;
  const p = placement as Record<string, unknown>;
  return (
    isInt(p.turn_index) && isNullishInt(p.tab_index) && isNullishInt(p.sub_turn_index) && isNullishInt(p.model_index)
  );
}

/** A decode_error whose reason is capped; `line` must already be an excerpt. */
export function decodeError(reason: string, line: string): DecodeError {
  return { kind: 'decode_error', reason: truncate(reason, REASON_CHARS), line };
}

/**
 * The first EXCERPT_CHARS characters of `text` as a new flat string. A plain `slice` would be a V8
 * sliced string that keeps the whole (possibly 16 MiB) parent alive; the round trip through bytes
 * copies only the excerpt.
 */
export function excerptOfText(text: string): string {
  return new TextDecoder().decode(encoder.encode(truncate(text, EXCERPT_CHARS)));
}

/**
 * The text of the first `byteLimit` (at most EXCERPT_BYTES) bytes of `chunks`, read in order, cut to
 * EXCERPT_CHARS characters; `…` marks that more followed. A character cut by the byte limit is
 * dropped rather than shown as U+FFFD. For an oversized line, pass a byteLimit every chunking is sure
 * to have received, so that the excerpt does not depend on where the chunks broke.
 */
export function excerptOfBytes(chunks: readonly Uint8Array[], byteLimit = EXCERPT_BYTES): string {
  const decoder = new TextDecoder();
  let text = '';
  let budget = Math.min(byteLimit, EXCERPT_BYTES);
  let total = 0;
  for (const chunk of chunks) {
    total += chunk.length;
    if (budget <= 0) continue;
    const piece = chunk.subarray(0, budget);
    budget -= piece.length;
    text += decoder.decode(piece, { stream: true });
  }
  const cut = total > Math.min(byteLimit, EXCERPT_BYTES) || text.length > EXCERPT_CHARS;
  return cut ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * @module records/bounds
 * The size bound of every field of a record (issue 23): whatever a service or a judge sends — a
 * 3 MB chat_session_id, document id or tool name, a packet type invented per packet, a 50 MB
 * reason — a results.jsonl line stays bounded. Strings are cut with a marker (`…[cut]`), lists keep
 * their first entries, the map of first packet times keeps its first RECORD_BOUNDS.packetTypes types and
 * counts the packets of the others (`first_packet_others`). The record schema (records/record.ts) enforces
 * the same bounds, so a line over them is never written and never read as valid.
 *
 * Pure. `boundRecord` returns its argument unchanged (the same object) when nothing is over a bound,
 * so a clean record costs one walk and no copy.
 */

/** Characters kept of a cut string, and the marker that ends it. */
export const CUT_MARKER = '…[cut]';

/** Every bound, by what it bounds. docs/limits.md lists them. */
export const RECORD_BOUNDS = {
  /** An id or a name the service sends: chat_session_id, document ids, tool and model names, packet types, content type, error code. */
  idChars: 512,
  /** A message: error_message, a judge's or check's reason, an error of the judge or a check. */
  messageChars: 2_000,
  /** The user's own texts copied from the dataset: question, its id and key, set, category, reference_answer, rubric, metadata, expected ids. */
  datasetTextChars: 64 * 1024,
  /** The answer text, whatever --max-answer-bytes says (its largest value is this many bytes). */
  answerChars: 64 * 1024 * 1024,
  /** Entries of a list the service fills: citations, document ids, markers, tools. */
  listItems: 500,
  /** The dataset's expected document ids of one question. */
  expectedItems: 10_000,
  /** Gaps between answer deltas kept (the first ones): a 1 MiB answer of one-word deltas stays readable. */
  gaps: 20_000,
  /** Packet types with a first time kept per map; packets of the others are counted in first_packet_others. */
  packetTypes: 64,
  /** Extra dataset columns (metadata) and user checks per record. */
  mapEntries: 200,
} as const;

/** `text` within `max` characters: its start and CUT_MARKER when it was longer. */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - CUT_MARKER.length))}${CUT_MARKER}` : text;
}

/** The bound of a string field by its key. */
function charsOf(key: string): number {
  switch (key) {
    case 'answer':
      return RECORD_BOUNDS.answerChars;
    case 'question':
    case 'reference_answer':
    case 'rubric':
    case 'metadata':
    case 'key':
    case 'question_id':
    case 'conversation':
    case 'set':
    case 'category':
    case 'expected_document_ids':
      return RECORD_BOUNDS.datasetTextChars;
    case 'error_message':
    case 'reason':
    case 'error':
    case 'blurb':
    case 'highlights':
    case 'link':
    case 'title':
      return RECORD_BOUNDS.messageChars;
    default:
      return RECORD_BOUNDS.idChars;
  }
}

/** The bound of a list field by its key. */
function itemsOf(key: string): number {
  return key === 'answer_gaps_ms'
    ? RECORD_BOUNDS.gaps
    : key === 'expected_document_ids'
      ? RECORD_BOUNDS.expectedItems
      : RECORD_BOUNDS.listItems;
}

/** Object fields whose keys are data (not field names): bounded in entries, keys cut as ids. */
const MAPS = new Set(['first_packet_ms', 'metadata', 'checks']);

/**
 * `record` with every field within RECORD_BOUNDS (see the module header). Works on any record-like
 * value (a record, an exchange, a model's figures); what it does not know it bounds as an id.
 */
export function boundRecord<T>(record: T): T {
  return walk(record, '') as T;
}

function walk(value: unknown, key: string): unknown {
  if (typeof value === 'string') return cutText(value, charsOf(key));
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const max = itemsOf(key);
    // Look first without building anything (most lists are within bounds), copy only when needed.
    let changed = value.length > max;
    for (let i = 0; !changed && i < value.length; i++) {
      const item: unknown = value[i];
      if ((typeof item === 'string' || (typeof item === 'object' && item !== null)) && walk(item, key) !== item)
        changed = true;
    }
    return changed ? (value.length > max ? value.slice(0, max) : value).map((item: unknown) => walk(item, key)) : value;
  }
  const record = value as Record<string, unknown>;
  if (MAPS.has(key)) return boundMap(record, key);
  if (withinBounds(record)) return value;
  const keys = Object.keys(record);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = walk(record[k], k);
  const firstPacket = record['first_packet_ms'];
  if (firstPacket !== null && typeof firstPacket === 'object') {
    const dropped = Object.keys(firstPacket).length - Object.keys(out['first_packet_ms'] as object).length;
    // At least one packet of each type left out.
    if (dropped > 0)
      out['first_packet_others'] =
        (typeof record['first_packet_others'] === 'number' ? record['first_packet_others'] : 0) + dropped;
  }
  return out;
}

/**
 * Whether walk leaves every field of `record` as it is: the look every record takes, so it builds
 * nothing (no key list, no callback; a record's fields are its own enumerable keys, as Object.keys has them).
 */
function withinBounds(record: Record<string, unknown>): boolean {
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue;
    const field = record[k];
    if (walk(field, k) !== field) return false;
  }
  return true;
}

/** A map field: its first entries, keys cut as ids, values walked as the map's own kind. */
function boundMap(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const max = key === 'first_packet_ms' ? RECORD_BOUNDS.packetTypes : RECORD_BOUNDS.mapEntries;
  const kind = key === 'checks' ? '' : key;
  // Looked at first without building anything: almost every map (often `{}`) is within its bounds.
  let entries = 0;
  let changed = false;
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue;
    const field = record[k];
    if (++entries > max || cutText(k, RECORD_BOUNDS.idChars) !== k || walk(field, kind) !== field) {
      changed = true;
      break;
    }
  }
  if (!changed) return record;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record).slice(0, max)) out[cutText(k, RECORD_BOUNDS.idChars)] = walk(record[k], kind);
  return out;
}

/**
 * @module client/wire/delta-line
 * The fast path for the most frequent line of every answer: a `message_delta` packet exactly as the
 * service's `json.dumps` writes it (Python's `", "` and `": "` separators, keys in this order):
 *
 *   {"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null[, "model_index": 0]}, "obj": {"type": "message_delta", "content": "…"}}
 *
 * Recognised by its fixed text and read field by field; only the content's string literal goes
 * through JSON.parse (its escapes), so no object is built for the rest of the line. The result is
 * what `JSON.parse(line)` gives on it (same values, same key order), which decode-part's hand check
 * of HOT_TYPES accepts as is: the fuzz test test/fuzz/delta-line.fuzz.test.ts compares both on
 * generated and mutated lines. Anything else — other spacing, key order, extra keys, a negative or
 * long integer, trailing whitespace — returns undefined and takes the full path.
 */
import type { StreamPart } from '../../api/index.js';

type Packet = Extract<StreamPart, { kind: 'packet' }>['part'];

const HEAD = '{"placement": {"turn_index": ';
const TAB = ', "tab_index": ';
const SUB_TURN = ', "sub_turn_index": ';
const MODEL = ', "model_index": ';
const OBJ = '}, "obj": {"type": "message_delta", "content": "';
const TAIL = '"}}';
/** Digits of an integer read here: 15 digits are always a safe integer, as the full path requires. */
const MAX_DIGITS = 15;
const ZERO = 0x30;
const NINE = 0x39;
const QUOTE = 0x22;
/** What readInt returns for text that is no integer (or null) it accepts. */
const NONE = -1;

/** Where the last readInt stopped: module state, so that reading a field allocates nothing. */
let end = 0;

/**
 * The `message_delta` packet of `text`, or undefined when the line is not exactly that shape (the
 * caller then parses it in full).
 */
export function decodeDeltaLine(text: string): Packet | undefined {
  if (!text.startsWith(HEAD) || !text.endsWith(TAIL)) return undefined;
  const turnIndex = readInt(text, HEAD.length, false);
  if (turnIndex === NONE || !text.startsWith(TAB, end)) return undefined;
  const tabIndex = readInt(text, end + TAB.length, true);
  if (tabIndex === NONE || !text.startsWith(SUB_TURN, end)) return undefined;
  const subTurnIndex = readInt(text, end + SUB_TURN.length, true);
  if (subTurnIndex === NONE) return undefined;
  let modelIndex: number | null | undefined;
  if (text.startsWith(MODEL, end)) {
    const read = readInt(text, end + MODEL.length, true);
    if (read === NONE) return undefined;
    modelIndex = read;
  }
  if (!text.startsWith(OBJ, end)) return undefined;
  const content = stringLiteral(text, end + OBJ.length - 1, text.length - TAIL.length + 1);
  if (content === undefined) return undefined;
  const placement =
    modelIndex === undefined
      ? { turn_index: turnIndex, tab_index: tabIndex, sub_turn_index: subTurnIndex }
      : { turn_index: turnIndex, tab_index: tabIndex, sub_turn_index: subTurnIndex, model_index: modelIndex };
  return { placement, obj: { type: 'message_delta', content } } as Packet;
}

/**
 * A plain non-negative integer (no sign, exponent, fraction or leading zero) at `at`, or null where
 * `nullable`; NONE otherwise. Sets `end` past what it read.
 */
function readInt(text: string, at: number, nullable: boolean): number | null {
  if (nullable && text.startsWith('null', at)) {
    end = at + 4;
    return null;
  }
  let value = 0;
  let i = at;
  for (; i < text.length && i - at <= MAX_DIGITS; i++) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE) break;
    value = value * 10 + (c - ZERO);
  }
  const digits = i - at;
  if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && text.charCodeAt(at) === ZERO)) return NONE;
  end = i;
  return value;
}

/**
 * The string the JSON literal text[from, to) (quotes included) stands for, or undefined when that
 * is not exactly one string literal (an unescaped quote inside, a bad escape, a raw control
 * character): JSON.parse checks all of it.
 */
function stringLiteral(text: string, from: number, to: number): string | undefined {
  if (to - from < 2 || text.charCodeAt(from) !== QUOTE) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(from, to));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

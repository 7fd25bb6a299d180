/**
 * @module client/wire/delta-line
 * The fast path for the most frequent line of every answer: a `message_delta` packet exactly as the
 * service's `json.dumps` writes it (Python's `", "` and `": "` separators, keys in this order):
 *
 *   {"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null[, "model_index": 0]}, "obj": {"type": "message_delta", "content": "…"}}
 *
 * Recognised by one anchored regular expression; only the content goes through JSON.parse (just
 * its string literal, see SLICED_MIN), so no object is built for the rest of the line. The result is
 * what `JSON.parse(line)` gives on it (same values, same key order), which decode-part's hand check
 * of HOT_TYPES accepts as is: the fuzz test test/fuzz/delta-line.fuzz.test.ts compares both on
 * generated and mutated lines. Anything else — other spacing, key order, extra keys, a negative or
 * long integer, trailing whitespace — returns undefined and takes the full path.
 */
import type { StreamPart } from '../../api/index.js';

type Packet = Extract<StreamPart, { kind: 'packet' }>['part'];

/**
 * The whole line, anchored: integers are plain (no sign, exponent, fraction or leading zero) and at
 * most 15 digits, so always the safe integers the full path requires; the content is a run of
 * unescaped characters or escapes, which JSON.parse checks when there is one. One native regex
 * match: far cheaper than reading the pieces one by one in JavaScript, and than JSON.parse.
 */
const DELTA_LINE =
  // eslint-disable-next-line no-control-regex -- JSON strings hold no raw control character
  /^\{"placement": \{"turn_index": (0|[1-9]\d{0,14}), "tab_index": (null|0|[1-9]\d{0,14}), "sub_turn_index": (null|0|[1-9]\d{0,14})(?:, "model_index": (null|0|[1-9]\d{0,14}))?\}, "obj": \{"type": "message_delta", "content": "((?:[^"\\\x00-\x1f]|\\[^\x00-\x1f])*)"\}\}$/;

/**
 * The `message_delta` packet of `text`, or undefined when the line is not exactly that shape (the
 * caller then parses it in full).
 */
export function decodeDeltaLine(text: string): Packet | undefined {
  const m = DELTA_LINE.exec(text);
  if (m === null) return undefined;
  const literal = m[5] ?? '';
  const content = literal.length < SLICED_MIN && !literal.includes('\\') ? literal : unescape(literal);
  if (content === undefined) return undefined;
  const turnIndex = Number(m[1]);
  const tabIndex = nullableInt(m[2]);
  const subTurnIndex = nullableInt(m[3]);
  const placement =
    m[4] === undefined
      ? { turn_index: turnIndex, tab_index: tabIndex, sub_turn_index: subTurnIndex }
      : { turn_index: turnIndex, tab_index: tabIndex, sub_turn_index: subTurnIndex, model_index: nullableInt(m[4]) };
  return { placement, obj: { type: 'message_delta', content } } as Packet;
}

/**
 * V8 keeps a capture of 13 characters or more as a slice of the line, which would keep the line and
 * the chunk's whole text alive for as long as the answer keeps the piece (collect holds every piece
 * until the request ends: thousands of streams of long answers). JSON.parse of the literal gives a
 * string of its own, and reads the escapes; a shorter capture is a copy already.
 */
const SLICED_MIN = 13;

const nullableInt = (digits: string | undefined): number | null => (digits === 'null' ? null : Number(digits));

/** The string of a literal's inside, as a string of its own; undefined when an escape is not valid JSON. */
function unescape(inside: string): string | undefined {
  try {
    return JSON.parse(`"${inside}"`) as string;
  } catch {
    return undefined;
  }
}

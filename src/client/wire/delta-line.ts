/**
 * @module client/wire/delta-line
 * The fast path for the most frequent line of every answer: a `message_delta` packet exactly as the
 * service's `json.dumps` writes it (Python's `", "` and `": "` separators, keys in this order):
 *
 *   {"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null[, "model_index": 0]}, "obj": {"type": "message_delta", "content": "…"}}
 *
 * Recognised by one anchored regular expression; the numbers are read in place and only a content
 * with escapes goes through JSON.parse (just its string literal), so no object is built for the
 * rest of the line. The result is
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
 * test, with no capture: captures cost a match array and a string each, per line; the line's shape
 * once known, its numbers and its content's bounds are read by position (readDelta).
 */
const DELTA_LINE =
  // eslint-disable-next-line no-control-regex -- JSON strings hold no raw control character
  /^\{"placement": \{"turn_index": (?:0|[1-9]\d{0,14}), "tab_index": (?:null|0|[1-9]\d{0,14}), "sub_turn_index": (?:null|0|[1-9]\d{0,14})(?:, "model_index": (?:null|0|[1-9]\d{0,14}))?\}, "obj": \{"type": "message_delta", "content": "(?:[^"\\\x00-\x1f]|\\[^\x00-\x1f])*"\}\}$/;

/** The fixed pieces of the line between its numbers, as DELTA_LINE spells them. */
const TURN_AT = '{"placement": {"turn_index": '.length;
const TAB = ', "tab_index": '.length;
const SUB_TURN = ', "sub_turn_index": '.length;
const MODEL = ', "model_index": '.length;
const CONTENT = '}, "obj": {"type": "message_delta", "content": "'.length;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const N = 0x6e;

/**
 * The `message_delta` packet of `text`, or undefined when the line is not exactly that shape (the
 * caller then parses it in full).
 */
export function decodeDeltaLine(text: string): Packet | undefined {
  return DELTA_LINE.test(text) ? readDelta(text) : undefined;
}

/**
 * The last placement read and its numbers: an answer's deltas share one placement (every answer of
 * a run, most often), so its object is made once, not per line. Parts are read, never written, so
 * packets may share it; the result is what a placement of its own would give.
 */
let last = { turn: -1, tab: -1 as number | null, subTurn: -1 as number | null, model: -1 as number | null | undefined };
let lastPlacement: Packet['placement'] = { turn_index: -1 };

/** Reads the numbers and the content of a line DELTA_LINE has matched (so every position is known). */
function readDelta(text: string): Packet | undefined {
  let at = readInt(text, TURN_AT);
  const turn = value as number;
  at = readInt(text, at + TAB);
  const tab = value;
  at = readInt(text, at + SUB_TURN);
  const subTurn = value;
  let model: number | null | undefined;
  if (text.charCodeAt(at) === COMMA) {
    at = readInt(text, at + MODEL);
    model = value;
  }
  at += CONTENT;
  const end = text.length - 3; // the closing quote, before `}}`
  const content = end - at < SLICED_MIN && !hasBackslash(text, at, end) ? text.slice(at, end) : unescape(text, at, end);
  if (content === undefined) return undefined;
  if (turn !== last.turn || tab !== last.tab || subTurn !== last.subTurn || model !== last.model) {
    last = { turn, tab, subTurn, model };
    lastPlacement =
      model === undefined
        ? { turn_index: turn, tab_index: tab, sub_turn_index: subTurn }
        : { turn_index: turn, tab_index: tab, sub_turn_index: subTurn, model_index: model };
  }
  return { placement: lastPlacement, obj: { type: 'message_delta', content } } as Packet;
}

/** What readInt read last (a module's scratch, so that no result object is made per number). */
let value: number | null = null;

/** Reads `null` or a plain integer of at most 15 digits (exact) at `at` into `value`; returns where it ends. */
function readInt(text: string, at: number): number {
  if (text.charCodeAt(at) === N) {
    value = null;
    return at + 4;
  }
  let n = 0;
  let c = text.charCodeAt(at);
  for (; c >= 0x30 && c <= 0x39; c = text.charCodeAt(++at)) n = n * 10 + (c - 0x30);
  value = n;
  return at;
}

/**
 * V8 keeps a substring of 13 characters or more as a slice of the line, which would keep the line
 * and the chunk's whole text alive for as long as the answer keeps the piece (collect holds every
 * piece until the request ends: thousands of streams of long answers). A shorter one is a copy.
 */
const SLICED_MIN = 13;

function hasBackslash(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === BACKSLASH) return true;
  return false;
}

/**
 * The content `text[from, to)` as a string of its own: with an escape, JSON.parse of the literal
 * (its quotes are the line's own) reads it, or undefined when an escape is not valid JSON; without
 * one, a copy made by joining the slice to one more character and cutting it off (flattening the
 * join copies the characters once; JSON.parse of a literal costs three times that).
 */
function unescape(text: string, from: number, to: number): string | undefined {
  if (!hasBackslash(text, from, to)) return `${text.slice(from, to)} `.slice(0, -1);
  try {
    return JSON.parse(text.slice(from - 1, to + 1)) as string;
  } catch {
    return undefined;
  }
}

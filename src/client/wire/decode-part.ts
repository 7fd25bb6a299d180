/**
 * @module client/wire/decode-part
 * Turns the text of one NDJSON line or one SSE event's data into a StreamPart, and builds the
 * `decode_error` parts both framings emit. Every decode_error carries a short, detached excerpt, so a
 * run that keeps its errors never keeps the (up to maxLineBytes) lines they came from.
 */
import { classifyPart, type StreamPart } from '../../api/index.js';

/** Characters of the offending line kept in a decode_error. */
export const EXCERPT_CHARS = 200;
/** Bytes enough for EXCERPT_CHARS characters of any width. */
export const EXCERPT_BYTES = EXCERPT_CHARS * 4;
/** Characters of a reason kept in a decode_error (zod and JSON.parse messages can be long). */
const REASON_CHARS = 300;
/** Matches an empty or whitespace-only text; fails at the first `{` of a normal line, so it is O(1) there. */
const BLANK = /^\s*$/;

const encoder = new TextEncoder();

type DecodeError = Extract<StreamPart, { kind: 'decode_error' }>;

/**
 * Parses and classifies one line/event text. A blank text yields undefined (skipped, not an error);
 * text that is not JSON, or JSON of no known part shape, yields a decode_error. Never throws.
 */
export function decodeText(text: string): StreamPart | undefined {
  if (BLANK.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return decodeError(`not JSON: ${error instanceof Error ? error.message : String(error)}`, excerptOfText(text));
  }
  const part = classifyPart(value, '');
  return part.kind === 'decode_error' ? decodeError(part.reason, excerptOfText(text)) : part;
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

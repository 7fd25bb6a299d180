/**
 * @module client/wire/detect-framing
 * Tells NDJSON from real SSE by the first bytes of the body, never by the content type: the deployed
 * service sends NDJSON under `text/event-stream` (docs/reference/wire-format.md "Stream framing").
 */

/** How the body is framed. */
export type Framing = 'ndjson' | 'sse';

const encoder = new TextEncoder();
const SSE_FIELD_PREFIXES = ['data:', 'event:', 'id:', 'retry:', ':'].map((prefix) => encoder.encode(prefix));
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Index of the first byte that is not a space, tab, CR or LF; -1 when the chunk is all whitespace.
 * Loops per byte, but only over leading whitespace, once per stream.
 */
export function firstNonWhitespace(chunk: Uint8Array): number {
  for (let i = 0; i < chunk.length; i += 1) {
    const byte = chunk[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0a) return i;
  }
  return -1;
}

/**
 * Decides the framing from `head`, the bytes from the first non-whitespace byte on. `{` or `[` →
 * ndjson; `data:`, `event:`, `id:`, `retry:` or `:` → sse; anything else → ndjson (its lines then
 * decode as errors). undefined while `head` is still a proper prefix of an SSE field (`da`, `ev`),
 * i.e. more bytes are needed; a head of 6 bytes always decides.
 */
export function detectFraming(head: Uint8Array): Framing | undefined {
  const first = head[0];
  if (first === undefined) return undefined;
  if (first === OPEN_BRACE || first === OPEN_BRACKET) return 'ndjson';
  let needMore = false;
  for (const prefix of SSE_FIELD_PREFIXES) {
    const compared = Math.min(prefix.length, head.length);
    if (!sameBytes(head, prefix, compared)) continue;
    if (compared === prefix.length) return 'sse';
    needMore = true;
  }
  return needMore ? undefined : 'ndjson';
}

function sameBytes(a: Uint8Array, b: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

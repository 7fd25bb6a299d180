/**
 * @module client/wire
 * The stream decoder of send-chat-message (stream=true): byte chunks in, StreamParts out. Pure: no
 * I/O, no clock. This is the load generator's hot path, so each chunk is scanned with
 * `indexOf(0x0a)` only, and a line's pieces are joined once, when its newline arrives.
 *
 * The framing (NDJSON as deployed, or real SSE) is read from the first non-whitespace bytes, never
 * from the content type; leading whitespace and blank lines are dropped before that.
 */
import type { StreamPart } from '../../api/index.js';
import { detectFraming, firstNonWhitespace, type Framing } from './detect-framing.js';
import type { Framer } from './framer.js';
import { createNdjsonFramer } from './ndjson-framer.js';
import { createSseFramer } from './sse-framer.js';

export type { Framing } from './detect-framing.js';

/** Default bound on one line (NDJSON) or one event (SSE): 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Decodes one response body. Create one per response. */
export interface StreamDecoder {
  /**
   * Decodes what the chunk completes; may return []. Never throws. The chunk's memory may be reused
   * by the caller once this returns. A line or event over the limit yields one decode_error part.
   */
  push(chunk: Uint8Array): StreamPart[];
  /**
   * Flushes a last line without newline (the deployed service ends with an unterminated
   * `{"error": ...}`), or a last SSE event without its blank line. Later calls of push() and end()
   * return []. Never throws.
   */
  end(): StreamPart[];
  /** Known once the first non-blank bytes arrive (a head like `da` waits for one more byte). */
  readonly framing: Framing | undefined;
}

/**
 * Creates a decoder. `maxLineBytes` (default 16 MiB) bounds the bytes buffered for one line or
 * event; it must be a positive integer (else RangeError, a programming error).
 */
export function createStreamDecoder(options: { maxLineBytes?: number } = {}): StreamDecoder {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
    throw new RangeError(`maxLineBytes must be a positive integer, got ${maxLineBytes}`);
  }
  let framer: Framer | undefined;
  // Bytes from the first non-whitespace byte while the framing is undecided: under 6 bytes.
  let head: Uint8Array[] = [];
  let ended = false;

  const start = (decided: Framing, pieces: readonly Uint8Array[], out: StreamPart[]): Framer => {
    decoder.framing = decided;
    const created = decided === 'sse' ? createSseFramer(maxLineBytes) : createNdjsonFramer(maxLineBytes);
    for (const piece of pieces) created.push(piece, out);
    head = [];
    return created;
  };

  // `framing` a data property set once decided, not a getter: a literal with an accessor is made by
  // the runtime, not from its boilerplate: ~4 µs a stream at 200/s in a profile (docs/benchmarks-log.md, session 38).
  const decoder: { -readonly [K in keyof StreamDecoder]: StreamDecoder[K] } = {
    push(chunk) {
      const out: StreamPart[] = [];
      if (ended) return out;
      if (framer !== undefined) {
        framer.push(chunk, out);
        return out;
      }
      let body = chunk;
      if (head.length === 0) {
        const first = firstNonWhitespace(chunk);
        if (first === -1) return out;
        body = chunk.subarray(first);
      }
      const decided = detectFraming(concat([...head, body.subarray(0, 6)]));
      if (decided === undefined) head.push(body.slice());
      else framer = start(decided, [...head, body], out);
      return out;
    },
    end() {
      const out: StreamPart[] = [];
      if (ended) return out;
      ended = true;
      // A body too short to decide (`dat`) is read as NDJSON: its one line becomes a decode_error.
      framer ??= head.length > 0 ? start('ndjson', head, out) : undefined;
      framer?.end(out);
      return out;
    },
    framing: undefined,
  };
  return decoder;
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1 && pieces[0] !== undefined) return pieces[0];
  const joined = new Uint8Array(pieces.reduce((total, piece) => total + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    joined.set(piece, offset);
    offset += piece.length;
  }
  return joined;
}

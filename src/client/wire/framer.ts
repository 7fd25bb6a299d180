/**
 * @module client/wire/framer
 * What the NDJSON and SSE framers have in common: bytes in, parts appended to `out`.
 */
import type { StreamPart } from '../../api/index.js';

/** One framing's decoder. Neither method throws; parts are appended to `out` in stream order. */
export interface Framer {
  push(chunk: Uint8Array, out: StreamPart[]): void;
  /** Flushes what is left (an unterminated last line or event) and resets the framer. */
  end(out: StreamPart[]): void;
}

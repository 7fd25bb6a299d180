/**
 * @module client/wire/ndjson-framer
 * Newline-delimited JSON, as the deployed service sends it (one `json.dumps` object per line, the
 * last line possibly unterminated). Bytes are split on 0x0A before any text is decoded: a newline
 * byte never occurs inside a UTF-8 multi-byte sequence, so a chunk boundary inside a character needs
 * no special case. The tail of a chunk waits in a list and is joined once, when its newline arrives.
 * The whole lines of a chunk that starts a line and is valid UTF-8 up to its last newline (most
 * chunks) are decoded as one text and split there: the same lines, one decoder call per chunk.
 */
import { isUtf8 } from 'node:buffer';
import type { StreamPart } from '../../api/index.js';
import { decodeError, decodeText, excerptOfBytes } from './decode-part.js';
import type { Framer } from './framer.js';

const LF = 0x0a;
const CR = 0x0d;
/** What the decoder makes of a byte that is not UTF-8; rare in valid text, so its absence proves validity cheaply. */
const REPLACEMENT = '\uFFFD';

/**
 * Creates the NDJSON framer. A line longer than `maxLineBytes` (newline excluded, a trailing CR
 * included) yields one decode_error as soon as the limit is crossed; the rest of that line is
 * discarded unseen, so no more than `maxLineBytes` are ever buffered.
 */
export function createNdjsonFramer(maxLineBytes: number): Framer {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let discarding = false;

  const reset = () => {
    pending = [];
    pendingBytes = 0;
  };
  const tooLong = (segment: Uint8Array, out: StreamPart[]) => {
    out.push(decodeError(`line exceeds ${maxLineBytes} bytes`, excerptOfBytes([...pending, segment], maxLineBytes)));
    reset();
  };
  const emitLine = (line: Uint8Array, out: StreamPart[]) => {
    const end = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
    // Decoded as pushWhole's lines are (a BOM kept); invalid UTF-8 is reported, not read as U+FFFD.
    const text = bufferOf(line).toString('utf8', 0, end);
    if (text.includes(REPLACEMENT) && !isUtf8(line.subarray(0, end))) {
      out.push(decodeError('line is not valid UTF-8', excerptOfBytes([line])));
      return;
    }
    const part = decodeText(text);
    if (part !== undefined) out.push(part);
  };

  /**
   * The common case at once: nothing pending. The chunk's bytes up to its last newline are decoded
   * as one string (one native call) and split there, instead of one decoder call and one view per
   * line. They are valid UTF-8 unless the text holds U+FFFD (what an invalid byte decodes to): only
   * then are the bytes checked (simdutf), and if invalid the byte path reads them, line by line.
   * A span shorter than `maxLineBytes` (every socket's chunk, but for a low limit) holds no line over
   * it: the text alone is split. Else each line's byte length comes from the bytes, its text from the
   * string (the n-th newline of both is the same). Returns where the bytes left off (0: declined).
   */
  const pushWhole = (chunk: Uint8Array, last: number, out: StreamPart[]): number => {
    const text = bufferOf(chunk).toString('utf8', 0, last + 1);
    if (text.includes(REPLACEMENT) && !isUtf8(chunk.subarray(0, last + 1))) return 0;
    if (last < maxLineBytes) {
      decodeLines(text, out);
      return last + 1;
    }
    let from = 0;
    let start = 0;
    for (let newline = chunk.indexOf(LF); newline !== -1 && newline <= last; newline = chunk.indexOf(LF, start)) {
      const at = text.indexOf('\n', from);
      if (newline - start > maxLineBytes) tooLong(chunk.subarray(start, newline), out);
      else {
        const end = at > from && text.charCodeAt(at - 1) === CR ? at - 1 : at;
        const part = decodeText(text.slice(from, end));
        if (part !== undefined) out.push(part);
      }
      start = newline + 1;
      from = at + 1;
    }
    return start;
  };

  return {
    push(chunk, out) {
      let start = 0;
      if (pendingBytes === 0 && !discarding) {
        const last = chunk.lastIndexOf(LF);
        if (last !== -1) start = pushWhole(chunk, last, out);
      }
      for (let newline = chunk.indexOf(LF, start); newline !== -1; newline = chunk.indexOf(LF, start)) {
        const segment = chunk.subarray(start, newline);
        if (discarding)
          discarding = false; // the oversized line ends here; its error is out already
        else if (pendingBytes + segment.length > maxLineBytes) tooLong(segment, out);
        else emitLine(join(pending, pendingBytes, segment), out);
        reset();
        start = newline + 1;
      }
      if (start === chunk.length || discarding) return;
      const tail = chunk.subarray(start);
      if (pendingBytes + tail.length > maxLineBytes) {
        tooLong(tail, out);
        discarding = true;
        return;
      }
      // A copy: the caller may reuse the chunk's memory once push() returns.
      pending.push(tail.slice());
      pendingBytes += tail.length;
    },
    end(out) {
      if (!discarding && pendingBytes > 0) emitLine(join(pending, pendingBytes, new Uint8Array(0)), out);
      reset();
      discarding = false;
    },
  };
}

/** Decodes every line of `text` (whole lines only; a CR before a newline dropped) into `out`. */
function decodeLines(text: string, out: StreamPart[]): void {
  let from = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
    const part = decodeText(text.slice(from, at > from && text.charCodeAt(at - 1) === CR ? at - 1 : at));
    if (part !== undefined) out.push(part);
    from = at + 1;
  }
}

/** The chunk as a Buffer, for its decoding with bounds (undici's chunks are Buffers already: no new view). */
function bufferOf(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}

/** The pending pieces followed by `last`, as one array; no copy when nothing is pending. */
function join(pending: readonly Uint8Array[], pendingBytes: number, last: Uint8Array): Uint8Array {
  if (pending.length === 0) return last;
  const line = new Uint8Array(pendingBytes + last.length);
  let offset = 0;
  for (const piece of pending) {
    line.set(piece, offset);
    offset += piece.length;
  }
  line.set(last, offset);
  return line;
}

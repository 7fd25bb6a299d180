/**
 * @module client/wire/ndjson-framer
 * Newline-delimited JSON, as the deployed service sends it (one `json.dumps` object per line, the
 * last line possibly unterminated). Bytes are split on 0x0A before any text is decoded: a newline
 * byte never occurs inside a UTF-8 multi-byte sequence, so a chunk boundary inside a character needs
 * no special case. The tail of a chunk waits in a list and is joined once, when its newline arrives.
 */
import type { StreamPart } from '../../api/index.js';
import { decodeError, decodeText, excerptOfBytes } from './decode-part.js';
import type { Framer } from './framer.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Creates the NDJSON framer. A line longer than `maxLineBytes` (newline excluded, a trailing CR
 * included) yields one decode_error as soon as the limit is crossed; the rest of that line is
 * discarded unseen, so no more than `maxLineBytes` are ever buffered.
 */
export function createNdjsonFramer(maxLineBytes: number): Framer {
  // `fatal` so that a line of invalid UTF-8 is reported, not silently turned into U+FFFD.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
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
    let text: string;
    try {
      text = utf8.decode(line.subarray(0, end));
    } catch {
      out.push(decodeError('line is not valid UTF-8', excerptOfBytes([line])));
      return;
    }
    const part = decodeText(text);
    if (part !== undefined) out.push(part);
  };

  return {
    push(chunk, out) {
      let start = 0;
      for (let newline = chunk.indexOf(LF); newline !== -1; newline = chunk.indexOf(LF, start)) {
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

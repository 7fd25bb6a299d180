/**
 * @module util/file-lines
 * The lines of a file others may have written (results.jsonl, reviews.jsonl, labels.jsonl), read
 * as a stream with a cap on each line: a hostile service or judge can make chatbench itself write
 * a line of hundreds of MB, and a file handed over may hold anything. A line past the cap is
 * refused as `file:line: line longer than N bytes` (InputError, exit 2) as soon as its bytes pass
 * the cap, never read whole. The carried part of a line is kept as a list of chunks and only each
 * new chunk is searched for a newline, so reading is linear in the file's size whatever its line
 * lengths (re-joining the carry with every chunk made one long line quadratic).
 */
import { createReadStream } from 'node:fs';
import { InputError } from '../errors.js';
import { formatCount, RUN_LINE_FLAG, runFileLineBytes } from './limits.js';

/** One line: its text (decoded as UTF-8, without its newline or a CR before it) and its byte place. */
export interface FileLine {
  readonly text: string;
  /** 1-based. */
  readonly number: number;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Bytes of the line, without its newline (and without a CR before it). */
  readonly length: number;
  /** False for a last line with no newline after it (a torn append, or an editor's habit). */
  readonly terminated: boolean;
}

export interface FileLinesOptions {
  /** How messages name the file (as the user gave it). */
  readonly name: string;
  /** Longest line in bytes, its newline not counted; default the process's --max-run-line-bytes (util/limits runFileLineBytes). */
  readonly maxLineBytes?: number;
  /** Stream chunk size (tests make it small to split lines everywhere). */
  readonly chunkBytes?: number;
}

/** `file:line: line longer than N bytes (--max-run-line-bytes)`. */
export const lineTooLong = (name: string, line: number, maxBytes: number): InputError =>
  new InputError([`${name}:${line}: line longer than ${formatCount(maxBytes)} bytes (${RUN_LINE_FLAG})`], {
    hint: `not a file chatbench wrote, or one a hostile service or judge filled; ${RUN_LINE_FLAG} raises the cap for a file you trust`,
  });

/** Streams the lines of file `full`; fs errors (ENOENT...) are thrown as they come. */
export async function* readFileLines(full: string, options: FileLinesOptions): AsyncGenerator<FileLine> {
  const max = options.maxLineBytes ?? runFileLineBytes();
  const input = createReadStream(full, options.chunkBytes === undefined ? {} : { highWaterMark: options.chunkBytes });
  let parts: Buffer[] = []; // the current line's bytes so far, from earlier chunks
  let carried = 0;
  let lineStart = 0; // byte offset of the current line in the file
  let number = 0;
  const finish = (tail: Buffer, terminated: boolean): FileLine => {
    const bytes = parts.length === 0 ? tail : Buffer.concat([...parts, tail], carried + tail.length);
    parts = [];
    carried = 0;
    const length = bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    number += 1;
    if (length > max) throw lineTooLong(options.name, number, max);
    return { text: bytes.toString('utf8', 0, length), number, offset: lineStart, length, terminated };
  };
  try {
    let position = 0;
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let from = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, from)) {
        const line = finish(chunk.subarray(from, nl), true);
        yield line;
        from = nl + 1;
        lineStart = position + from;
      }
      if (from < chunk.length) {
        parts.push(chunk.subarray(from));
        carried += chunk.length - from;
        // The line so far, less a CR that may end it, is already past the cap: refuse it now.
        if (carried > max + 1) throw lineTooLong(options.name, number + 1, max);
      }
      position += chunk.length;
    }
    if (carried > 0) yield finish(Buffer.alloc(0), false);
  } finally {
    input.destroy();
  }
}

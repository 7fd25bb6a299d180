/**
 * @module util/file-lines
 * The lines of a file others may have written (results.jsonl, reviews.jsonl, labels.jsonl), read
 * as a stream with a cap on each line: a hostile service or judge can make chatbench itself write
 * a line of hundreds of MB, and a file handed over may hold anything. A line past the cap is
 * refused as `file:line: line longer than N bytes` (InputError, exit 2) as soon as its bytes pass
 * the cap, never read whole. Only the bytes of each read are searched for a newline and the buffer
 * grows by doubling for a long line, so reading is linear in the file's size whatever its line
 * lengths (re-joining the carry with every chunk made one long line quadratic).
 *
 * The file is read into one buffer, reused for every read (a line's bytes so far move to its front
 * before the next): a stream's new 64 KB buffer per chunk, each freed only by a collection, left
 * glibc's heap with holes between the long-lived 64 KB blocks the reports' pass keeps (its columns'
 * and samples' chunks), tens of MB of a million-record pass's RSS (docs/benchmarks-log.md).
 */
import { open } from 'node:fs/promises';
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
  /** Bytes read at a time, 64 KB by default (tests make it small to split lines everywhere). */
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
  const size = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const file = await open(full, 'r');
  let buffer = Buffer.allocUnsafeSlow(size);
  let base = 0; // the file offset of buffer[0]
  let start = 0; // the current line's first byte in the buffer
  let end = 0; // bytes held
  let number = 0;
  const line = (to: number, terminated: boolean): FileLine => {
    const length = to > start && buffer[to - 1] === 0x0d ? to - start - 1 : to - start;
    number += 1;
    if (length > max) throw lineTooLong(options.name, number, max);
    return { text: buffer.toString('utf8', start, start + length), number, offset: base + start, length, terminated };
  };
  try {
    for (;;) {
      if (end === buffer.length) {
        // Room for the next read: the current line's bytes so far move to the front; a line past
        // half the buffer doubles it (linear in the line's length), and a buffer grown for a long
        // line goes back to its size once the line is read.
        const held = end - start;
        const target =
          held > buffer.length / 2 ? buffer.length * 2 : buffer.length > size && held <= size / 2 ? size : 0;
        const into = target === 0 ? buffer : Buffer.allocUnsafeSlow(target);
        buffer.copy(into, 0, start, end);
        buffer = into;
        base += start;
        start = 0;
        end = held;
      }
      const { bytesRead } = await file.read(buffer, end, buffer.length - end, null);
      if (bytesRead === 0) break;
      const scan = end; // only the new bytes can hold the line's newline
      end += bytesRead;
      const held = buffer.subarray(0, end);
      for (let nl = held.indexOf(0x0a, scan); nl !== -1; nl = held.indexOf(0x0a, start)) {
        yield line(nl, true);
        start = nl + 1;
      }
      // The line so far, less a CR that may end it, is already past the cap: refuse it now.
      if (end - start > max + 1) throw lineTooLong(options.name, number + 1, max);
    }
    if (end > start) yield line(end, false);
  } finally {
    await file.close();
  }
}

/** Bytes read at a time (a stream's default). */
const DEFAULT_CHUNK_BYTES = 64 * 1024;

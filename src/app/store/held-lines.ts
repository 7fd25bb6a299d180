/**
 * @module app/store/held-lines
 * results.jsonl's lines held between flushes as UTF-8 bytes (results-file.ts, corked). Lines are
 * encoded into a block as they come (each with its newline); flush() writes the bytes held since the
 * last one. Held as strings and joined at uncork, a tenth of a second of lines (360 KB at 1,000/s)
 * outlived one or two scavenges of the 4 MiB young generation (runner/young-generation.ts), which
 * copied them each time, and the join and the stream's encoding copied them twice more
 * (docs/benchmarks-log.md, "Session 35").
 *
 * A block whose writes have all ended is encoded into again. A new block's pages are the kernel's to
 * fault in and zero as the first line reaches each of them: with a new 256 KB block each time, one
 * line's encoding in ten took 30 µs instead of 1–2 at streamed 1,000/s (docs/benchmarks-log.md,
 * "Session 39: GC and the record path").
 */
import type { Writable } from 'node:stream';

/** Bytes of each block (a longer line gets a block of its own size). */
const BLOCK_BYTES = 256 * 1024;
/** Written blocks kept to encode into again. */
const SPARE_BLOCKS = 2;
const NEWLINE = 0x0a;

interface Block {
  readonly bytes: Buffer;
  /** Writes of its bytes that have not ended. */
  writes: number;
  /** No more lines go into it: it is spare once its writes end. */
  full: boolean;
}

export interface HeldLines {
  /** Encodes `line` and its newline after the lines held (a full block is written at once). */
  hold(line: string): void;
  /** Writes the bytes held since the last flush. */
  flush(): void;
}

export function createHeldLines(out: Pick<Writable, 'write'>): HeldLines {
  let block: Block = { bytes: Buffer.alloc(0), writes: 0, full: false };
  /** Where the bytes not written yet start in `block`, and where they end. */
  let start = 0;
  let used = 0;
  const spare: Block[] = [];
  const ended = (done: Block) => {
    done.writes -= 1;
    if (done.full && done.writes === 0 && spare.length < SPARE_BLOCKS) spare.push(done);
  };
  const send = () => {
    const sent = block;
    sent.writes += 1;
    // The block's later bytes are written after these: a write never sees them change.
    out.write(sent.bytes.subarray(start, used), () => ended(sent));
    start = used;
  };
  /** A block with room for `most` bytes: this one again once its writes have ended, a spare one, or a new one. */
  const next = (most: number): Block => {
    if (block.writes === 0 && block.bytes.length >= most) return block;
    block.full = true;
    if (block.writes === 0 && block.bytes.length > 0 && spare.length < SPARE_BLOCKS) spare.push(block);
    const reused = spare.pop();
    if (reused !== undefined && reused.bytes.length >= most) {
      reused.full = false;
      return reused;
    }
    return { bytes: Buffer.allocUnsafe(Math.max(BLOCK_BYTES, most)), writes: 0, full: false };
  };
  return {
    hold(line) {
      const most = line.length * 3 + 1; // UTF-8 takes at most 3 bytes per UTF-16 unit; and the newline
      if (block.bytes.length - used < most) {
        // Held bytes stay bounded however long a flush waits.
        if (used > start) send();
        block = next(most);
        start = used = 0;
      }
      used += block.bytes.write(line, used, 'utf8');
      block.bytes[used++] = NEWLINE;
    },
    flush() {
      if (used > start) send();
    },
  };
}

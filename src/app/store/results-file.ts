/**
 * @module app/store/results-file
 * results.jsonl as a run writes it: one line per record, appended as requests finish. Each record has
 * every secret of the run taken out (client/redact.ts: the clients did already; this is the last
 * gate before the disk), is cut to its bounds (records/bounds.ts) and checked against the record
 * schema (records/valid-record.ts), so whatever the service or the judge sent, the file stays
 * readable and every line bounded. A failed write (disk full, quota, I/O error) stops nothing by itself: the
 * next write() throws the OutputError, which stops the run (the runners surface an exception from
 * their record callback once every request in flight has ended), and close() rejects with it. Lines
 * written before the failure stay whole; a torn last line is what `--resume` cuts.
 */
import { finished } from 'node:stream/promises';
import type { OutputError } from '../../errors.js';
import type { RequestRecord } from '../../records/record.js';
import { validBoundedRecord } from '../../records/valid-record.js';
import { boundRecord } from '../../records/bounds.js';
import { surelyValidRecord } from '../../records/record-fast-check.js';
import { createSecretScreen, redactDeep } from '../../client/redact.js';
import { currentOutputFs, outputError } from './output-files.js';

export interface ResultsFile {
  /** Validates and appends one record; throws the OutputError once a write has failed. */
  write(record: RequestRecord): void;
  /**
   * Throws the OutputError once a write has failed. A runner's record callback calls it first, so
   * the run stops at the next record even when records are written later (after their verdicts).
   */
  assertWritable(): void;
  /** Records that failed the schema and were written as `invalid_response` instead. */
  readonly repaired: number;
  /**
   * Holds lines back until uncork (the load generator flushes ten times a second), which writes them
   * as one buffer: one stream write per flush, not one per record.
   */
  cork(): void;
  uncork(): void;
  /** Ends the file; rejects with the OutputError when any write failed. */
  close(): Promise<void>;
}

/** Bytes of each block the held lines are encoded into (a longer line gets a block of its own size). */
const BLOCK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;
/** Written blocks kept to encode into again (hold's comment says why). */
const SPARE_BLOCKS = 2;

/** A block of held lines' bytes: how many of its writes have not ended, and whether lines still go into it. */
interface Block {
  readonly bytes: Buffer;
  writes: number;
  full: boolean;
}

export interface ResultsFileOptions {
  /** Append to an existing file (a resumed run) instead of creating it. */
  readonly append?: boolean;
  /** The hint of the OutputError (how to continue). */
  readonly hint?: string;
  /** Every secret of the run (client/redact.ts runSecrets). */
  readonly secrets?: readonly string[] | undefined;
}

export function openResultsFile(path: string, options: ResultsFileOptions = {}): ResultsFile {
  const out = currentOutputFs().createWriteStream(path, { flags: options.append ? 'a' : 'w' });
  let failure: OutputError | undefined;
  let repaired = 0;
  out.on('error', (error) => (failure ??= outputError(path, error, options.hint)));
  const secrets = options.secrets ?? [];
  const mayHoldSecret = createSecretScreen(secrets);
  // Lines held while corked are encoded into `block` as they come (each with its newline); uncork
  // writes the bytes held since the last one. Held as strings and joined at uncork, a tenth of a
  // second of lines (360 KB at 1,000/s) outlived one or two scavenges of the 4 MiB young generation
  // (runner/young-generation.ts), which copied them each time, and the join and the stream's
  // encoding copied them twice more (docs/benchmarks.md, "Session 35").
  let corked = false;
  let block: Block = { bytes: Buffer.alloc(0), writes: 0, full: true };
  /** Where the bytes not written yet start in `block`, and where they end. */
  let start = 0;
  let used = 0;
  // A block whose every write has ended is encoded into again: a new one's pages are the kernel's to
  // fault in and zero as the first line reaches each of them, which made one line's encoding in ten
  // cost 15–80 times the others' at 1,000/s (docs/benchmarks.md, "Session 39").
  const spare: Block[] = [];
  const written = (done: Block) => {
    done.writes -= 1;
    if (done.full && done.writes === 0 && spare.length < SPARE_BLOCKS) spare.push(done);
  };
  const send = (from: number, to: number) => {
    const sent = block;
    sent.writes += 1;
    out.write(sent.bytes.subarray(from, to), () => written(sent));
  };
  const hold = (line: string) => {
    const most = line.length * 3 + 1; // UTF-8 takes at most 3 bytes per UTF-16 unit; and the newline
    if (block.bytes.length - used < most) {
      // A full block is written at once (in order): held bytes stay bounded however long a flush waits.
      if (used > start) send(start, used);
      block.full = true;
      if (block.writes === 0 && block.bytes.length > 0 && spare.length < SPARE_BLOCKS) spare.push(block);
      const reused = spare.pop();
      block =
        reused !== undefined && reused.bytes.length >= most
          ? reused
          : { bytes: Buffer.allocUnsafe(Math.max(BLOCK_BYTES, most)), writes: 0, full: false };
      block.full = false;
      start = used = 0;
    }
    used += block.bytes.write(line, used, 'utf8');
    block.bytes[used++] = NEWLINE;
  };
  const flush = () => {
    if (used === start) return;
    // The block's later bytes are written after these: a write never sees them change.
    send(start, used);
    start = used;
  };
  // The line as it would be written, bounded and checked; walked for secrets only when a quick look
  // at it finds one's marker (a walk of every string of every record cost ~47 µs a record). A record
  // the fast check passes is within every bound too (records/record-fast-check.ts): no bounds' walk.
  const lineOf = (record: RequestRecord): string => {
    if (surelyValidRecord(record)) return JSON.stringify(record);
    const bounded = boundRecord(record);
    const valid = validBoundedRecord(bounded);
    if (valid !== bounded) repaired += 1;
    return JSON.stringify(valid);
  };
  return {
    write(record) {
      if (failure) throw failure;
      const before = repaired;
      let line = lineOf(record);
      if (mayHoldSecret(line)) {
        repaired = before;
        line = lineOf(redactDeep(record, secrets));
      }
      if (corked) hold(line);
      else out.write(`${line}\n`);
    },
    assertWritable() {
      if (failure) throw failure;
    },
    get repaired() {
      return repaired;
    },
    cork: () => void (corked = true),
    uncork: () => {
      flush();
      corked = false;
    },
    async close() {
      if (!failure) {
        flush();
        corked = false;
        out.end();
        await finished(out).catch((error: unknown) => void (failure ??= outputError(path, error, options.hint)));
      } else {
        out.destroy();
      }
      if (failure) throw failure;
    },
  };
}

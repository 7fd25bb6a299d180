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
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { OutputError } from '../../errors.js';
import type { RequestRecord } from '../../records/record.js';
import { validBoundedRecord } from '../../records/valid-record.js';
import { boundRecord } from '../../records/bounds.js';
import { surelyValidRecord } from '../../records/record-fast-check.js';
import { createSecretScreen, redactDeep } from '../../client/redact.js';
import { createHeldLines } from './held-lines.js';
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
  /**
   * Resolves once the file's stream has taken in what it was given: a writer that produces lines
   * faster than the disk takes them (a pass over a whole file: app/load/score-results.ts) waits here.
   */
  drain(): Promise<void>;
  /** Ends the file; rejects with the OutputError when any write failed. */
  close(): Promise<void>;
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
  let corked = false;
  const held = createHeldLines(out);
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
      if (corked) held.hold(line);
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
      held.flush();
      corked = false;
    },
    async drain() {
      // A failed write ends the wait (the handler above keeps it): the next write() or close() throws it.
      if (!failure && out.writableNeedDrain) await once(out, 'drain').catch(() => undefined);
    },
    async close() {
      if (!failure) {
        held.flush();
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

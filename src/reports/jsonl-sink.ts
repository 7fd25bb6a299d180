/**
 * @module reports/jsonl-sink
 * results.jsonl: one record per line, appended as requests finish, so nothing holds every answer
 * in memory and an interrupted run still leaves every finished record on disk.
 */
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { RecordSink } from './sink.js';

/**
 * A sink writing each record as one JSON line to `out` (a file stream, stdout, or a PassThrough in
 * tests). write() hands the line to the stream and returns: the stream buffers, the hot path never
 * waits. close() ends the stream and resolves when it has finished (rejects on a stream error).
 */
export function createJsonlSink(out: Writable): RecordSink {
  return {
    name: 'jsonl',
    write: (record) => void out.write(`${JSON.stringify(record)}\n`),
    async close() {
      out.end();
      await finished(out);
    },
  };
}

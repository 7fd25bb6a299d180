/**
 * @module reports/sink
 * What takes records while the run goes (results.jsonl, results.csv). Sinks stream; renderers are
 * pure functions of a finished ReportInput (style.md §4.4).
 */
import type { RequestRecord } from '../records/record.js';

/** Gets each record as its request completes. write() never blocks or awaits (k6 output.Output). */
export interface RecordSink {
  readonly name: string;
  write(record: RequestRecord): void;
  /** Flushes what is left and ends the output; resolves once it is written. */
  close(): Promise<void>;
}

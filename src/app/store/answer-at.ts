/**
 * @module app/store/answer-at
 * An answer read back from its record's line in results.jsonl, by the byte offset the reports' pass
 * saw it at (app/store/read-records RecordEntry place): the run's data keeps that offset, not the
 * first answer's text (compare/run-data `answerAt`), and a comparison reads back only the answers
 * it lists. Synchronous: a comparison is pure and reads a question's answer as a field.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from '../../errors.js';
import { parseRecordLine } from './read-records.js';

/** Bytes read at a time while looking for the line's end. */
const CHUNK = 64 * 1024;

/** Reads the answer (the request's, or model `modelIndex`'s) of the record whose line starts at `offset` of `file`. */
export function answerReader(file: string): (offset: number, modelIndex: number | null) => string | null {
  return (offset, modelIndex) => {
    const record = recordAt(file, offset);
    if (modelIndex === null) return record.answer ?? null;
    return record.models?.find((m) => m.model_index === modelIndex)?.answer ?? null;
  };
}

function recordAt(file: string, offset: number) {
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let at = offset; ;) {
      const chunk = Buffer.alloc(CHUNK);
      const read = readSync(fd, chunk, 0, CHUNK, at);
      const end = chunk.subarray(0, read).indexOf(0x0a);
      chunks.push(chunk.subarray(0, end === -1 ? read : end));
      if (end !== -1 || read === 0) break;
      at += read;
    }
    const parsed = parseRecordLine(Buffer.concat(chunks).toString('utf8').replace(/\r$/, ''));
    if (!('record' in parsed))
      throw new InputError([`${file}: byte ${offset}: ${parsed.problem} (was the file replaced while it was open?)`]);
    return parsed.record;
  } finally {
    closeSync(fd);
  }
}

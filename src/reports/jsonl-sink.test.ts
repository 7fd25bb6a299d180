import { PassThrough, Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { makeRecord } from '../../test/fixtures/reports/fixture.js';
import { RequestRecordSchema } from '../records/record.js';
import { createJsonlSink } from './jsonl-sink.js';

it('writes one parseable record per line, and close() waits for the end', async () => {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const sink = createJsonlSink(out);
  const records = [makeRecord({ question_id: 'q1', set: 'a', answer: 'line one\nline "two"' }), makeRecord({ question_id: 'q2', set: 'a' })];
  for (const record of records) expect(sink.write(record)).toBeUndefined();
  await sink.close();
  expect(out.writableFinished).toBe(true);
  const lines = Buffer.concat(chunks).toString('utf8').split('\n');
  expect(lines).toHaveLength(3);
  expect(lines[2]).toBe('');
  expect(lines.slice(0, 2).map((l) => RequestRecordSchema.parse(JSON.parse(l)))).toEqual(records);
});

it('close() rejects when the stream fails', async () => {
  const out = new Writable({ write: (_chunk, _enc, done) => done(new Error('disk full')) });
  out.on('error', () => {}); // the failure is reported through close()
  const sink = createJsonlSink(out);
  sink.write(makeRecord({ question_id: 'q1', set: 'a' }));
  await expect(sink.close()).rejects.toThrow('disk full');
});

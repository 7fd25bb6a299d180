/**
 * Issue 7 §2, crash safety of results.jsonl as eval writes it (createJsonlSink over an fs write
 * stream): each record is one complete line, and what was written reaches the file (the kernel,
 * which a SIGKILL does not lose) well within a second, even after a burst, without close(). The
 * torn-tail cut of --resume is checked on its edge cases.
 */
import { appendFileSync, createWriteStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutTornTail } from '../../src/app/store/resume.js';
import { makeRecord } from '../../src/metrics/test-records.js';
import { RequestRecordSchema } from '../../src/records/record.js';
import { createJsonlSink } from '../../src/reports/index.js';
import { scratch } from './helpers.js';
import { waitFor } from '../helpers/spawn-cli.js';

/** Bytes of FILE on disk now; 0 before the file exists. */
const sizeOf = (file: string): number => (existsSync(file) ? statSync(file).size : 0);

/** Every line of FILE parsed as a record (throws on any that is not); their count. */
function validRecords(file: string): number {
  const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
  for (const line of lines) RequestRecordSchema.parse(JSON.parse(line));
  return lines.length;
}

describe('results.jsonl on disk while the run goes', () => {
  it('a burst of 5,000 records reaches the disk by itself, as complete lines, before close(); so does one more record after it', async () => {
    const file = join(scratch(), 'results.jsonl');
    const sink = createJsonlSink(createWriteStream(file));
    const records = Array.from({ length: 5_000 }, (_, i) =>
      makeRecord({ key: `q${i}|a|stream|0`, question_id: `q${i}` }),
    );
    const bytes = records.reduce((total, r) => total + Buffer.byteLength(JSON.stringify(r)) + 1, 0);
    for (const record of records) sink.write(record);
    // What is checked is that the sink flushes without being closed (a kill then loses nothing
    // written), not how fast this machine's disk is: no time bound but the hang guard.
    await waitFor(() => sizeOf(file) === bytes, 'every record on disk');
    expect(validRecords(file)).toBe(5_000);
    const last = makeRecord({ key: 'last|a|stream|0' });
    sink.write(last);
    await waitFor(
      () => sizeOf(file) === bytes + Buffer.byteLength(JSON.stringify(last)) + 1,
      'one more record on disk',
    );
    await sink.close();
  });
});

describe('cutTornTail', () => {
  it.each([
    { name: 'a clean file', content: 'a\nb\n', cut: 0, left: 'a\nb\n' },
    { name: 'a torn last line', content: 'a\nb\n{"key":"q', cut: 9, left: 'a\nb\n' },
    { name: 'a single torn line', content: '{"key":', cut: 7, left: '' },
    { name: 'an empty file', content: '', cut: 0, left: '' },
  ])('$name', async ({ content, cut, left }) => {
    const file = join(scratch(), 'results.jsonl');
    writeFileSync(file, content);
    expect(await cutTornTail(file)).toBe(cut);
    expect(readFileSync(file, 'utf8')).toBe(left);
  });

  it('a torn line longer than the read block (64 KiB), and a missing file', async () => {
    const dir = scratch();
    const file = join(dir, 'results.jsonl');
    writeFileSync(file, 'first\n');
    appendFileSync(file, 'x'.repeat(200_000));
    expect(await cutTornTail(file)).toBe(200_000);
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(await cutTornTail(join(dir, 'missing.jsonl'))).toBe(0);
  });
});

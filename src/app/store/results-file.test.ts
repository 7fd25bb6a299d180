import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { makeRecord } from '../../metrics/test-records.js';
import { seededUniform } from '../../plan/arrivals.js';
import { openResultsFile } from './results-file.js';

const ids = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { question_id: string }).question_id);

it('corked lines are written at uncork, in order, and close() writes what is still held', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'results-file-')), 'results.jsonl');
  const file = openResultsFile(path);
  file.write(makeRecord({ question_id: 'a' }));
  file.cork();
  file.write(makeRecord({ question_id: 'b' }));
  file.write(makeRecord({ question_id: 'c' }));
  file.uncork();
  file.cork();
  file.write(makeRecord({ question_id: 'd' }));
  await file.close();
  expect(ids(path)).toEqual(['a', 'b', 'c', 'd']);
});

it('a secret in a corked record is redacted like any other', async () => {
  const secret = 'onyx_pat_0123456789abcdef';
  const path = join(mkdtempSync(join(tmpdir(), 'results-file-')), 'results.jsonl');
  const file = openResultsFile(path, { secrets: [secret] });
  file.cork();
  file.write(makeRecord({ question_id: 'q', answer: `the token is ${secret}` }));
  file.uncork();
  await file.close();
  const text = readFileSync(path, 'utf8');
  expect(text).not.toContain(secret);
  expect(text).toContain('[redacted]');
});

/** Pieces of text JSON and UTF-8 treat each their own way: escapes, 2-, 3- and 4-byte characters, lone surrogates. */
const PIECES = [
  'a',
  ' ',
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  'ß',
  '€',
  '中',
  '😀',
  '\uD800',
  '\uDFFF',
  '\u2028',
  '…[cut]',
];
const NUMBERS = [0, -0, 1, 0.1, 1 / 3, 1e21, 1.5e-7, 2 ** 53 - 1, 123456.789];

it('writes each record as JSON.stringify has it, byte for byte, corked or not (fuzzed records)', async () => {
  // The same records on every run.
  const next = seededUniform(35);
  const text = (n: number) => Array.from({ length: n }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
  const number = () => NUMBERS[Math.floor(next() * NUMBERS.length)]!;
  const records = Array.from({ length: 300 }, (_, i) =>
    makeRecord({
      question_id: `q${i}`,
      question: text(Math.floor(next() * 40)),
      answer: next() < 0.2 ? null : text(Math.floor(next() * 400)),
      error_message: next() < 0.5 ? null : text(20),
      ttft_ms: next() < 0.3 ? null : number(),
      total_ms: number(),
      answer_gaps_ms: Array.from({ length: Math.floor(next() * 5) }, number),
      first_packet_ms: next() < 0.5 ? {} : { [text(5)]: number() },
      metadata: next() < 0.5 ? {} : { [text(4)]: text(6) },
      chat_session_id: next() < 0.5 ? null : text(12),
    }),
  );
  // A line longer than one block of held bytes, of 3- and 4-byte characters.
  records.push(makeRecord({ question_id: 'long', answer: '中😀'.repeat(120_000) }));
  const path = join(mkdtempSync(join(tmpdir(), 'results-file-')), 'results.jsonl');
  const file = openResultsFile(path);
  for (const [i, record] of records.entries()) {
    if (i % 50 === 0) file.cork();
    file.write(record);
    if (i % 50 === 37) file.uncork();
  }
  await file.close();
  expect(file.repaired).toBe(0);
  const expected = Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');
  expect(readFileSync(path).equals(expected)).toBe(true);
});

it('blocks written and encoded into again keep every line whole and in order (runs of blocks, flushes between writes ending)', async () => {
  // ~2.3 KB lines: a 256 KB block holds ~110, so 2,000 of them fill and reuse the spare blocks many times over.
  const records = Array.from({ length: 2_000 }, (_, i) =>
    makeRecord({ question_id: `q${i}`, answer: `${String(i).padStart(6, '0')} ${'é中'.repeat(i % 7)}`.repeat(100) }),
  );
  const path = join(mkdtempSync(join(tmpdir(), 'results-file-')), 'results.jsonl');
  const file = openResultsFile(path);
  file.cork();
  for (const [i, record] of records.entries()) {
    file.write(record);
    if (i % 97 === 0) {
      file.uncork();
      file.cork();
    }
    // Let some writes end (their blocks become spare) while lines are held.
    if (i % 300 === 0) await new Promise((done) => setTimeout(done, 20));
  }
  file.uncork();
  await file.close();
  const expected = Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');
  expect(readFileSync(path).equals(expected)).toBe(true);
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { makeRecord } from '../../metrics/test-records.js';
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

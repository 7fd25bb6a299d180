import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { MAX_LISTED_PROBLEMS, readDataset, scanDataset } from './read-csv.js';
import { addRow, emptySummary } from './summary.js';

const CSV = [
  'id,question,category,expected_documents,must_contain,expect_no_answer,conversation,turn,deep_research',
  'a,One?,hr,doc-1,,false,,,',
  'b,Two?,,,"word",true,,,true',
  'c,Three?,hr,,,false,c1,1,false',
  'd,Four?,it,,,false,c1,2,',
].join('\n');

describe('the dataset summary, folded while the rows stream', () => {
  it('counts what readDataset would have held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-summary-'));
    writeFileSync(join(dir, 'd.csv'), CSV);
    const summary = emptySummary();
    const shape = await scanDataset({ path: 'd.csv', cwd: dir }, { onRow: (row) => addRow(summary, row) });
    const whole = await readDataset({ path: 'd.csv', cwd: dir });
    expect(shape).toEqual({ path: whole.path, columns: whole.columns });
    expect(summary.questions).toBe(whole.rows.length);
    expect([...summary.categories]).toEqual([
      ['hr', 2],
      ['(none)', 1],
      ['it', 1],
    ]);
    expect([...summary.conversations]).toEqual([['c1', 2]]);
    expect([
      summary.withExpectedDocuments,
      summary.withPhraseChecks,
      summary.expectingNoAnswer,
      summary.settingDeepResearch,
      summary.askingDeepResearch,
    ]).toEqual([1, 1, 1, 2, 1]);
  });
});

describe('a dataset wrong on every row', () => {
  it('is refused with its first MAX_LISTED_PROBLEMS problems by line and a count of the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-problems-'));
    const rows = Array.from({ length: MAX_LISTED_PROBLEMS + 2 }, (_, i) => `q${i},Question ${i}?,extra`);
    writeFileSync(join(dir, 'bad.csv'), ['id,question', ...rows].join('\n'));
    const error = await scanDataset({ path: 'bad.csv', cwd: dir }, { onRow: () => undefined }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    const problems = (error as InputError).problems;
    expect(problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(problems[0]).toBe('bad.csv:2: 3 cells but the header has 2 columns (quote cells that contain a comma)');
    expect(problems[MAX_LISTED_PROBLEMS - 1]).toMatch(/^bad\.csv:1001: /);
    expect(problems.at(-1)).toBe('bad.csv: 2 more problems (the first 1,000 by line are listed)');
  });
});

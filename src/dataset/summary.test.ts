import { describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataset, scanDataset } from './read-csv.js';
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
    expect([...summary.categories]).toEqual([['hr', 2], ['(none)', 1], ['it', 1]]);
    expect([...summary.conversations]).toEqual([['c1', 2]]);
    expect([summary.withExpectedDocuments, summary.withPhraseChecks, summary.expectingNoAnswer, summary.settingDeepResearch, summary.askingDeepResearch]).toEqual([1, 1, 1, 2, 1]);
  });
});

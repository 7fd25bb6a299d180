/**
 * Issue 23: the eval plan reads its rows again from the dataset file (dataset/row-source) instead of
 * holding them; the plan's digest, which --resume compares, must stay what main computed when it
 * held every row.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareEval } from '../../src/app/eval/run-eval.js';
import { trickyCsv } from '../helpers/tricky-csv.js';

const dir = mkdtempSync(join(tmpdir(), 'chatbench-digest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'tricky.csv'), trickyCsv(300));
const file = { path: 'tricky.csv', cwd: dir };

describe('the plan digest (resume depends on it) is what main computes', () => {
  // Computed by main at 5c63f91 (rows held in memory) with prepareEval on trickyCsv(300) in tricky.csv.
  it.each([
    {
      mode: 'both' as const,
      repeat: 2,
      total: 1200,
      digest: 'da94d20be1c49be05896b3f7ff1dea4523d8cbee020128dea23390a6174779b7',
    },
    {
      mode: 'full' as const,
      repeat: 1,
      total: 300,
      digest: 'ea2a4bc9f9516e3db8cf5be734b653207923bfdea0ecec5d3c932f2725c01711',
    },
  ])('--mode $mode --repeat $repeat', async ({ mode, repeat, total, digest }) => {
    const prepared = await prepareEval({ datasetPath: file.path, setFlags: [], mode, repeat, cwd: file.cwd });
    expect(prepared.plannedTotal).toBe(total);
    expect(prepared.wholePlanSha256).toBe(digest);
  });
});

/**
 * Issue 27 §3: `draft-expectations` turns a real eval against the simulator into a dataset draft
 * that validate and eval accept, proposing for the questions without expectations the documents the
 * answers cited, and refuses bad input in one line (exit 2), a hostile results.jsonl included.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadCorpus, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';

let sim: RunningSimulator;
let dir: string;

const run = async (args: string[]) => {
  const fake = createFakeIo({ cwd: dir });
  const code = await main(args, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
};

beforeAll(async () => {
  sim = await startSimulator({ config: { chat: { time_scale: 0.003 } }, corpus: await loadCorpus() });
  dir = mkdtempSync(join(tmpdir(), 'chatbench-draft-'));
  writeFileSync(
    join(dir, 'q.csv'),
    [
      'id,question,expected_documents,category,note',
      'pto,How many days of paid time off do full-time employees receive per calendar year?,,hr,"kept, as is"',
      'leave,How many weeks of fully paid parental leave does Northwind offer?,hr-parental-leave,hr,',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'sets.json'), JSON.stringify({ sets: [{ name: 'a' }, { name: 'b' }] }));
  const evalRun = await run([
    'eval',
    '--base-url',
    sim.baseUrl,
    '--token',
    TOKENS.demo,
    '--dataset',
    'q.csv',
    '--sets-file',
    'sets.json',
    '--judge',
    'off',
    '--out',
    'run',
  ]);
  expect(evalRun.stderr).not.toMatch(/internal error/);
  expect(evalRun.code).toBe(0);
}, 30_000);
afterAll(async () => sim?.close());

describe('draft-expectations', () => {
  it('proposes the cited documents of questions without expectations; the draft validates', async () => {
    const drafted = await run(['draft-expectations', 'run', '--min-sets', '2']);
    expect(drafted.stderr).toBe('');
    expect(drafted.code).toBe(0);
    expect(drafted.stdout).toMatch(/proposed expected_documents for 1, kept 1, none found for 0/);
    const rows = parse(readFileSync(join(dir, 'run', 'expectations-draft.csv'), 'utf8'), { columns: true });
    expect(rows).toEqual([
      expect.objectContaining({ id: 'pto', expected_documents: 'hr-pto-policy', note: 'kept, as is' }),
      expect.objectContaining({ id: 'leave', expected_documents: 'hr-parental-leave', note: '' }),
    ]);
    const candidates = JSON.parse(readFileSync(join(dir, 'run', 'expectations-draft.candidates.json'), 'utf8'));
    expect(candidates.questions[0]).toMatchObject({ id: 'pto', expected: [], proposed: ['hr-pto-policy'], answers: 2 });
    expect(candidates.questions[0].candidates[0]).toMatchObject({
      document_id: 'hr-pto-policy',
      title: 'Paid time off policy',
      sets_cited: 2,
    });
    expect(candidates.questions[1]).toMatchObject({ expected: ['hr-parental-leave'], proposed: [] });
    const validated = await run(['validate', '--dataset', 'run/expectations-draft.csv', '--sim']);
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);
  });

  it.each([
    { args: ['draft-expectations', 'nowhere'], message: /^chatbench: nowhere: no such run directory/ },
    { args: ['draft-expectations', 'run', '--top', '0'], message: /--top must be a whole number from 1/ },
    { args: ['draft-expectations', 'run', '--dataset', 'missing.csv'], message: /missing\.csv/ },
  ])('refuses $args in one line, exit 2', async ({ args, message }) => {
    const refused = await run(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(message);
    expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('refuses a results.jsonl line past --max-run-line-bytes without reading it whole', async () => {
    mkdirSync(join(dir, 'hostile'));
    writeFileSync(join(dir, 'hostile', 'results.jsonl'), `{"a":"${'x'.repeat(2_000_000)}`);
    const refused = await run(['--max-run-line-bytes', '1MiB', 'draft-expectations', 'hostile', '--dataset', 'q.csv']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/results\.jsonl/);
    expect(refused.stderr).not.toMatch(/internal error/);
  });
});

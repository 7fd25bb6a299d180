/**
 * A load run writes its records as measured and scores them once its last byte is in
 * (src/app/load/score-results.ts), in-process through main() against the simulator (at 1/50 of its
 * real pace). What is checked against what chatbench did not compute in the run: each record's
 * scores are its own question's (metrics/score computeScores over the dataset row's expectations,
 * read here from the CSV), for seeded random draws in the closed and the open model and for
 * conversations, whose turns share an arrival's index; the pass over a file of measured records
 * gives the scored file byte for byte; a file holding a line that is not a record is left as it
 * was, with no temporary file beside it.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measuredRecord } from '../../src/app/load/load-record.js';
import { prepareLoad } from '../../src/app/load/prepare-load.js';
import { scoreResults } from '../../src/app/load/score-results.js';
import { main } from '../../src/cli/main.js';
import { readDataset } from '../../src/dataset/index.js';
import { computeScores } from '../../src/metrics/score.js';
import { LoadSpecSchema } from '../../src/plan/load-plan.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import type { UnscoredRecord } from '../../src/runner/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const DATASET = 'datasets/sample.csv';
const scratch = () => mkdtempSync(join(tmpdir(), 'chatbench-load-scoring-'));
const lines = (out: string) => readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
const records = (out: string): RequestRecord[] => lines(out).map((line) => RequestRecordSchema.parse(JSON.parse(line)));

async function load(args: string[]) {
  const out = join(scratch(), 'run');
  const fake = createFakeIo();
  const sim = await startSim();
  const target = ['--base-url', sim.baseUrl, '--token', TOKENS.demo];
  const code = await main(['load', ...target, '--dataset', DATASET, '--out', out, ...args], fake.io);
  expect(code, fake.stderr()).toBe(0);
  return out;
}

/** Every record scored as its question's row says, and every ok one scored at all. */
async function expectScoredByTheirRows(out: string): Promise<void> {
  const rows = new Map((await readDataset({ path: DATASET, cwd: process.cwd() })).rows.map((r) => [r.id, r]));
  const written = records(out);
  expect(written.filter((r) => r.outcome === 'ok').length).toBeGreaterThan(0);
  for (const record of written) {
    const row = rows.get(record.question_id)!;
    expect(record.scores, record.key).toEqual(computeScores(record, row.expectations));
    expect(record.reference_answer, record.key).toBe(row.expectations.reference_answer ?? null);
  }
  expect(readdirSync(out).filter((name) => name.includes('.tmp'))).toEqual([]);
}

describe('load: records scored after the last byte', () => {
  it("scores each record from its own question's row, with the questions drawn at random", async () => {
    const out = await load(['--concurrency', '4', '--requests', '24', '--mode', 'full', '--question-order', 'random']);
    await expectScoredByTheirRows(out);
    // Drawn at random, so the pass found rows by arrival, not by line: several questions, not one.
    expect(new Set(records(out).map((r) => r.question_id)).size).toBeGreaterThan(3);
  });

  it("scores each turn of a conversation from its own row (the turns share their arrival's index)", async () => {
    const out = await load(['--conversations', '--concurrency', '2', '--requests', '4', '--mode', 'full']);
    const turns = records(out).filter((r) => r.turn !== null && r.turn > 1);
    expect(turns.length).toBeGreaterThan(0);
    await expectScoredByTheirRows(out);
  });

  it('gives, from a file of measured records, the scored file byte for byte; a line that is no record leaves the file as it was', async () => {
    // The open model this time: arrivals at a rate, drawn at random.
    const out = await load(['--rate', '40', '--duration', '0.5s', '--mode', 'stream', '--question-order', 'random']);
    await expectScoredByTheirRows(out);
    const scored = readFileSync(join(out, 'results.jsonl'), 'utf8');
    const measured = `${lines(out)
      .map((line) => JSON.stringify(measuredRecord(JSON.parse(line) as UnscoredRecord)))
      .join('\n')}\n`;
    expect(measured).not.toBe(scored);
    expect(measured).toContain('"scores":null');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { load: unknown };
    const spec = LoadSpecSchema.parse(manifest.load);
    const prepared = await prepareLoad({
      operation: 'chat',
      mode: spec.mode,
      datasetPath: DATASET,
      setFlags: [],
      cwd: process.cwd(),
    });

    const again = scratch();
    writeFileSync(join(again, 'results.jsonl'), measured);
    expect(await scoreResults(again, { prepared, spec, secrets: [] })).toBe(lines(out).length);
    expect(readFileSync(join(again, 'results.jsonl'), 'utf8')).toBe(scored);
    expect(readdirSync(again)).toEqual(['results.jsonl']);

    const torn = scratch();
    const [first, ...rest] = measured.trim().split('\n');
    const withBadLine = `${[first, '{"not":"a record"}', ...rest].join('\n')}\n`;
    writeFileSync(join(torn, 'results.jsonl'), withBadLine);
    expect(await scoreResults(torn, { prepared, spec, secrets: [] })).toBe(0);
    expect(readFileSync(join(torn, 'results.jsonl'), 'utf8')).toBe(withBadLine);
    expect(readdirSync(torn)).toEqual(['results.jsonl']);
  });
});

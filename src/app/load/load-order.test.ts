/**
 * A seeded load plan sends the same questions in the same order whatever holds the dataset's rows:
 * the orders below were recorded on the plan that held every row in memory (before the rows were
 * read by offset, dataset/row-source), so reading the dataset as a stream changed no run.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLoadPlan } from '../../plan/load-plan.js';
import { planInput } from './load-record.js';
import { LoadSpecSchema, prepareLoad } from './run-load.js';

const dir = mkdtempSync(join(tmpdir(), 'load-order-'));
const csv = join(dir, 'questions.csv');
writeFileSync(
  csv,
  [
    'id,question,conversation,turn,must_contain',
    ...Array.from({ length: 12 }, (_, i) => `q${i},question ${i}?,,,word${i}`),
    'c1,first of c1?,c1,1,',
    'c2,first of c2?,c2,1,',
    'c1b,second of c1?,c1,2,',
    'q12,question 12?,,,',
  ].join('\n') + '\n',
);

const spec = (question_order: 'sequential' | 'random', conversations: boolean) =>
  LoadSpecSchema.parse({
    operation: 'chat',
    mode: 'stream',
    model: 'open',
    rate: 1,
    arrival: 'constant',
    max_in_flight: 100,
    stages: null,
    duration_ms: 1000,
    requests: null,
    warmup_ms: 0,
    cooldown_ms: 0,
    seed: 42,
    question_order,
    set: 'default',
    tokens: 1,
    token_weights: null,
    shard: null,
    start_at: null,
    conversations,
  });

const digest = (payload: string | null) =>
  createHash('sha256')
    .update(payload ?? '')
    .digest('hex')
    .slice(0, 8);

async function order(question_order: 'sequential' | 'random', conversations: boolean): Promise<string[]> {
  const prepared = await prepareLoad({ operation: 'chat', mode: 'stream', datasetPath: csv, setFlags: [], cwd: dir });
  const plan = createLoadPlan(planInput(prepared, spec(question_order, conversations)));
  return Array.from({ length: 24 }, (_, n) =>
    plan
      .conversationFor(n)
      .map((r) => `${r.planned.question_id}:${r.planned.expectations.must_contain.join('|')}:${digest(r.payload)}`)
      .join('+'),
  );
}

describe('a seeded load plan sends the questions it sent when the rows were held in memory', () => {
  it.each([
    ['sequential', false],
    ['random', false],
    ['sequential', true],
    ['random', true],
  ] as const)('%s order, conversations %s', async (question_order, conversations) => {
    expect(await order(question_order, conversations)).toEqual(RECORDED[`${question_order}/${conversations}`]);
  });
});

const RECORDED: Record<string, string[]> = {
  'sequential/false': [
    'q0:word0:a4166d07',
    'q1:word1:b7e5a6b0',
    'q2:word2:6340a5f6',
    'q3:word3:32d214ac',
    'q4:word4:6b9a7778',
    'q5:word5:7f982208',
    'q6:word6:7ba4589b',
    'q7:word7:49262106',
    'q8:word8:f53e6c2b',
    'q9:word9:2556312e',
    'q10:word10:f9fdaf69',
    'q11:word11:f7bf3de5',
    'c1::011f054f',
    'c2::24ecdec8',
    'c1b::9eff8d21',
    'q12::e56fa57d',
    'q0:word0:a4166d07',
    'q1:word1:b7e5a6b0',
    'q2:word2:6340a5f6',
    'q3:word3:32d214ac',
    'q4:word4:6b9a7778',
    'q5:word5:7f982208',
    'q6:word6:7ba4589b',
    'q7:word7:49262106',
  ],
  'sequential/true': [
    'q0:word0:a4166d07',
    'q1:word1:b7e5a6b0',
    'q2:word2:6340a5f6',
    'q3:word3:32d214ac',
    'q4:word4:6b9a7778',
    'q5:word5:7f982208',
    'q6:word6:7ba4589b',
    'q7:word7:49262106',
    'q8:word8:f53e6c2b',
    'q9:word9:2556312e',
    'q10:word10:f9fdaf69',
    'q11:word11:f7bf3de5',
    'c1::011f054f+c1b::9eff8d21',
    'c2::24ecdec8',
    'q12::e56fa57d',
    'q0:word0:a4166d07',
    'q1:word1:b7e5a6b0',
    'q2:word2:6340a5f6',
    'q3:word3:32d214ac',
    'q4:word4:6b9a7778',
    'q5:word5:7f982208',
    'q6:word6:7ba4589b',
    'q7:word7:49262106',
    'q8:word8:f53e6c2b',
  ],
  'random/false': [
    'q6:word6:7ba4589b',
    'q0:word0:a4166d07',
    'c2::24ecdec8',
    'q7:word7:49262106',
    'c1b::9eff8d21',
    'q6:word6:7ba4589b',
    'q5:word5:7f982208',
    'q4:word4:6b9a7778',
    'c1::011f054f',
    'q3:word3:32d214ac',
    'q2:word2:6340a5f6',
    'q8:word8:f53e6c2b',
    'q2:word2:6340a5f6',
    'c2::24ecdec8',
    'q3:word3:32d214ac',
    'q6:word6:7ba4589b',
    'q12::e56fa57d',
    'q0:word0:a4166d07',
    'c1::011f054f',
    'q5:word5:7f982208',
    'c1b::9eff8d21',
    'q1:word1:b7e5a6b0',
    'q10:word10:f9fdaf69',
    'q10:word10:f9fdaf69',
  ],
  'random/true': [
    'q5:word5:7f982208',
    'q0:word0:a4166d07',
    'c1::011f054f+c1b::9eff8d21',
    'q6:word6:7ba4589b',
    'c2::24ecdec8',
    'q6:word6:7ba4589b',
    'q4:word4:6b9a7778',
    'q4:word4:6b9a7778',
    'c1::011f054f+c1b::9eff8d21',
    'q3:word3:32d214ac',
    'q2:word2:6340a5f6',
    'q8:word8:f53e6c2b',
    'q2:word2:6340a5f6',
    'c1::011f054f+c1b::9eff8d21',
    'q2:word2:6340a5f6',
    'q5:word5:7f982208',
    'q12::e56fa57d',
    'q0:word0:a4166d07',
    'q11:word11:f7bf3de5',
    'q5:word5:7f982208',
    'c2::24ecdec8',
    'q1:word1:b7e5a6b0',
    'q10:word10:f9fdaf69',
    'q9:word9:2556312e',
  ],
};

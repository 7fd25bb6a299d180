import { describe, expect, it } from 'vitest';
import { DatasetRowSchema, type DatasetRow } from '../dataset/index.js';
import type { SetDefinition } from '../sets/index.js';
import { buildPlan } from './build-plan.js';
import { createLoadPlan } from './load-plan.js';
import { shardOfRecord, type PlanOutline } from './record-owner.js';

const row = (id: string): DatasetRow => DatasetRowSchema.parse({ line: 2, id, question: `question ${id}` });
const set = (name: string, multi = false): SetDefinition => ({ name, llm_override: null, llm_overrides: multi ? [{}, {}] : null, multi });
const rows = ['q1', 'q2', 'q10', 'a|b'].map(row);

describe('shardOfRecord', () => {
  it.each([1, 2, 3, 7])('eval: every request of a plan belongs to the shard that plan gives it (%d shards)', (count) => {
    const sets = [set('fast'), set('duo', true), set('x|y')];
    const plan = buildPlan({ rows, sets, defaults: {}, mode: 'both', repeat: 3 });
    const outline: PlanOutline = { command: 'eval', questionIds: rows.map((r) => r.id), sets, mode: 'both', repeat: 3, shardCount: count };
    expect(plan.map((p) => shardOfRecord(outline, p))).toEqual(plan.map((p) => (p.index % count) + 1));
  });

  it('eval: a record of no plan says why', () => {
    const outline: PlanOutline = { command: 'eval', questionIds: ['q1'], sets: [set('fast'), set('duo', true)], mode: 'both', repeat: 2, shardCount: 2 };
    const r = (question_id: string, s: string, mode: string, repeat: number, key = `${question_id}|${s}|${mode}|${repeat}`) => shardOfRecord(outline, { key, question_id, set: s, mode, repeat });
    expect(r('q1', 'fast', 'full', 1)).toBe(1); // plan index 4: (repeat 1 × 1 question + 0) × 3 + 1
    expect(r('q9', 'fast', 'full', 0)).toEqual({ reason: 'question "q9" is not in the run\'s dataset' });
    expect(r('q1', 'slow', 'full', 0)).toEqual({ reason: 'set "slow" is not one of the plan\'s sets' });
    expect(r('q1', 'duo', 'full', 0)).toEqual({ reason: 'mode full is not planned for set duo' });
    expect(r('q1', 'fast', 'full', 2)).toEqual({ reason: 'repeat 2 is outside the plan\'s 2 repeats' });
    expect(r('q1', 'fast', 'full', 0, 'q1|fast|full|1')).toEqual({ reason: 'its key does not match its question_id, set, mode and repeat' });
  });

  it.each(['sequential', 'random'] as const)('load (%s): arrival k is shard k mod N + 1 and asks the plan\'s question', (order) => {
    const plan = createLoadPlan({ operation: 'chat', rows, set: set('fast'), defaults: {}, mode: 'full', order, seed: 7 });
    const outline: PlanOutline = { command: 'load', questionIds: rows.map((r) => r.id), set: 'fast', mode: 'full', order, seed: 7, total: 40, shardCount: 3 };
    const planned = Array.from({ length: 40 }, (_, k) => plan.requestFor(k).planned);
    expect(planned.map((p) => shardOfRecord(outline, p))).toEqual(planned.map((_, k) => (k % 3) + 1));
    const other = planned.find((p) => p.question_id !== planned[0]!.question_id)!;
    expect(shardOfRecord(outline, { ...planned[0]!, question_id: other.question_id, key: `${other.question_id}|fast|full|0` })).toMatchObject({ reason: expect.stringMatching(/^arrival 0 asks/) });
    expect(shardOfRecord(outline, { ...planned[0]!, repeat: 40, key: `${planned[0]!.question_id}|fast|full|40` })).toEqual({ reason: 'arrival 40 is outside the plan\'s 40' });
  });
});

import { describe, expect, it } from 'vitest';
import { DatasetRowSchema, type DatasetRow } from '../dataset/index.js';
import type { SetDefinition } from '../sets/index.js';
import { buildPlan, planRequests } from './build-plan.js';
import { createLoadPlan } from './load-plan.js';
import { shardOfRecord, type PlanOutline } from './record-owner.js';
import { selectShard } from './shard.js';

const row = (id: string): DatasetRow => DatasetRowSchema.parse({ line: 2, id, question: `question ${id}` });
const set = (name: string, multi = false): SetDefinition => ({
  name,
  llm_override: null,
  llm_overrides: multi ? [{}, {}] : null,
  multi,
});
const rows = ['q1', 'q2', 'q10', 'a|b'].map(row);

describe('shardOfRecord', () => {
  it.each([1, 2, 3, 7])(
    'eval: every request of a plan belongs to the shard that plan gives it (%d shards)',
    (count) => {
      const sets = [set('fast'), set('duo', true), set('x|y')];
      const input = { rows, sets, defaults: {}, mode: 'both', repeat: 3 } as const;
      const plan = buildPlan(input);
      // The shard each request is planned in, by the plan itself.
      const planned = new Map(
        Array.from({ length: count }, (_, i) =>
          [...planRequests(input, { index: i + 1, count })].map((p) => [p.key, i + 1] as const),
        ).flat(),
      );
      const outline: PlanOutline = {
        command: 'eval',
        questionIds: rows.map((r) => r.id),
        units: null,
        sets,
        mode: 'both',
        repeat: 3,
        shardCount: count,
      };
      expect(planned.size).toBe(plan.length);
      expect(plan.map((p) => shardOfRecord(outline, p))).toEqual(plan.map((p) => planned.get(p.key)));
    },
  );

  it('eval: a record of no plan says why', () => {
    const outline: PlanOutline = {
      command: 'eval',
      questionIds: ['q1'],
      units: null,
      sets: [set('fast'), set('duo', true)],
      mode: 'both',
      repeat: 2,
      shardCount: 2,
    };
    const r = (
      question_id: string,
      s: string,
      mode: string,
      repeat: number,
      key = `${question_id}|${s}|${mode}|${repeat}`,
    ) => shardOfRecord(outline, { key, question_id, set: s, mode, repeat });
    expect(r('q1', 'fast', 'full', 1)).toBe(1); // q1 is the dataset's first unit: shard 1 of 2
    expect(r('q9', 'fast', 'full', 0)).toEqual({ reason: 'question "q9" is not in the run\'s dataset' });
    expect(r('q1', 'slow', 'full', 0)).toEqual({ reason: 'set "slow" is not one of the plan\'s sets' });
    expect(r('q1', 'duo', 'full', 0)).toEqual({ reason: 'mode full is not planned for set duo' });
    expect(r('q1', 'fast', 'full', 2)).toEqual({ reason: "repeat 2 is outside the plan's 2 repeats" });
    expect(r('q1', 'fast', 'full', 0, 'q1|fast|full|1')).toEqual({
      reason: 'its key does not match its question_id, set, mode and repeat',
    });
  });

  it.each(['sequential', 'random'] as const)(
    "load (%s): arrival k is shard k mod N + 1 and asks the plan's question",
    (order) => {
      const plan = createLoadPlan({
        operation: 'chat',
        rows,
        set: set('fast'),
        defaults: {},
        mode: 'full',
        order,
        seed: 7,
      });
      const outline: PlanOutline = {
        command: 'load',
        questionIds: rows.map((r) => r.id),
        units: null,
        set: 'fast',
        mode: 'full',
        order,
        seed: 7,
        total: 40,
        shardCount: 3,
      };
      const planned = Array.from({ length: 40 }, (_, k) => plan.requestFor(k).planned);
      expect(planned.map((p) => shardOfRecord(outline, p))).toEqual(planned.map((_, k) => (k % 3) + 1));
      const other = planned.find((p) => p.question_id !== planned[0]!.question_id)!;
      expect(
        shardOfRecord(outline, {
          ...planned[0]!,
          question_id: other.question_id,
          key: `${other.question_id}|fast|full|0`,
        }),
      ).toMatchObject({ reason: expect.stringMatching(/^arrival 0 asks/) });
      expect(
        shardOfRecord(outline, { ...planned[0]!, repeat: 40, key: `${planned[0]!.question_id}|fast|full|40` }),
      ).toEqual({ reason: "arrival 40 is outside the plan's 40" });
    },
  );

  // Conversations: a unit (a conversation under one set, mode and repeat) is whole in one shard.
  const turn = (id: string, conversation: string, n: number): DatasetRow =>
    DatasetRowSchema.parse({ line: 2, id, question: `question ${id}`, conversation, turn: String(n) });
  const talk = [
    row('q1'),
    turn('c1', 'pto', 1),
    turn('c2', 'pto', 2),
    row('q2'),
    turn('c3', 'pto', 3),
    turn('t1', 'travel', 1),
    turn('t2', 'travel', 2),
  ];
  const units = [['q1'], ['c1', 'c2', 'c3'], ['q2'], ['t1', 't2']];

  it.each([1, 2, 3, 5])(
    'eval with conversations: every record belongs to the shard selectShard put its request in (%d shards)',
    (count) => {
      const sets = [set('fast'), set('duo', true)];
      const plan = buildPlan({ rows: talk, sets, defaults: {}, mode: 'both', repeat: 2 });
      const outline: PlanOutline = {
        command: 'eval',
        questionIds: talk.map((r) => r.id),
        units,
        sets,
        mode: 'both',
        repeat: 2,
        shardCount: count,
      };
      for (let i = 1; i <= count; i += 1) {
        for (const p of selectShard(plan, { index: i, count })) expect(shardOfRecord(outline, p), p.key).toBe(i);
      }
    },
  );

  it.each(['sequential', 'random'] as const)(
    'load --conversations (%s): every turn of arrival k is shard k mod N + 1, and a question of another conversation is refused',
    (order) => {
      const plan = createLoadPlan({
        operation: 'chat',
        rows: talk,
        set: set('fast'),
        defaults: {},
        mode: 'full',
        order,
        seed: 7,
        conversations: true,
      });
      const outline: PlanOutline = {
        command: 'load',
        questionIds: talk.map((r) => r.id),
        units,
        set: 'fast',
        mode: 'full',
        order,
        seed: 7,
        total: 20,
        shardCount: 3,
      };
      for (let k = 0; k < 20; k += 1) {
        for (const request of plan.conversationFor(k))
          expect(shardOfRecord(outline, request.planned)).toBe((k % 3) + 1);
      }
      const first = plan.conversationFor(0)[0]!.planned;
      const stranger = talk.find((r) => !plan.conversationFor(0).some((t) => t.planned.question_id === r.id))!.id;
      expect(shardOfRecord(outline, { ...first, question_id: stranger, key: `${stranger}|fast|full|0` })).toMatchObject(
        { reason: expect.stringMatching(/^arrival 0 plays /) },
      );
    },
  );
});

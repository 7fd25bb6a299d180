import { describe, expect, it } from 'vitest';
import { DatasetRowSchema, type DatasetRow } from '../dataset/index.js';
import type { SetDefinition } from '../sets/index.js';
import { buildPlan, createEvalPlan } from './build-plan.js';
import { continuationAfter, followUpBody } from './conversation.js';
import { selectShard } from './shard.js';
import { forcedToolId, toolIdsOf, toolProblems } from './tools.js';

const row = (id: string, cells: Record<string, string> = {}, line = 2): DatasetRow =>
  DatasetRowSchema.parse({ line, id, question: `question ${id}`, ...cells });
const fast: SetDefinition = {
  name: 'fast',
  llm_override: { model_version: 'gpt-4o-mini' },
  llm_overrides: null,
  multi: false,
};
const duo: SetDefinition = {
  name: 'duo',
  llm_override: null,
  llm_overrides: [{ model_version: 'a' }, { model_version: 'b' }],
  multi: true,
  continue_with: 1,
};

describe('buildPlan with conversations', () => {
  const rows = [
    row('c#1', { conversation: 'c', turn: '1' }),
    row('lone'),
    row('c#2', { conversation: 'c', turn: '2' }),
  ];

  it('a conversation is one unit per set × mode × repeat, its turns in order, each following the one before', () => {
    const plan = buildPlan({ rows, sets: [fast, duo], defaults: {}, mode: 'both', repeat: 2 });
    expect(plan.map((p) => [p.key, p.unit, p.conversation?.turn ?? null, p.conversation?.follows ?? null])).toEqual([
      ['c#1|fast|stream|0', 0, 1, null],
      ['c#2|fast|stream|0', 0, 2, 0],
      ['c#1|fast|full|0', 1, 1, null],
      ['c#2|fast|full|0', 1, 2, 2],
      ['c#1|duo|stream|0', 2, 1, null],
      ['c#2|duo|stream|0', 2, 2, 4],
      ['lone|fast|stream|0', 3, null, null],
      ['lone|fast|full|0', 4, null, null],
      ['lone|duo|stream|0', 5, null, null],
      ['c#1|fast|stream|1', 6, 1, null],
      ['c#2|fast|stream|1', 6, 2, 9],
      ['c#1|fast|full|1', 7, 1, null],
      ['c#2|fast|full|1', 7, 2, 11],
      ['c#1|duo|stream|1', 8, 1, null],
      ['c#2|duo|stream|1', 8, 2, 13],
      ['lone|fast|stream|1', 9, null, null],
      ['lone|fast|full|1', 10, null, null],
      ['lone|duo|stream|1', 11, null, null],
    ]);
    expect(plan.find((p) => p.set === 'duo' && p.conversation)?.conversation).toMatchObject({
      id: 'c',
      turns: 2,
      continue_with: 1,
    });
  });

  it('shards keep every conversation whole, and together are the whole plan', () => {
    const plan = buildPlan({ rows, sets: [fast, duo], defaults: {}, mode: 'both', repeat: 2 });
    const shards = [1, 2, 3].map((index) => selectShard(plan, { index, count: 3 }));
    expect(
      shards
        .flat()
        .map((p) => p.index)
        .sort((a, b) => a - b),
    ).toEqual(plan.map((p) => p.index));
    for (const shard of shards) {
      for (const p of shard)
        if (p.conversation?.follows != null) expect(shard.map((q) => q.index)).toContain(p.conversation.follows);
    }
  });

  it("a row's forced_tool is sent as forced_tool_id, a name through the tools, over the defaults", () => {
    const toolIds = toolIdsOf([
      ['internal_search', 1],
      ['web_search', 3],
    ]);
    const plan = buildPlan({
      rows: [row('a', { forced_tool: 'Web_Search' }), row('b', { forced_tool: '7' }), row('c')],
      sets: [fast],
      defaults: { forced_tool_id: 1 },
      mode: 'stream',
      repeat: 1,
      toolIds,
    });
    expect(plan.map((p) => p.body.forced_tool_id)).toEqual([3, 7, 1]);
    expect(forcedToolId({ name: 'SearchTool' }, toolIds)).toBe(1);
  });
});

describe('toolProblems', () => {
  const rows = [
    row('a', { forced_tool: 'web_search', expected_tools: 'web_search|internal_search' }, 2),
    row('b', { forced_tool: 'draw', expected_tools: 'PythonTool' }, 3),
    row('c', { forced_tool: '4' }, 4),
  ];
  it('names checked against the tools when they are known', () => {
    expect(
      toolProblems(
        rows,
        toolIdsOf([
          ['internal_search', 1],
          ['web_search', 3],
        ]),
        'd.csv',
      ),
    ).toEqual([
      'd.csv:3: forced_tool: unknown tool "draw" (the tools: internal_search, web_search)',
      'd.csv:3: expected_tools: unknown tool "PythonTool" (the tools: internal_search, web_search)',
    ]);
  });
  it('a forced tool name needs the tools; expected names are taken as written', () => {
    expect(toolProblems(rows, null, 'd.csv')).toEqual([
      'd.csv:2: forced_tool: "web_search" is a name, and this service\'s tools are not known: give the tool\'s id, or name the tools in the sets file ("defaults": {"tool_ids": {"web_search": ID}})',
      'd.csv:3: forced_tool: "draw" is a name, and this service\'s tools are not known: give the tool\'s id, or name the tools in the sets file ("defaults": {"tool_ids": {"draw": ID}})',
    ]);
  });
});

describe('follow-ups', () => {
  it('continue from the session and the answer (of model continue_with), after the latest message when no id was said', () => {
    const ids = { chat_session_id: 's', message_id: 8, models: null };
    expect(continuationAfter(ids, 0)).toEqual({ chat_session_id: 's', parent_message_id: 8 });
    const multi = {
      chat_session_id: 's',
      message_id: null,
      models: [
        { model_index: 0, message_id: 10 },
        { model_index: 1, message_id: 11 },
      ],
    };
    expect(continuationAfter(multi, 1)).toEqual({ chat_session_id: 's', parent_message_id: 11 });
    expect(continuationAfter({ chat_session_id: 's', message_id: null, models: null }, 0)).toEqual({
      chat_session_id: 's',
      parent_message_id: -1,
    });
    expect(continuationAfter({ chat_session_id: null, message_id: 3, models: null }, 0)).toBe(
      'the service did not say which chat session the previous turn was in',
    );
  });
  it('a follow-up body names the session instead of creating one', () => {
    const body = followUpBody(
      {
        message: 'and then?',
        stream: true,
        chat_session_info: { persona_id: 2 },
        llm_override: { model_version: 'x' },
      },
      { chat_session_id: 's', parent_message_id: 8 },
    );
    expect(body).toEqual({
      message: 'and then?',
      stream: true,
      llm_override: { model_version: 'x' },
      chat_session_id: 's',
      parent_message_id: 8,
    });
  });
});

describe('createEvalPlan (lazy)', () => {
  const rows = [
    row('a'),
    row('c#1', { conversation: 'c', turn: '1' }),
    row('lone'),
    row('c#2', { conversation: 'c', turn: '2' }),
    row('c#3', { conversation: 'c', turn: '3' }),
  ];
  const input = { rows, sets: [fast, duo], defaults: {}, mode: 'both' as const, repeat: 3 };

  it.each([
    null,
    { index: 1, count: 1 },
    { index: 1, count: 3 },
    { index: 2, count: 3 },
    { index: 3, count: 3 },
    { index: 4, count: 7 },
  ])('is exactly the built plan (%j), each time it is iterated, with its length, and finds every key', (shard) => {
    const whole = buildPlan(input);
    const expected = selectShard(whole, shard);
    const plan = createEvalPlan(input, shard);
    expect([...plan]).toEqual(expected);
    expect([...plan]).toEqual(expected);
    expect(plan.length).toBe(expected.length);
    expect(plan.total).toBe(whole.length);
    const mine = new Set(expected.map((p) => p.index));
    for (const p of whole) expect(plan.keyIndex(p.key), p.key).toBe(mine.has(p.index) ? p.index : null);
  });

  it('knows no key outside the plan', () => {
    const plan = createEvalPlan(input);
    for (const key of [
      'a|fast|stream|3',
      'a|fast|stream|-1',
      'a|fast|stream|01',
      'a|fast|stream|',
      'zz|fast|stream|0',
      'a|nope|stream|0',
      'a|duo|full|0',
      'nonsense',
    ]) {
      expect(plan.keyIndex(key), key).toBeNull();
    }
    expect(plan.modes).toEqual(['stream', 'full']);
    expect(plan.turns).toEqual([1, 2, 3]);
  });
});

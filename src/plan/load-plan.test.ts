import { describe, expect, it } from 'vitest';
import { DatasetRowSchema, rowsInMemory, type RowSource } from '../dataset/index.js';
import { InputError } from '../errors.js';
import {
  createLoadPlan,
  LoadSpecSchema,
  TEMPLATE_CACHE_UNITS,
  loadSchedule,
  parseUrlCsv,
  parseUrlList,
  uniformAt,
} from './load-plan.js';

const rows = ['q1', 'q2', 'q3'].map((id, i) =>
  DatasetRowSchema.parse({ id, question: `Question ${id}?`, line: i + 2, expected_documents: 'doc-a' }),
);
const set = {
  name: 'fast',
  llm_override: { model_provider: 'openai', model_version: 'gpt-4o-mini' },
  llm_overrides: null,
  multi: false,
};
const chat = (order: 'sequential' | 'random') =>
  createLoadPlan({ operation: 'chat', rows, set, defaults: {}, mode: 'stream', order, seed: 9 });

describe('load plan', () => {
  it('cycles the questions in order, one key per arrival, bodies built once', () => {
    const plan = chat('sequential');
    const requests = [0, 1, 2, 3, 4].map((n) => plan.requestFor(n));
    expect(requests.map((r) => r.planned.question_id)).toEqual(['q1', 'q2', 'q3', 'q1', 'q2']);
    expect(requests.map((r) => r.planned.key)).toEqual([
      'q1|fast|stream|0',
      'q2|fast|stream|1',
      'q3|fast|stream|2',
      'q1|fast|stream|3',
      'q2|fast|stream|4',
    ]);
    expect(requests[0]!.planned.body).toBe(requests[3]!.planned.body); // the same object: built once per question
    expect(requests[0]!.planned.body).toMatchObject({
      message: 'Question q1?',
      stream: true,
      llm_override: set.llm_override,
    });
    expect(requests[0]!.planned.expectations.expected_document_ids).toEqual(['doc-a']);
    expect(requests[0]!.urls).toBeNull();
  });

  it("gives each arrival's request the template's keys in one order, the arrival's fields set (chat, conversations, URLs)", () => {
    const base = ['index', 'key', 'repeat', 'question_id', 'question', 'category', 'metadata'];
    const rest = ['expected_document_ids', 'set', 'mode', 'model_names', 'body', 'expectations'];
    const plain = chat('sequential').requestFor(4).planned;
    expect(Object.keys(plain)).toEqual([...base, ...rest, 'conversation', 'unit']);
    expect(plain).toMatchObject({ index: 4, unit: 4, repeat: 4, key: 'q2|fast|stream|4', conversation: null });
    const turns = createLoadPlan({
      operation: 'chat',
      conversations: true,
      rows: ['1', '2'].map((turn, i) =>
        DatasetRowSchema.parse({ id: `c${turn}`, question: 'q', line: i + 2, conversation: 'c', turn }),
      ),
      set,
      defaults: {},
      mode: 'full',
      order: 'sequential',
      seed: 1,
    }).conversationFor(7);
    for (const turn of turns) expect(Object.keys(turn.planned)).toEqual([...base, ...rest, 'conversation', 'unit']);
    expect(turns.map((t) => t.planned.conversation)).toEqual([
      { id: 'c', turn: 1, turns: 2, follows: null, continue_with: 0 },
      { id: 'c', turn: 2, turns: 2, follows: 7, continue_with: 0 },
    ]);
    const url = createLoadPlan({
      operation: 'open-urls',
      urls: [{ id: '2', url: 'https://a.example/x' }],
      order: 'sequential',
      seed: 1,
    }).requestFor(3).planned;
    expect(Object.keys(url)).toEqual([...base, ...rest, 'unit']);
    expect(url).toMatchObject({ index: 3, unit: 3, repeat: 3 });
  });

  it('draws at random from the seed and the arrival number alone, so every shard agrees', () => {
    const a = chat('random');
    const b = chat('random');
    const picks = Array.from({ length: 300 }, (_, n) => a.requestFor(n).planned.question_id);
    expect([299, 17, 0].map((n) => b.requestFor(n).planned.question_id)).toEqual([picks[299], picks[17], picks[0]]);
    for (const id of ['q1', 'q2', 'q3']) expect(picks.filter((p) => p === id).length).toBeGreaterThan(70);
    const u = Array.from({ length: 10_000 }, (_, n) => uniformAt(3, n));
    expect(u.reduce((x, y) => x + y, 0) / u.length).toBeCloseTo(0.5, 1);
  });

  it('reads URL lists and url columns, listing every bad line', () => {
    expect(parseUrlList('# urls\nhttps://a.example/x\n\nhttp://b.example\n', 'urls.txt')).toEqual([
      { id: '2', url: 'https://a.example/x' },
      { id: '4', url: 'http://b.example' },
    ]);
    expect(() => parseUrlList('ftp://x\nnot a url\n', 'u.txt')).toThrow(InputError);
    try {
      parseUrlList('ftp://x\nnot a url\n', 'u.txt');
    } catch (error) {
      expect((error as InputError).problems).toEqual([
        'u.txt:1: "ftp://x" is not an http(s) URL',
        'u.txt:2: "not a url" is not a URL',
      ]);
    }
    expect(parseUrlCsv('id,url\nhome,https://a.example\n,https://b.example\n', 'd.csv')).toEqual([
      { id: 'home', url: 'https://a.example' },
      { id: '2', url: 'https://b.example' },
    ]);
    expect(() => parseUrlCsv('id,question\n1,x\n', 'd.csv')).toThrow(/no "url" column/);
    const plan = createLoadPlan({
      operation: 'open-urls',
      urls: [{ id: 'home', url: 'https://a.example' }],
      order: 'sequential',
      seed: 1,
    });
    expect(plan.requestFor(4)).toMatchObject({
      urls: ['https://a.example'],
      planned: { key: 'home|open-urls|full|4', question: 'https://a.example' },
    });
  });
});

describe('load spec', () => {
  const base = {
    operation: 'chat',
    mode: 'stream',
    model: 'open',
    rate: 10,
    arrival: 'constant',
    max_in_flight: 100,
    stages: null,
    duration_ms: 10_000,
    requests: null,
    warmup_ms: 0,
    cooldown_ms: 0,
    seed: 1,
    question_order: 'sequential',
    set: 'default',
    tokens: 1,
    token_weights: null,
    shard: null,
    start_at: null,
  };
  /** The closed model, 5 users: bounded by `requests`, or by a minute when there are none. */
  const closedSpec = (requests: number | null) =>
    LoadSpecSchema.parse({
      ...base,
      model: 'closed',
      rate: undefined,
      concurrency: 5,
      requests,
      duration_ms: requests === null ? 60_000 : null,
    });
  it('accepts a consistent spec and refuses conflicts with a message each', () => {
    expect(LoadSpecSchema.safeParse(base).success).toBe(true);
    const problems = (spec: object) =>
      LoadSpecSchema.safeParse({ ...base, ...spec }).error?.issues.map((i) => i.message);
    expect(problems({ concurrency: 4 })).toContain('the open model takes a rate, not a concurrency');
    expect(problems({ duration_ms: null })).toEqual(['give a duration, a request count or stages']);
    expect(problems({ stages: [{ duration_ms: 1000, target: 5 }], rate: undefined })).toEqual([
      'stages set the duration themselves',
    ]);
    expect(problems({ warmup_ms: 6000, cooldown_ms: 4000 })).toEqual(['warm-up and cool-down take the whole schedule']);
    expect(problems({ tokens: 2, token_weights: [1] })).toEqual(['one weight per token']);
    expect(problems({ start_at: 'tomorrow' })).toHaveLength(1);
  });

  it("knows each shard's planned arrivals before the run", () => {
    const spec = LoadSpecSchema.parse({ ...base, rate: 10, duration_ms: 1000 });
    const schedule = loadSchedule(spec);
    expect(schedule.planned(null)).toBe(10);
    expect([1, 2, 3].map((index) => schedule.planned({ index, count: 3 }))).toEqual([4, 3, 3]);
    const closed = loadSchedule(closedSpec(50));
    expect(closed.planned({ index: 1, count: 2 })).toBe(25);
    expect(closed.userSteps({ index: 2, count: 2 })).toEqual([{ offset_ms: 0, users: 2 }]);
  });

  it("counts a shard's planned requests up to a cap, for the warm-up's size, without drawing a long run's arrivals", () => {
    const hour = loadSchedule(LoadSpecSchema.parse({ ...base, rate: 1000, duration_ms: 3_600_000 }));
    expect(hour.plannedUpTo(null, 2000)).toBe(2000);
    const short = loadSchedule(LoadSpecSchema.parse({ ...base, rate: 10, duration_ms: 1000 }));
    expect(short.plannedUpTo(null, 2000)).toBe(10);
    expect(short.plannedUpTo({ index: 1, count: 3 }, 2000)).toBe(4);
    expect(short.plannedUpTo(null, 6)).toBe(6);
    const closed = (requests: number | null) => loadSchedule(closedSpec(requests));
    expect(closed(50).plannedUpTo({ index: 1, count: 2 }, 2000)).toBe(25);
    expect(closed(50_000).plannedUpTo(null, 2000)).toBe(2000);
    // Bounded by its duration alone: the count is not known, the whole warm-up is worth it.
    expect(closed(null).plannedUpTo(null, 2000)).toBe(2000);
  });

  it('knows how many connections the first second will use, to open them before the first send', () => {
    expect(loadSchedule(LoadSpecSchema.parse({ ...base, rate: 10, duration_ms: 5000 })).firstWave(null)).toBe(10);
    expect(
      loadSchedule(LoadSpecSchema.parse({ ...base, rate: 10, duration_ms: 5000 })).firstWave({ index: 1, count: 2 }),
    ).toBe(5);
    expect(
      loadSchedule(LoadSpecSchema.parse({ ...base, rate: 10, duration_ms: 5000, connections: 4 })).firstWave(null),
    ).toBe(4);
    expect(
      loadSchedule(LoadSpecSchema.parse({ ...base, rate: 5000, duration_ms: 5000, max_in_flight: 1000 })).firstWave(
        null,
      ),
    ).toBe(256);
    expect(loadSchedule(closedSpec(50)).firstWave(null)).toBe(5);
  });
});

describe('a load plan over a large dataset reads only the rows its arrivals draw', () => {
  // A million-row source whose rows are made (and counted) when read, as dataset/row-file reads them.
  const reads: number[] = [];
  const held = rowsInMemory(rows);
  const large: RowSource = {
    ...held,
    length: 1_000_000,
    unitCount: 1_000_000,
    row: (index) => {
      reads.push(index);
      return { ...rows[index % 3]!, id: `q${index}` };
    },
    id: (index) => `q${index}`,
    unit: (index) => [index],
  };
  it('builds a unit when an arrival first draws it, keeps the last TEMPLATE_CACHE_UNITS built', () => {
    const plan = createLoadPlan({
      operation: 'chat',
      rows: large,
      set,
      defaults: {},
      mode: 'full',
      order: 'random',
      seed: 3,
    });
    expect(plan.size).toBe(1_000_000);
    const drawn = Array.from({ length: 50 }, (_, n) => plan.requestFor(n).planned.question_id);
    // Nothing read ahead; each drawn row read once, when first drawn.
    expect(reads).toEqual([...new Set(drawn)].map((id) => Number(id.slice(1))));
    reads.length = 0;
    const sequential = createLoadPlan({
      operation: 'chat',
      rows: large,
      set,
      defaults: {},
      mode: 'full',
      order: 'sequential',
      seed: 3,
    });
    for (let n = 0; n <= TEMPLATE_CACHE_UNITS; n++) sequential.requestFor(n);
    sequential.requestFor(TEMPLATE_CACHE_UNITS); // still built
    expect(reads.length).toBe(TEMPLATE_CACHE_UNITS + 1);
    sequential.requestFor(0); // the oldest, let go when unit TEMPLATE_CACHE_UNITS was built
    expect(reads.length).toBe(TEMPLATE_CACHE_UNITS + 2);
  });
});

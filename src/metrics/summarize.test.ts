import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latencyStats } from './stats.js';
import type { RequestRecord } from '../records/record.js';
import { SummarySchema, type Group, type Summary } from '../records/summary.js';
import { createSummarizer, UNCATEGORISED } from './summarize.js';
import { makeModel, makeRecord, makeScores } from './test-records.js';

const summarize = (records: readonly RequestRecord[]): Summary => {
  const summarizer = createSummarizer();
  for (const record of records) summarizer.add(record);
  return SummarySchema.parse(summarizer.finish());
};
const failed = (over: Partial<RequestRecord>) =>
  makeRecord({ outcome: 'timeout', ttft_ms: null, total_ms: 60_000, scores: makeScores({ pass: false }), ...over });
const groupKey = (g: Group) => `${g.set}/${g.mode}/${g.model_index ?? '-'}`;

describe('createSummarizer: single-model records', () => {
  const records = [
    makeRecord({
      question_id: 'q1',
      set: 'fast',
      mode: 'full',
      total_ms: 300,
      scores: makeScores({ citation_recall: 1 }),
    }),
    makeRecord({
      question_id: 'q1',
      set: 'fast',
      mode: 'stream',
      total_ms: 100,
      scores: makeScores({ citation_recall: 0.5 }),
    }),
    makeRecord({
      question_id: 'q2',
      set: 'fast',
      mode: 'stream',
      total_ms: 200,
      scores: makeScores({ citation_recall: 0, pass: false }),
    }),
    failed({ question_id: 'q3', set: 'fast', mode: 'stream' }),
    makeRecord({ question_id: 'q1', set: 'accurate', mode: 'stream', expected_document_ids: [], total_ms: 400 }),
  ];
  const summary = summarize(records);
  const fastStream = summary.groups.find((g) => groupKey(g) === 'fast/stream/-');

  it('orders groups by first-seen set, stream before full', () => {
    expect(summary.groups.map(groupKey)).toEqual(['fast/stream/-', 'fast/full/-', 'accurate/stream/-']);
    expect(summary.run.sets).toEqual(['fast', 'accurate']);
  });

  it('counts outcomes over all requests and latencies over ok ones only', () => {
    expect(fastStream?.requests).toBe(3);
    expect(fastStream?.outcomes).toMatchObject({ ok: 2, timeout: 1, rate_limited: 0 });
    expect(fastStream?.latency.total_ms).toMatchObject({ count: 2, min: 100, max: 200, p50: 150, mean: 150 });
    expect(fastStream?.latency.ttft_ms?.count).toBe(2);
    expect(fastStream?.latency.headers_ms?.count).toBe(2);
    expect(fastStream?.answer_gap_ms?.count).toBe(4); // two ok requests × two gaps
  });

  it('averages scores over ok requests where not N/A, with a t interval', () => {
    expect(fastStream?.scores.citation_recall).toMatchObject({ mean: 0.25, n: 2 });
    expect(fastStream?.scores.citation_precision).toBeNull();
    expect(fastStream?.scores.invalid_citations).toMatchObject({ mean: 0, n: 2 });
  });

  it('takes the pass rate over all requests: a failed request does not pass', () => {
    expect(fastStream?.pass_rate).toMatchObject({ mean: 1 / 3, n: 3 });
    expect(fastStream?.pass_rate?.ci_low).toBeCloseTo(0.0615, 4); // Wilson 1/3
  });

  it('counts requests without expectations', () => {
    expect(summary.groups.map((g) => g.no_expectation)).toEqual([0, 0, 1]);
  });

  it('fills the run figures', () => {
    expect(summary.run).toMatchObject({ requests: 5, questions: 3, outcomes: { ok: 4, timeout: 1 } });
  });
});

describe('createSummarizer: run window', () => {
  it('runs from the earliest send to the latest send + total_ms', () => {
    const summary = summarize([
      makeRecord({ question_id: 'a', started_at: '2026-01-01T00:00:10.000Z', total_ms: 5_000 }),
      makeRecord({ question_id: 'b', started_at: '2026-01-01T00:00:00.000Z', total_ms: 1_000 }),
      failed({ question_id: 'c', started_at: '2026-01-01T00:00:12.000Z', total_ms: 500 }),
      makeRecord({ question_id: 'd', started_at: '2026-01-01T00:00:01.000Z', total_ms: null, outcome: 'network' }),
    ]);
    expect(summary.run).toMatchObject({
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:15.000Z',
      duration_s: 15,
    });
  });

  it('summarises nothing as an empty, valid summary', () => {
    const summary = summarize([]);
    expect(summary.run).toMatchObject({
      started_at: null,
      finished_at: null,
      duration_s: null,
      requests: 0,
      questions: 0,
      sets: [],
    });
    expect(summary.groups).toEqual([]);
  });
});

describe('createSummarizer: categories', () => {
  const summary = summarize([
    makeRecord({ question_id: 'q1', category: 'setup' }),
    makeRecord({ question_id: 'q2', category: null, scores: makeScores({ pass: false }) }),
    makeRecord({ question_id: 'q3', category: 'billing' }),
    failed({ question_id: 'q4', category: 'setup' }),
  ]);
  const group = summary.groups[0];

  it('groups by category, null as "uncategorised", sorted with it last', () => {
    expect(Object.keys(group?.by_category ?? {})).toEqual(['billing', 'setup', UNCATEGORISED]);
    expect(group?.by_category.setup).toMatchObject({ requests: 2, outcomes: { ok: 1, timeout: 1 } });
    expect(group?.by_category.setup?.pass_rate?.mean).toBe(0.5);
    expect(group?.by_category[UNCATEGORISED]?.pass_rate?.mean).toBe(0);
    expect(group?.by_category.setup?.latency.total_ms?.count).toBe(1);
  });

  it("takes the group's latencies from its categories' samples: the same statistics as every value at once", () => {
    const totals = [410.5, 12.25, 97, 3000.125, 55.5, 97, 0.75];
    const records = totals.map((total_ms, i) =>
      makeRecord({ question_id: `q${i}`, category: [null, 'a', 'b'][i % 3]!, total_ms }),
    );
    const got = summarize(records).groups[0]?.latency.total_ms;
    expect(got).toEqual(latencyStats(totals));
    expect(got?.count).toBe(totals.length);
  });
});

describe('createSummarizer: multi-model records', () => {
  const multi = (question_id: string, over: Partial<RequestRecord> = {}) =>
    makeRecord({
      question_id,
      set: 'side-by-side',
      scores: null,
      models: [
        makeModel(0, { model_name: 'gpt-a', total_ms: 800, scores: makeScores({ citation_recall: 1 }) }),
        makeModel(1, {
          model_name: 'claude-b',
          outcome: 'stream_error',
          total_ms: 300,
          scores: makeScores({ pass: false }),
        }),
      ],
      ...over,
    });
  const summary = summarize([
    makeRecord({ question_id: 'q0', set: 'single' }),
    multi('q1'),
    multi('q2', { category: 'x' }),
  ]);
  const byKey = new Map(summary.groups.map((g) => [groupKey(g), g]));

  it('has a request group and one group per model, in model order', () => {
    expect(summary.groups.map(groupKey)).toEqual([
      'single/stream/-',
      'side-by-side/stream/-',
      'side-by-side/stream/0',
      'side-by-side/stream/1',
    ]);
    expect(byKey.get('side-by-side/stream/0')?.model_name).toBe('gpt-a');
    expect(byKey.get('side-by-side/stream/1')?.model_name).toBe('claude-b');
    expect(byKey.get('side-by-side/stream/-')?.model_name).toBeNull();
  });

  it('uses each model its own outcome, latencies and scores', () => {
    const m0 = byKey.get('side-by-side/stream/0');
    const m1 = byKey.get('side-by-side/stream/1');
    expect(m0?.outcomes.ok).toBe(2);
    expect(m0?.latency.total_ms).toMatchObject({ count: 2, max: 800 });
    expect(m0?.latency.headers_ms?.count).toBe(2); // the request's headers
    expect(m0?.scores.citation_recall).toMatchObject({ mean: 1, n: 2 });
    expect(m0?.pass_rate?.mean).toBe(1);
    expect(m1?.outcomes.stream_error).toBe(2);
    expect(m1?.latency.total_ms).toBeNull();
    expect(m1?.pass_rate?.mean).toBe(0);
    expect(Object.keys(m1?.by_category ?? {})).toEqual(['x', UNCATEGORISED]);
  });

  it('passes a multi-model request without record-level scores only when every model passes', () => {
    expect(byKey.get('side-by-side/stream/-')?.pass_rate?.mean).toBe(0);
    const allPass = summarize([multi('q1', { models: [makeModel(0), makeModel(1)] })]);
    expect(allPass.groups[0]?.pass_rate?.mean).toBe(1);
  });
});

describe('createSummarizer: determinism', () => {
  const outcomes = ['ok', 'ok', 'ok', 'timeout', 'rate_limited'] as const;
  const records = Array.from({ length: 40 }, (_, i) =>
    makeRecord({
      question_id: `q${i % 13}`,
      set: ['a', 'b'][i % 2],
      mode: i % 3 === 0 ? 'full' : 'stream',
      repeat: Math.floor(i / 13),
      category: [null, 'one', 'two'][i % 3] ?? null,
      outcome: outcomes[i % 5],
      ttfp_ms: 10 + ((i * 37) % 17) / 3,
      total_ms: 100 + ((i * 53) % 29) / 7,
      answer_gaps_ms: [i / 10, (i % 7) / 3, 0.1 + i / 1000],
      started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 11)).toISOString(),
      scores: makeScores({ citation_recall: ((i * 7) % 10) / 10, ndcg_at_5: 1 / (1 + (i % 4)), pass: i % 4 !== 0 }),
      models: i % 5 === 1 ? [makeModel(0, { ttfp_ms: i / 3 }), makeModel(1, { outcome: 'truncated' })] : null,
    }),
  );

  it('gives byte-identical JSON for any order of the records (first record fixed, so first-seen orders agree)', () => {
    const [first, ...rest] = records;
    const want = JSON.stringify(summarize(records));
    fc.assert(
      fc.property(fc.shuffledSubarray(rest, { minLength: rest.length }), (shuffled) => {
        expect(JSON.stringify(summarize([first as RequestRecord, ...shuffled]))).toBe(want);
      }),
      { numRuns: 25 },
    );
  });

  it('changes only the first-seen orders when the first record changes', () => {
    const reversed = summarize([...records].reverse());
    const forward = summarize(records);
    const byKey = (s: Summary) => Object.fromEntries(s.groups.map((g) => [groupKey(g), g]));
    expect(byKey(reversed)).toEqual(byKey(forward));
    expect({ ...reversed.run, sets: [] }).toEqual({ ...forward.run, sets: [] });
  });
});

describe('createSummarizer: size', () => {
  it('summarises 20,000 records without keeping them', () => {
    const summarizer = createSummarizer();
    const record = makeRecord({ answer: 'x'.repeat(2_000) });
    for (let i = 0; i < 20_000; i += 1) {
      summarizer.add({
        ...record,
        question_id: `q${i % 500}`,
        total_ms: 100 + (i % 1000),
        answer_gaps_ms: [i % 50, 5],
      });
    }
    const summary = summarizer.finish();
    expect(summary.run).toMatchObject({ requests: 20_000, questions: 500 });
    expect(summary.groups[0]?.latency.total_ms).toMatchObject({ count: 20_000, min: 100, max: 1099 });
    expect(summary.groups[0]?.answer_gap_ms?.count).toBe(40_000);
    // Nothing text-sized in the summary: it is numbers and labels only.
    expect(JSON.stringify(summary).length).toBeLessThan(50_000);
  });
});

describe('set order', () => {
  it('follows the plan order when given, whatever order the records came in', () => {
    const records = [makeRecord({ set: 'b', key: 'q1|b|stream|0' }), makeRecord({ set: 'a', key: 'q1|a|stream|0' })];
    const planned = createSummarizer({ setOrder: ['a', 'b'] });
    records.forEach((r) => planned.add(r));
    const summary = planned.finish();
    expect(summary.run.sets).toEqual(['a', 'b']);
    expect(summary.groups.map((g) => g.set)).toEqual(['a', 'b']);
    const seen = createSummarizer();
    records.forEach((r) => seen.add(r));
    expect(seen.finish().run.sets).toEqual(['b', 'a']);
  });
});

describe('createSummarizer: repeats cluster by question', () => {
  // 10 questions × 3 repeats, 24 of 30 passed: 7 always, q8 2 of 3, q9 1 of 3, q10 never.
  const passes = (q: number) =>
    q <= 7
      ? [true, true, true]
      : q === 8
        ? [true, true, false]
        : q === 9
          ? [true, false, false]
          : [false, false, false];
  const records = Array.from({ length: 10 }, (_, i) =>
    passes(i + 1).map((pass, repeat) =>
      makeRecord({ question_id: `q${i + 1}`, repeat, scores: makeScores({ pass, citation_recall: pass ? 1 : 0 }) }),
    ),
  ).flat();
  const group = summarize(records).groups[0]!;

  it('pass rate: n = 10 questions and the clustered interval, not n = 30', () => {
    expect(group.pass_rate?.n).toBe(10);
    expect(group.pass_rate?.mean).toBe(0.8);
    expect(group.pass_rate?.ci_low).toBeCloseTo(0.537375, 5);
    expect(group.pass_rate?.ci_high).toBeCloseTo(0.932315, 5);
    expect(group.scores.citation_recall?.n).toBe(10);
  });

  it('pass@3, pass^3 and the flaky rate over the 10 questions', () => {
    expect(group.repeats).toMatchObject({
      questions: 10,
      repeats: 3,
      pass_at_n: { mean: 0.9, n: 10 },
      pass_all_n: { mean: 0.7, n: 10 },
      flaky_rate: { mean: 0.2, n: 10 },
    });
    expect(summarize(records.filter((r) => r.repeat === 0)).groups[0]?.repeats).toBeNull();
  });

  it('does not depend on the order the records came in', () => {
    expect(summarize([...records].reverse()).groups[0]).toEqual(group);
  });
});

describe('createSummarizer: questions that expect nothing (issue 27)', () => {
  const unchecked = (id: string, repeat = 0) =>
    makeRecord({ question_id: id, repeat, key: `${id}|s|stream|${repeat}`, scores: makeScores({ checked: false }) });

  it('a group with no checked answer has pass_rate null ("not checked"), never 100%', () => {
    const [group] = summarize([unchecked('q1'), unchecked('q2')]).groups;
    expect(group).toMatchObject({ pass_rate: null, unchecked_questions: 2 });
  });

  it('the pass rate is over the checked answers only; repeats of an unchecked question count it once', () => {
    const records = [
      unchecked('q1'),
      unchecked('q1', 1),
      makeRecord({ question_id: 'q2', scores: makeScores({ pass: false }) }),
      makeRecord({ question_id: 'q3' }),
    ];
    const [group] = summarize(records).groups;
    expect(group!.pass_rate).toMatchObject({ mean: 0.5 });
    expect(group!.unchecked_questions).toBe(1);
  });

  it('a record written before `checked` counts as checked, as it always did', () => {
    const { checked: _, ...older } = makeScores();
    const [group] = summarize([makeRecord({ scores: older })]).groups;
    expect(group).toMatchObject({ pass_rate: { mean: 1, n: 1 }, unchecked_questions: 0 });
  });
});

describe('a group’s latency values', () => {
  it('are the ones its figures come from, one object for every caller, and no record may follow them', () => {
    const summarizer = createSummarizer();
    const records = [makeRecord({ total_ms: 300 }), makeRecord({ total_ms: 100, category: 'other' }), failed({})];
    for (const record of records) summarizer.add(record);
    const [group] = summarizer.finish().groups;
    const values = summarizer.latency(group!, 'total_ms');
    expect(Array.from({ length: values.length }, (_, i) => values.at(i))).toEqual([100, 300]);
    expect(summarizer.latency(group!, 'total_ms')).toBe(values);
    expect(summarizer.latency({ ...group!, set: 'none' }, 'total_ms').length).toBe(0);
    expect(() => summarizer.add(makeRecord({ total_ms: 200 }))).toThrow(/after its latencies were sorted/);
  });
});

/**
 * Every milestone is a figure (issue 10 §5): read from the record by the catalogue, summarised with
 * percentiles per set and per model, compared between runs and gateable; and a record written before
 * these fields still reads and summarises.
 */
import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare.js';
import { createRunCollector } from './run-data.js';
import { higherIsBetter, LATENCY_FIGURES, sampleValue } from '../figures/catalogue.js';
import { parseGate } from '../figures/grammar.js';
import { evaluateGates } from '../gates/evaluate.js';
import { RequestRecordSchema, type RequestRecord } from '../records/record.js';
import { SummarySchema } from '../records/summary.js';
import { createSummarizer } from '../metrics/summarize.js';
import { makeModel, makeRecord } from '../metrics/test-records.js';

const withMilestones = (i: number, over: Partial<RequestRecord> = {}) =>
  makeRecord({
    question_id: `q${i}`,
    first_packet_ms: { search_tool_documents_delta: 100 + i, reasoning_delta: 150 + i, message_start: 200 + i },
    pre_answer_processing_seconds: 0.2 + i / 1000,
    time_per_delta_ms: 10 + i,
    output_chars_per_s: 100 - i,
    tool_errors: i === 0 ? 2 : 0,
    ...over,
  });

describe('the catalogue reads each per-request figure', () => {
  it('from the milestones of first_packet_ms, the service figure and the rates', () => {
    const r = withMilestones(0);
    expect(sampleValue('first_search_documents_ms', r, 7)).toBe(100);
    expect(sampleValue('first_reasoning_ms', r, 7)).toBe(150); // reasoning_start absent: the first delta
    expect(sampleValue('message_start_ms', r, 7)).toBe(200);
    expect(sampleValue('pre_answer_processing_seconds', r, 7)).toBe(0.2);
    expect(sampleValue('output_chars_per_s', r, 7)).toBe(100);
    expect(sampleValue('headers_ms', r, 7)).toBe(7);
    expect(sampleValue('first_reasoning_ms', makeRecord({ first_packet_ms: {} }), null)).toBeNull();
  });
  it('knows which way is good', () => {
    expect(higherIsBetter('output_chars_per_s.p50')).toBe(true);
    for (const figure of [
      'time_per_delta_ms',
      'message_start_ms',
      'pre_answer_processing_seconds',
      'first_search_documents_ms',
    ])
      expect(higherIsBetter(figure)).toBe(false);
  });
  it('every one is gateable with a statistic', () => {
    for (const figure of LATENCY_FIGURES) expect(parseGate(`${figure}.p95 <= 1`).stat).toBe('p95');
    expect(() => parseGate('message_start_ms <= 1')).toThrow(/needs a statistic/);
  });
});

describe('summaries, comparisons and gates', () => {
  const records = Array.from({ length: 10 }, (_, i) => withMilestones(i));

  it('summarise every milestone with percentiles, and count tool errors', () => {
    const summarizer = createSummarizer();
    for (const r of records) summarizer.add(r);
    const [group] = SummarySchema.parse(summarizer.finish()).groups;
    expect(group?.latency.message_start_ms).toMatchObject({ count: 10, min: 200, max: 209, p50: 204.5 });
    expect(group?.latency.first_search_documents_ms?.p50).toBe(104.5);
    expect(group?.latency.pre_answer_processing_seconds?.max).toBeCloseTo(0.209, 9);
    expect(group?.latency.output_chars_per_s?.p50).toBe(95.5);
    expect(group?.latency.time_per_delta_ms?.count).toBe(10);
    expect(group?.tool_errors).toBe(2);
  });

  it('per model of a multi-model set', () => {
    const summarizer = createSummarizer();
    summarizer.add(
      makeRecord({
        models: [
          makeModel(0, { first_packet_ms: { message_start: 50 } }),
          makeModel(1, { first_packet_ms: { message_start: 80 } }),
        ],
      }),
    );
    const groups = summarizer.finish().groups;
    expect(groups.map((g) => [g.model_index, g.latency.message_start_ms?.p50])).toEqual([
      [null, 90],
      [0, 50],
      [1, 80],
    ]);
  });

  it('compare them between runs, the direction from the catalogue', () => {
    const run = (rs: RequestRecord[]) => {
      const c = createRunCollector();
      for (const r of rs) c.add(r);
      return c.finish('run');
    };
    // A p50 is tested from 20 samples a side (figures/min-samples).
    const twenty = Array.from({ length: 20 }, (_, i) => withMilestones(i));
    const slower = twenty.map((r) => ({
      ...r,
      first_packet_ms: { ...r.first_packet_ms, message_start: (r.first_packet_ms.message_start ?? 0) * 2 },
      output_chars_per_s: (r.output_chars_per_s ?? 0) * 2,
    }));
    const comparison = compareRuns(run(twenty), run(slower), { resamples: 200 });
    const figures = comparison.groups[0]!.figures;
    expect(figures.find((f) => f.figure === 'message_start_ms.p50')).toMatchObject({
      kind: 'latency',
      direction: 'worse',
      significant: true,
    });
    expect(figures.find((f) => f.figure === 'output_chars_per_s.p50')).toMatchObject({
      higher_is_better: true,
      direction: 'better',
    });
    const [gate] = evaluateGates(
      [parseGate('message_start_ms.p95 <= 300'), parseGate('output_chars_per_s.p50 >= 50')],
      run(slower),
    );
    expect(gate?.passed).toBe(false);
  });

  it('a record written before these fields still reads, with their defaults', () => {
    const {
      answer_truncated: _a,
      marker_citations: _m,
      tool_errors: _t,
      pre_answer_processing_seconds: _p,
      output_chars_per_s: _o,
      answered_models: _n,
      ...old
    } = makeRecord();
    const parsed = RequestRecordSchema.parse(JSON.parse(JSON.stringify(old)));
    expect(parsed).toMatchObject({
      answer_truncated: false,
      marker_citations: [],
      tool_errors: 0,
      pre_answer_processing_seconds: null,
      output_chars_per_s: null,
      answered_models: null,
    });
    const oldSummary = { ...createSummarizer().finish() };
    const group = { ...SummarySchema.parse({ ...oldSummary, run: { ...oldSummary.run, outcomes: { ok: 1 } } }).run };
    expect(group.outcomes).toMatchObject({ ok: 1, empty_answer: 0 });
  });
});

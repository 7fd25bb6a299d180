import { describe, expect, it } from 'vitest';
import { compareRuns } from '../compare/compare.js';
import { SCORE_NAMES } from '../figures/catalogue.js';
import { makeFigures, makeModel, makeRecord, makeScores } from '../metrics/test-records.js';
import type { RequestRecord } from '../records/record.js';
import { humanVerdicts, type Review } from '../records/review.js';
import { buildViewData, createViewCollector, type CollectedRun, conversationOrder } from './model.js';
import { tokenSummaries } from './ui/token-summary.js';
import type { ViewData } from './view-data.js';

const collect = (records: RequestRecord[], reviews: Review[] = []): CollectedRun => {
  const c = createViewCollector({ verdicts: humanVerdicts(reviews) });
  for (const r of records) c.add(r);
  return c.finish('run');
};
const passing = makeScores({ citation_recall: 1, pass: true });
const failing = makeScores({ citation_recall: 0, pass: false });

function records(recallOfQ2: 'pass' | 'fail'): RequestRecord[] {
  const out: RequestRecord[] = [];
  for (const q of ['q1', 'q2', 'q10']) {
    const scores = q === 'q2' && recallOfQ2 === 'fail' ? failing : passing;
    out.push(makeRecord({ question_id: q, set: 'fast', scores, ttfp_ms: q === 'q1' ? 100 : 300, category: 'hr' }));
    out.push(
      makeRecord({
        question_id: q,
        set: 'duo',
        scores: null,
        models: [
          makeModel(0, { scores: passing }),
          makeModel(1, { scores: q === 'q10' ? failing : passing, outcome: q === 'q10' ? 'timeout' : 'ok' }),
        ],
      }),
    );
  }
  return out;
}

const review = (over: Partial<Review>): Review => ({
  review_version: 1,
  key: 'q1|fast|stream|0',
  model_index: null,
  question_id: 'q1',
  set: 'fast',
  mode: 'stream',
  repeat: 0,
  verdict: 'pass',
  note: '',
  reviewer: 'ann',
  at: '2026-01-01T00:00:00Z',
  ...over,
});

describe('buildViewData', () => {
  it('a column per set × mode, per model for a multi-model set; a row per question in natural order', () => {
    const data = buildViewData({
      runs: [{ name: 'a', source: 'a', collected: collect(records('pass')), reviews: 0, comparison: null }],
      mode: 'server',
      generatedBy: 'chatbench test',
      details: { source: 'server' },
    });
    expect(data.columns.map((c) => c.label)).toEqual(['fast', 'duo · model-0', 'duo · model-1']);
    expect(data.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q10']);
    const q10 = data.questions[2]!;
    expect(q10.cells.map((c) => c?.state)).toEqual(['pass', 'pass', 'error']);
    expect(q10.cells[2]?.outcomes).toEqual(['timeout']);
    const ttfp = data.cell_figures.findIndex((f) => f.name === 'ttfp_ms');
    expect(data.questions[0]!.cells[0]!.values[ttfp]).toBe(100);
    expect(data.questions[1]!.cells[0]!.values[ttfp]).toBe(300);
  });

  it('shows every figure of the catalogue that a column has, with intervals, and no human_pass_rate before a review', () => {
    const collected = collect(records('pass'));
    const data = buildViewData({
      runs: [{ name: 'a', source: 'a', collected, reviews: 0, comparison: null }],
      mode: 'server',
      generatedBy: 't',
      details: { source: 'server' },
    });
    const names = data.figures.map((f) => f.name);
    expect(names).toContain('citation_recall');
    expect(names).toContain('ttfp_ms.p95');
    expect(names).not.toContain('human_pass_rate');
    // Scores with a value anywhere are all there: the list comes from the catalogue, not from the viewer.
    const scored = SCORE_NAMES.filter((s) => collected.data.summary.groups.some((g) => g.scores[s] != null));
    expect(scored.length).toBeGreaterThanOrEqual(3);
    expect(names.filter((n) => (SCORE_NAMES as readonly string[]).includes(n))).toEqual(scored);
    const pass = data.figures.findIndex((f) => f.name === 'pass_rate');
    expect(data.columns[0]!.figures[pass]).toMatchObject({ value: 1, n: 3 });
    expect(data.columns[0]!.figures[pass]!.low).toBeLessThan(1);
    expect(data.figures.find((f) => f.name === 'ttfp_ms.p95')).toMatchObject({
      kind: 'latency',
      higher_is_better: false,
      headline: true,
    });
  });

  it('reviews become human_pass_rate and the cells show them', () => {
    const reviews = [
      review({}),
      review({ key: 'q2|fast|stream|0', question_id: 'q2', verdict: 'fail' }),
      review({ key: 'q1|duo|stream|0', set: 'duo', model_index: 1, verdict: 'fail' }),
    ];
    const data = buildViewData({
      runs: [
        {
          name: 'a',
          source: 'a',
          collected: collect(records('pass'), reviews),
          reviews: reviews.length,
          comparison: null,
        },
      ],
      mode: 'server',
      generatedBy: 't',
      details: { source: 'server' },
    });
    const human = data.figures.findIndex((f) => f.name === 'human_pass_rate');
    expect(human).toBeGreaterThan(-1);
    expect(data.columns[0]!.figures[human]).toMatchObject({ value: 0.5, n: 2 });
    expect(data.columns[2]!.figures[human]).toMatchObject({ value: 0, n: 1 });
    expect(data.columns[1]!.figures[human]).toBeNull();
    expect(data.questions[0]!.cells.map((c) => c?.review)).toEqual(['pass', null, 'fail']);
    const cellHuman = data.cell_figures.findIndex((f) => f.name === 'human_pass_rate');
    expect(data.questions[1]!.cells[0]!.values[cellHuman]).toBe(0);
  });

  it('marks what broke against the baseline', () => {
    const baseline = collect(records('pass'));
    const current = collect(records('fail'));
    const comparison = compareRuns(baseline.data, current.data, { resamples: 200 });
    const data = buildViewData({
      runs: [{ name: 'new', source: 'new', collected: current, reviews: 0, comparison }],
      baseline: { name: 'old', source: 'old', collected: baseline, reviews: 0, comparison: null },
      mode: 'server',
      generatedBy: 't',
      details: { source: 'server' },
    });
    expect(data.questions[1]!.cells[0]!.change).toBe('broken');
    expect(data.questions[0]!.cells[0]!.change).toBeNull();
    expect(data.runs[0]!.shown_figures[0]).toContain('pass_rate');
  });

  it('several runs side by side: a column per run × set, labels prefixed with the run', () => {
    const a = collect(records('pass'));
    const b = collect(records('fail').filter((r) => r.set === 'fast'));
    const data = buildViewData({
      runs: [
        { name: 'old', source: 'old', collected: a, reviews: 0, comparison: null },
        { name: 'new', source: 'new', collected: b, reviews: 0, comparison: null },
      ],
      mode: 'server',
      generatedBy: 't',
      details: { source: 'server' },
    });
    expect(data.columns.map((c) => [c.run, c.label])).toEqual([
      [0, 'old: fast'],
      [0, 'old: duo · model-0'],
      [0, 'old: duo · model-1'],
      [1, 'new: fast'],
    ]);
    expect(data.questions[1]!.cells.map((c) => c?.state)).toEqual(['pass', 'pass', 'pass', 'fail']);
  });

  it('keeps the first answer, cut to answer_chars, for search', () => {
    const long = makeRecord({ ...makeFigures({ answer: 'x'.repeat(50) }) });
    const data = buildViewData({
      runs: [{ name: 'a', source: 'a', collected: collect([long]), reviews: 0, comparison: null }],
      mode: 'file',
      generatedBy: 't',
      answerChars: 10,
      details: { source: 'embedded', complete: true },
    });
    expect(data.questions[0]!.cells[0]!.text).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('conversationOrder', () => {
  it("keeps a conversation's turns together, in turn order, where its earliest id stands", () => {
    const meta: Record<string, { conversation: string | null; turn: number | null }> = {
      q1: { conversation: null, turn: null },
      q2: { conversation: 'c', turn: 2 },
      q3: { conversation: null, turn: null },
      q10: { conversation: 'c', turn: 1 },
      q4: { conversation: 'd', turn: 1 },
    };
    expect(conversationOrder(Object.keys(meta), (id) => meta[id])).toEqual(['q1', 'q10', 'q2', 'q3', 'q4']);
  });
});

describe('buildViewData: questions that expect nothing (issue 27)', () => {
  it('keeps the pass_rate row with no value and the column counts the unchecked questions; their cells have no pass rate', () => {
    const unchecked = makeScores({ checked: false });
    const data = buildViewData({
      runs: [
        {
          name: 'a',
          source: 'a',
          collected: collect([
            makeRecord({ question_id: 'q1', set: 'fast', scores: unchecked }),
            makeRecord({ question_id: 'q2', set: 'fast', scores: unchecked }),
          ]),
          reviews: 0,
          comparison: null,
        },
      ],
      mode: 'server',
      generatedBy: 'chatbench test',
      details: { source: 'server' },
    });
    const row = data.figures.findIndex((f) => f.name === 'pass_rate');
    expect(row).not.toBe(-1);
    expect(data.columns[0]).toMatchObject({ unchecked_questions: 2 });
    expect(data.columns[0]!.figures[row]).toBeNull();
    expect(data.cell_figures.map((f) => f.name)).not.toContain('pass_rate');
  });
});

const tokenView = (collected: CollectedRun): ViewData =>
  buildViewData({
    runs: [{ name: 'run', source: 'run', collected, reviews: 0, comparison: null }],
    mode: 'server',
    generatedBy: 'chatbench test',
    details: { source: 'server' },
  });

/** Three counted answers of `fast`, two gaps each; `slow` counted once and streamed in one delta (no gap). */
function tokenRecords(): RequestRecord[] {
  const fast = [100, 200, 400].map((tokens, i) =>
    makeRecord({
      question_id: `q${i}`,
      set: 'fast',
      output_tokens: tokens,
      output_tokens_per_s: tokens / 4,
      tpot_per_token_ms: 10 + i,
      answer_gaps_ms: [5 + i, 50 + i],
    }),
  );
  const slow = makeRecord({
    question_id: 'q0',
    set: 'slow',
    output_tokens: 30,
    output_tokens_per_s: 3,
    tpot_per_token_ms: null,
    answer_gaps_ms: [],
  });
  const uncounted = makeRecord({ question_id: 'q0', set: 'plain', answer_gaps_ms: [] });
  return [...fast, slow, uncounted];
}

describe('the token summary of the viewer (ui/token-summary)', () => {
  it("reads each column's figures from the run summary (summary.json's), recomputing none", () => {
    const collected = collect(tokenRecords());
    const rows = tokenSummaries(tokenView(collected));
    const group = (set: string) => collected.data.summary.groups.find((g) => g.set === set)!;
    const fast = group('fast');
    expect(rows.map((r) => r.label)).toEqual(['fast', 'slow']); // `plain` has no token figure: left out
    expect(rows[0]).toEqual({
      column: 0,
      label: 'fast',
      output_tokens: fast.latency.output_tokens!.p50,
      output_tokens_per_s: fast.latency.output_tokens_per_s!.p50,
      tpot_per_token_ms: fast.latency.tpot_per_token_ms!.p50,
      itl_p50_ms: fast.answer_gap_ms!.p50,
      itl_p99_ms: fast.answer_gap_ms!.p99,
      answers: 3,
      gaps: 6,
    });
    // and those are the medians of the answers above: the summary's rule, not the block's
    expect([rows[0]!.output_tokens, rows[0]!.output_tokens_per_s, rows[0]!.tpot_per_token_ms]).toEqual([200, 50, 11]);
    expect(rows[1]).toMatchObject({ output_tokens: 30, tpot_per_token_ms: null, itl_p50_ms: null, gaps: null });
  });

  it('keeps a multi-model set per model, as the overview does', () => {
    const duo = makeRecord({
      question_id: 'q0',
      set: 'duo',
      models: [
        makeModel(0, { output_tokens: 12, answer_gaps_ms: [4, 6] }),
        makeModel(1, { output_tokens: 40, answer_gaps_ms: [] }),
      ],
    });
    const collected = collect([duo]);
    const rows = tokenSummaries(tokenView(collected));
    const gaps = collected.data.summary.groups.find((g) => g.model_index === 0)!.answer_gap_ms!;
    expect(rows.map((r) => [r.label, r.output_tokens, r.itl_p50_ms, r.gaps])).toEqual([
      ['duo · model-0', 12, gaps.p50, 2],
      ['duo · model-1', 40, null, null],
    ]);
  });

  it('is empty for a run without token figures', () => {
    expect(tokenSummaries(tokenView(collect([makeRecord({ answer_gaps_ms: [] })])))).toEqual([]);
  });
});

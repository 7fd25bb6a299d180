import { describe, expect, it } from 'vitest';
import { fixtureInput, fixtureRecords, fixtureSummary, makeRecord, makeScores } from '../../test/fixtures/reports/fixture.js';
import { createReportInputBuilder, rowsOf } from './report-input.js';

describe('createReportInputBuilder', () => {
  it('folds one slim row per request plus one per model into the figures, and keeps no row', () => {
    const input = fixtureInput();
    expect(Object.keys(input).sort()).toEqual(['distributions', 'grid', 'junit', 'meta', 'summary', 'worst']);
    // 14 records, two of them multi-model with two models each: junit.xml has the 14 requests.
    expect(input.junit.length).toBe(14);
    for (let i = 0; i < input.junit.length; i += 1) expect(input.junit.at(i)).not.toHaveProperty('answer');
    // The grid has a cell per model column of a multi-model request besides its own.
    const q2 = input.grid.questions.find((q) => q.id === 'q2')!;
    expect([...q2.cells.keys()]).toContain(JSON.stringify(['duo', 'stream', 1]));
    expect(input.meta).toEqual({ title: 'Fixture run', generated_by: 'chatbench 0.1.0', run_dir: 'reports/fixture' });
  });

  it('cuts the question to 200 characters', () => {
    const [row] = rowsOf(makeRecord({ question_id: 'q', set: 's', question: 'é'.repeat(500) }));
    expect(Array.from(row!.question)).toHaveLength(200);
  });

  it('keeps the N worst records: errors first, then failures, then by ascending citation F1', () => {
    const input = fixtureInput({ worst: 5 });
    expect(input.worst.map((r) => r.key)).toEqual([
      'q2|duo|stream|0', // stream_error
      'q10|fast|stream|0', // http_error
      'q2|fast|stream|0', // failed, F1 0.667
      'q10|accurate|stream|0', // failed, F1 1
      'q3|fast|full|0', // failed, F1 N/A
    ]);
  });

  it('keeps none with worst: 0, and only N however many records arrive', () => {
    const none = createReportInputBuilder({ worst: 0 });
    const two = createReportInputBuilder({ worst: 2 });
    for (let i = 0; i < 500; i += 1) {
      const record = makeRecord({ question_id: `q${i}`, set: 's', scores: makeScores({ citation_f1: (i % 97) / 100 }) });
      none.add(record);
      two.add(record);
    }
    expect(none.finish(fixtureSummary()).worst).toEqual([]);
    expect(two.finish(fixtureSummary()).worst.map((r) => r.scores?.citation_f1)).toEqual([0, 0]);
    expect(two.finish(fixtureSummary()).junit.length).toBe(500);
  });

  it.each([
    { name: 'a passing request', spec: {}, pass: true, reasons: [] },
    { name: 'an http error', spec: { outcome: 'http_error' as const, http_status: 503, error_code: 'E_BUSY', scores: null }, pass: false, reasons: ['outcome http_error 503 E_BUSY'] },
    { name: 'missing phrases and zero recall', spec: { scores: makeScores({ pass: false, citation_recall: 0, missing_phrases: ['x'] }) }, pass: false, reasons: ['missing phrases: "x"', 'no expected document cited (citation recall 0)'] },
    { name: 'invalid citations', spec: { scores: makeScores({ pass: false, invalid_citations: 2 }) }, pass: false, reasons: ['2 invalid citation(s)'] },
    { name: 'cited on expect_no_answer', spec: { scores: makeScores({ pass: false, no_answer_ok: false }) }, pass: false, reasons: ['cited documents on a question that expects no answer'] },
    { name: 'a failure with no known cause', spec: { scores: makeScores({ pass: false }) }, pass: false, reasons: ['did not pass'] },
  ])('says why $name did not pass', ({ spec, pass, reasons }) => {
    const [row] = rowsOf(makeRecord({ question_id: 'q', set: 's', ...spec }));
    expect(row!.pass).toBe(pass);
    expect(row!.reasons).toEqual(reasons);
  });

  it('folds the models of a multi-model request into its row', () => {
    const duo = fixtureRecords().find((r) => r.key === 'q2|duo|stream|0')!;
    const [whole, mini, large] = rowsOf(duo);
    expect(whole).toMatchObject({ model_index: null, outcome: 'stream_error', pass: false });
    expect(whole!.reasons).toEqual(['outcome stream_error E_MODEL', '[large] outcome stream_error E_MODEL']);
    // mini is judged on its own answer, as its column in the summary is: it reached stop and passed.
    expect(mini).toMatchObject({ model_index: 0, outcome: 'ok', pass: true, reasons: [] });
    expect(large).toMatchObject({ model_index: 1, outcome: 'stream_error', ttfp_ms: null, citation_f1: null });
  });
});

import { describe, expect, it } from 'vitest';
import { makeRecord } from '../../test/fixtures/reports/fixture.js';
import { createJunitCasesBuilder } from './junit-cases.js';
import { rowsOf } from './report-input.js';

describe('junit cases as columns', () => {
  it('give back each case as added: a question id reused with another text keeps that text, repeats and times to the bit', () => {
    const records = [
      makeRecord({ question_id: 'q1', set: 'a', question: 'first text', total_ms: 12.345 }),
      makeRecord({ question_id: 'q1', set: 'a', repeat: 1, question: 'first text', total_ms: 1 / 3 }),
      makeRecord({ question_id: 'q1', set: 'a', repeat: 2, question: 'another text', total_ms: 7 }),
      makeRecord({ question_id: 'q2', set: 'a', question: 'second', outcome: 'timeout', total_ms: null }),
    ];
    const builder = createJunitCasesBuilder();
    const rows = records.flatMap((record) => rowsOf(record));
    for (const row of rows) builder.add(row);
    const cases = builder.finish();
    expect(cases.repeats).toBe(true);
    expect(Array.from({ length: cases.length }, (_, i) => cases.at(i))).toEqual(
      rows.map(({ question_id, question, repeat, outcome, pass, checked, total_ms, reasons }) => ({
        question_id,
        question,
        repeat,
        outcome,
        pass,
        checked,
        total_ms,
        reasons,
      })),
    );
  });

  it('order each suite by natural question id, then repeat, then as added, whatever order they came in', () => {
    const specs = [
      ['q10', 'a', 1],
      ['q2', 'a', 2],
      ['q2', 'b', 0],
      ['q10', 'a', 0],
      ['q2', 'a', 0],
      ['Q2', 'a', 1],
      ['q1', 'a', 5],
      ['q2', 'a', 1],
    ] as const;
    const builder = createJunitCasesBuilder();
    for (const [question_id, set, repeat] of specs) for (const row of rowsOf(makeRecord({ question_id, set, repeat }))) builder.add(row);
    const cases = builder.finish();
    const named = (suite: { cases: Uint32Array }) => Array.from(suite.cases, (i) => `${cases.at(i).question_id}#${cases.at(i).repeat}`);
    expect(cases.suites().map((suite) => [suite.set, named(suite)])).toEqual([
      ['a', ['q1#5', 'q2#0', 'q2#1', 'q2#2', 'Q2#1', 'q10#0', 'q10#1']],
      ['b', ['q2#0']],
    ]);
  });
});

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
});

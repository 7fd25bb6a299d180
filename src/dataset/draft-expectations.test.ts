import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { draftExpectations, type DraftRow } from './draft-expectations.js';
import type { QuestionCandidates } from './expectation-candidates.js';

const found = (id: string, docs: Array<[string, number]>): QuestionCandidates => ({
  question_id: id,
  question: `${id}?`,
  expected: [],
  answers: 2,
  candidates: docs.map(([document_id, sets_cited]) => ({
    document_id,
    title: null,
    link: null,
    sets_cited,
    cited: sets_cited,
    top: 1,
    best_rank: 1,
  })),
});

const row = (id: string, expected: string[], cells: string[]): DraftRow => ({
  id,
  question: `${id}?`,
  expected,
  cells,
});

describe('the dataset draft', () => {
  const candidates = new Map([
    [
      'q1',
      found('q1', [
        ['a', 2],
        ['b', 1],
      ]),
    ],
    ['q2', found('q2', [['c', 2]])],
    ['q3', found('q3', [['d', 0]])],
  ]);

  it('fills expected_documents of questions without any, keeps those with, and every other cell as it was', () => {
    const rows = [
      row('q1', [], ['q1', 'q1?, with a comma', '', 'x|y']),
      row('q2', ['kept'], ['q2', 'q2?', 'kept', '']),
      row('q3', [], ['q3', 'q3?', '', '']),
      row('q4', [], ['q4', 'not asked', '', '']),
    ];
    const draft = draftExpectations(['id', 'question', 'expected_documents', 'tags'], rows, candidates, {
      top: 3,
      minSets: 1,
    });
    expect(parse(draft.csv)).toEqual([
      ['id', 'question', 'expected_documents', 'tags'],
      ['q1', 'q1?, with a comma', 'a|b', 'x|y'],
      ['q2', 'q2?', 'kept', ''],
      ['q3', 'q3?', '', ''],
      ['q4', 'not asked', '', ''],
    ]);
    expect(draft.questions.map((q) => [q.id, q.proposed, q.answers, q.candidates.length])).toEqual([
      ['q1', ['a', 'b'], 2, 2],
      ['q2', [], 2, 1],
      ['q3', [], 2, 1],
      ['q4', [], 0, 0],
    ]);
  });

  it('adds the expected_documents column when the dataset has none, and applies --top and --min-sets', () => {
    const draft = draftExpectations(['question', 'id'], [row('q1', [], ['q1?', 'q1'])], candidates, {
      top: 1,
      minSets: 2,
    });
    expect(parse(draft.csv)).toEqual([
      ['question', 'id', 'expected_documents'],
      ['q1?', 'q1', 'a'],
    ]);
  });
});

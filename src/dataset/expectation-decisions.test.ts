import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { DraftQuestion, DraftRow } from './draft-expectations.js';
import {
  completeExpectations,
  createDecisionsParser,
  DECISION_VERSION,
  type Decisions,
} from './expectation-decisions.js';

const question = (id: string, expected: string[], docs: string[]): DraftQuestion => ({
  id,
  question: `${id}?`,
  expected,
  proposed: docs.slice(0, 1),
  answers: 2,
  candidates: docs.map((document_id) => ({
    document_id,
    title: null,
    link: null,
    sets_cited: 1,
    cited: 1,
    top: 1,
    best_rank: 1,
  })),
});

const row = (id: string, cells: string[]): DraftRow => ({ id, question: `${id}?`, expected: [], cells });

const line = (question_id: string, document_id: string, decision: string) =>
  JSON.stringify({
    decision_version: DECISION_VERSION,
    question_id,
    document_id,
    decision,
    reviewer: 'ann',
    at: '2026-11-26T10:00:00.000Z',
  });

function parseLines(lines: string[], lastTerminated = true) {
  const parser = createDecisionsParser('run/expectations.jsonl');
  lines.forEach((text, i) => parser.line(text, i + 1, i < lines.length - 1 || lastTerminated));
  return parser.result();
}

describe('expectations.jsonl', () => {
  it('keeps the last decision of each candidate', () => {
    const { decisions, count, problems } = parseLines([
      line('q1', 'a', 'accept'),
      '',
      line('q1', 'b', 'accept'),
      line('q1', 'a', 'reject'),
      line('q2', 'a', 'accept'),
    ]);
    expect(problems).toEqual([]);
    expect(count).toBe(4);
    expect(decisions).toEqual(
      new Map([
        [
          'q1',
          new Map([
            ['a', 'reject'],
            ['b', 'accept'],
          ]),
        ],
        ['q2', new Map([['a', 'accept']])],
      ]),
    );
  });

  it('skips a torn last line and names every other bad line', () => {
    expect(parseLines([line('q1', 'a', 'accept'), '{"decision_ver'], false).problems).toEqual([]);
    const { problems } = parseLines(['{"decision_ver', line('q1', 'a', 'maybe'), '{}']);
    expect(problems[0]).toMatch(/^run\/expectations\.jsonl:1: not JSON/);
    expect(problems[1]).toMatch(/^run\/expectations\.jsonl:2: decision: /);
    expect(problems.filter((p) => p.startsWith('run/expectations.jsonl:3: '))).not.toHaveLength(0);
  });

  it('refuses an id longer than a line may hold', () => {
    const long = 'x'.repeat(2001);
    expect(parseLines([line('q1', long, 'accept')]).problems[0]).toMatch(/:1: document_id: /);
    expect(line('x'.repeat(2000), 'y'.repeat(2000), 'accept').length).toBeLessThan(8 * 1024);
  });
});

describe('the completed dataset', () => {
  const columns = ['id', 'question', 'expected_documents', 'category'];
  const rows = [
    row('q1', ['q1', 'q1?', 'a', 'hr']),
    row('q2', ['q2', 'q2?', 'kept-1|kept-2', 'it']),
    row('q3', ['q3', 'q3?', 'c', 'it']),
    row('q4', ['q4', 'q4?', '', 'x']),
  ];
  const questions = [
    question('q1', [], ['a', 'b', 'c']),
    question('q2', ['kept-1', 'kept-2'], ['z']),
    question('q3', [], ['c']),
  ];
  const decisions: Decisions = new Map([
    [
      'q1',
      new Map([
        ['c', 'accept'],
        ['a', 'reject'],
        ['b', 'accept'],
      ]),
    ],
    ['q2', new Map([['z', 'accept']])],
    ['q9', new Map([['a', 'accept']])],
  ]);

  it('sets expected_documents to the accepted candidates, in the candidates order, and keeps expectations', () => {
    const done = completeExpectations(columns, rows, questions, decisions);
    expect(parse(done.csv)).toEqual([
      columns,
      ['q1', 'q1?', 'b|c', 'hr'],
      ['q2', 'q2?', 'kept-1|kept-2', 'it'],
      // Proposed by the draft, never accepted: not kept.
      ['q3', 'q3?', '', 'it'],
      // Not among the candidates: as the draft has it.
      ['q4', 'q4?', '', 'x'],
    ]);
    expect({ accepted: done.accepted, kept: done.kept, empty: done.empty }).toEqual({ accepted: 1, kept: 1, empty: 1 });
  });

  it('adds the expected_documents column when the rows have none', () => {
    const done = completeExpectations(
      ['id', 'question'],
      [row('q3', ['q3', 'q3?'])],
      questions,
      new Map([['q3', new Map([['c', 'accept']])]]),
    );
    expect(parse(done.csv)).toEqual([
      ['id', 'question', 'expected_documents'],
      ['q3', 'q3?', 'c'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { datasetWarnings } from './warnings.js';

const row = (line: number, ids: string[]) => ({ line, expectations: { expected_document_ids: ids } }) as never;

describe('datasetWarnings', () => {
  it('warns about an id holding a comma, one line each, with the file and line', () => {
    const dataset = { path: 'q.csv', rows: [row(2, ['doc-1']), row(3, ['a,b', 'c']), row(4, [])] };
    expect(datasetWarnings(dataset, null)).toEqual([
      'q.csv:3: expected_documents: "a,b" is one id holding a comma; ids are separated by "|" ("a|b") or given as a JSON array',
    ]);
  });

  it('with a corpus, warns about ids it does not have (a comma id is warned once, for its comma)', () => {
    const dataset = { path: 'q.csv', rows: [row(2, ['doc-1', 'doc-9']), row(3, ['x,y'])] };
    expect(datasetWarnings(dataset, { name: 'corpus.json', ids: new Set(['doc-1']) })).toEqual([
      'q.csv:2: expected_documents: "doc-9" is no document of the corpus corpus.json (did you mean doc-1?)',
      'q.csv:3: expected_documents: "x,y" is one id holding a comma; ids are separated by "|" ("x|y") or given as a JSON array',
    ]);
  });

  it('says nothing about a clean dataset', () => {
    expect(
      datasetWarnings({ path: 'q.csv', rows: [row(2, ['doc-1'])] }, { name: 'c', ids: new Set(['doc-1']) }),
    ).toEqual([]);
  });

  it('names the nearest id of the corpus when one is a few edits away, and none when nothing is close', () => {
    const corpus = { name: 'the simulator', ids: new Set(['eng-rollback-runbook', 'hr-pto-policy']) };
    expect(datasetWarnings({ path: 'q.csv', rows: [row(2, ['eng-rollback-runbok', 'finance-q3'])] }, corpus)).toEqual([
      'q.csv:2: expected_documents: "eng-rollback-runbok" is no document of the corpus the simulator (did you mean eng-rollback-runbook?)',
      'q.csv:2: expected_documents: "finance-q3" is no document of the corpus the simulator',
    ]);
  });
});

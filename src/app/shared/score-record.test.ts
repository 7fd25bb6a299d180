import { describe, expect, it } from 'vitest';
import { computeScores } from '../../metrics/score.js';
import { fakeExchange, plannedRequest } from '../../runner/testing/fake-client.js';
import { toRecord } from '../../runner/to-record.js';
import { scoreRecord } from './score-record.js';

const expectations = {
  expected_document_ids: ['d1'],
  must_contain: ['paris'],
  must_not_contain: [],
  expect_no_answer: false,
  reference_answer: 'Paris is the capital.',
};
const unscored = (models = false) =>
  toRecord(
    plannedRequest(1),
    fakeExchange({
      answer: 'Paris [[1]]',
      models: models
        ? [0, 1].map((model_index) => ({ ...fakeExchange(), model_index, model_name: `m${model_index}`, scores: null }))
        : null,
    } as Parameters<typeof fakeExchange>[0]),
    [],
    0,
  );

describe('scoreRecord', () => {
  // results.jsonl is JSON.stringify of this object: filling it in place must give the keys and
  // values a copy (`{ ...record, scores, judge, … }`) gave, in the same order, byte for byte.
  it.each([
    ['a single-model record', false],
    ['a multi-model record', true],
  ])('fills %s in place with the keys and bytes of a copy', (_, models) => {
    const record = unscored(models);
    const copied = JSON.stringify({
      ...record,
      scores: record.models !== null ? null : computeScores(record, expectations),
      judge: null,
      checks: {},
      reference_answer: expectations.reference_answer,
      rubric: null,
      human_verdict: null,
      models:
        record.models?.map((m) => ({ ...m, scores: computeScores(m, expectations), judge: null, checks: {} })) ?? null,
    });
    const scored = scoreRecord(record, expectations);
    expect(scored).toBe(record);
    expect(JSON.stringify(scored)).toBe(copied);
    expect(Object.keys(scored).slice(-5)).toEqual(['judge', 'checks', 'reference_answer', 'rubric', 'human_verdict']);
  });

  it('gives the same record when scoring it again, and null scores without expectations', () => {
    const record = unscored();
    const once = JSON.stringify(scoreRecord(record, expectations));
    expect(JSON.stringify(scoreRecord(record, expectations))).toBe(once);
    expect(scoreRecord(unscored(), undefined).scores).toBeNull();
  });
});

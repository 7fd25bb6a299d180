import { describe, expect, it } from 'vitest';
import { RequestRecordSchema } from '../records/record.js';
import { fakeExchange, plannedRequest } from './testing/fake-client.js';
import { toRecord, toRecordBySpread } from './to-record.js';

describe('toRecord', () => {
  it("writes only the fields of the record schema (docs/reference/results-jsonl.md), not the attempt's framing or is_retryable", () => {
    const exchange = fakeExchange({
      outcome: 'stream_error',
      framing: 'ndjson',
      error_retryable: false,
      error_body: 'x',
    });
    const record = toRecord(plannedRequest(1), exchange, [], 0);
    const known = new Set(Object.keys(RequestRecordSchema.shape));
    expect(Object.keys(record).filter((k) => !known.has(k))).toEqual([]);
    expect(record).not.toHaveProperty('framing');
    expect(record).not.toHaveProperty('error_retryable');
  });
});

describe('toRecord, one object literal per order of the exchange keys', () => {
  const asWritten = (record: object) => JSON.stringify(record, (_key, value: unknown) => value ?? null);
  const cases: [string, () => Parameters<typeof toRecord>][] = [
    ['an answer', () => [plannedRequest(1), fakeExchange({ answer: 'Hi [[1]].', chat_session_id: 's-1' }), [], 0]],
    ['a failure', () => [plannedRequest(2), fakeExchange({ outcome: 'timeout', error_body: 'x' }), [], 5]],
    [
      'a later turn (its session from the conversation; an optional key set undefined)',
      () => [
        plannedRequest(3, { conversation: { id: 'c', turn: 2 } } as never),
        { ...fakeExchange({ chat_session_id: null }), answer_truncated: undefined as never, tools_used: ['search'] },
        [{ attempt: 1, outcome: 'ok', http_status: 200, error_code: null, retry_after_s: null, total_ms: 3 }],
        1,
        { origin: 'continued', chat_session_id: 'c-1' },
      ],
    ],
    [
      'two models, one named by the plan',
      () => [
        plannedRequest(4, { model_names: ['a', 'b'] }),
        fakeExchange({
          answered_models: null,
          models: [
            { ...fakeExchange(), model_index: 0, model_name: null, scores: null },
            { ...fakeExchange(), model_index: 1, model_name: 'named', scores: null },
          ] as never,
        }),
        [],
        0,
      ],
    ],
    [
      'an exchange with an inherited enumerable key (the spread then)',
      () => [plannedRequest(5), Object.assign(Object.create({ inherited: 1 }) as object, fakeExchange()), [], 0],
    ],
  ];
  it.each(cases)(
    '%s: the same keys in the same order and values as the spread build, from the cache too',
    (_, args) => {
      const spread = toRecordBySpread(...args());
      for (let i = 0; i < 3; i++) {
        const built = toRecord(...args());
        expect(Object.keys(built)).toEqual(Object.keys(spread));
        expect(asWritten(built)).toBe(asWritten(spread));
        expect(built).toEqual(spread);
      }
    },
  );

  it("copies the attempts: the runner's list may grow after", () => {
    const attempts = [
      { attempt: 1, outcome: 'ok' as const, http_status: 200, error_code: null, retry_after_s: null, total_ms: 3 },
    ];
    const record = toRecord(plannedRequest(1), fakeExchange(), attempts, 0);
    expect(record.attempts).not.toBe(attempts);
    expect(record.attempts).toEqual(attempts);
  });
});

import { describe, expect, it } from 'vitest';
import { RequestRecordSchema } from '../records/record.js';
import { fakeExchange, plannedRequest } from './testing/fake-client.js';
import { toRecord } from './to-record.js';

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

import { describe, expect, it } from 'vitest';
import { createFailureTally, describeFailure, failureHint, failureKey } from './verdict.js';

const f = (outcome: string, http_status: number | null = null, error_code: string | null = null) => ({
  outcome,
  http_status,
  error_code,
});

describe('failureKey', () => {
  it('is the class with the status, or with the code for streaming and network errors; none for ok and cancelled', () => {
    expect(failureKey(f('http_error', 404))).toBe('http_error|404');
    expect(failureKey(f('rate_limited', 429))).toBe('rate_limited|429');
    expect(failureKey(f('stream_error', 200, 'MODEL_ERROR'))).toBe('stream_error|MODEL_ERROR');
    expect(failureKey(f('network', null, 'ECONNRESET'))).toBe('network|ECONNRESET');
    expect(failureKey(f('timeout'))).toBe('timeout');
    // A class the record may gain later (another issue adds empty_answer) is a failure like any.
    expect(failureKey(f('empty_answer', 200))).toBe('empty_answer');
    expect(failureKey(f('ok', 200))).toBeNull();
    expect(failureKey(f('cancelled'))).toBeNull();
  });
});

describe('failureHint', () => {
  it.each([
    [f('http_error', 404), /does --base-url include the service's path prefix \(e\.g\. \/api\)\?/],
    [f('http_error', 405), /does not take POST/],
    [f('http_error', 415), /refused the JSON body/],
    [f('http_error', 502), /the service is failing \(HTTP 502\)/],
    [f('rate_limited', 429), /--retry-429.*lower --concurrency/],
    [f('http_error', 422), /rejected every request/],
    [f('timeout'), /--timeout/],
    [f('stream_error', 200, 'MODEL_ERROR'), /model override sets/],
    [f('empty_answer', 200), /is --base-url the chat service's API/],
  ])('%o → %s', (failure, hint) => {
    expect(failureHint(failure)).toMatch(hint);
  });
  it('names the failure', () => {
    expect(describeFailure(f('http_error', 404))).toBe('HTTP 404');
    expect(describeFailure(f('stream_error', 200, 'RATE_LIMIT'))).toBe('the streaming error RATE_LIMIT');
  });
});

describe('createFailureTally', () => {
  it('gives a verdict only when every counted request failed alike; cancelled ones are not counted', () => {
    const tally = createFailureTally('http://host/api');
    for (let i = 0; i < 75; i++)
      tally.add({ ...f('http_error', 404), error_message: 'HTTP 404: {"detail":"Not Found"}' });
    tally.add(f('cancelled'));
    const verdict = tally.verdict();
    expect(verdict?.message).toBe(
      'http://host/api: every request (75 of 75) failed the same way, with HTTP 404: HTTP 404: {"detail":"Not Found"}',
    );
    expect(verdict?.exitCode).toBe(3);
    const mixed = createFailureTally('t');
    mixed.add(f('http_error', 404));
    mixed.add(f('http_error', 500));
    expect(mixed.verdict()).toBeUndefined();
    const some = createFailureTally('t');
    some.add(f('rate_limited', 429));
    some.add(f('ok', 200));
    expect(some.verdict()).toBeUndefined();
    expect(createFailureTally('t').verdict()).toBeUndefined();
  });
});

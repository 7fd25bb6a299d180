import { expect, it } from 'vitest';
import { OUTCOMES } from '../records/record.js';
import { OUTCOME_PRECEDENCE, worseOutcome, worstOutcome } from './outcome.js';

it('ranks every outcome class exactly once', () => {
  expect([...OUTCOME_PRECEDENCE].sort()).toEqual([...OUTCOMES].sort());
});

it.each([
  ['cancelled', 'timeout', 'cancelled'],
  ['timeout', 'network', 'timeout'],
  ['network', 'stream_error', 'network'],
  ['stream_error', 'invalid_response', 'stream_error'],
  ['invalid_response', 'truncated', 'invalid_response'],
  ['truncated', 'ok', 'truncated'],
  ['rate_limited', 'stream_error', 'rate_limited'],
  ['ok', 'ok', 'ok'],
] as const)('%s vs %s → %s, in either order', (a, b, want) => {
  expect(worseOutcome(a, b)).toBe(want);
  expect(worseOutcome(b, a)).toBe(want);
});

it('the worst of several; ok for none', () => {
  expect(worstOutcome(['ok', 'truncated', 'stream_error', 'ok'])).toBe('stream_error');
  expect(worstOutcome([])).toBe('ok');
});

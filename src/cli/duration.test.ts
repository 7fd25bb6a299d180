import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500], ['60s', 60_000], ['2m', 120_000], ['1h', 3_600_000], ['1m30s', 90_000], ['1.5s', 1500], ['45', 45_000], [' 10s ', 10_000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text, 'timeout')).toBe(ms));

  it.each(['', 'ten', '10x', '10s5', '-5s', 's'])('rejects %j naming the flag', (text) => {
    expect(() => parseDuration(text, 'timeout')).toThrow(UsageError);
    expect(() => parseDuration(text, 'timeout')).toThrow(/^--timeout: /);
  });
});

import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { parseDuration } from './duration.js';
import { joinDashValues } from './argv.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['60s', 60_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['1.5s', 1500],
    ['45', 45_000],
    [' 10s ', 10_000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text, 'timeout')).toBe(ms));

  it.each(['', 'ten', '10x', '10s5', '-5s', 's'])('rejects %j naming the flag', (text) => {
    expect(() => parseDuration(text, 'timeout')).toThrow(UsageError);
    expect(() => parseDuration(text, 'timeout')).toThrow(/^--timeout: /);
  });
});

describe('parseDuration bounds, for every duration flag', () => {
  it('refuses a negative value, zero where time must pass, and more than the flag (or a timer) allows', () => {
    expect(() => parseDuration('-1s', 'timeout')).toThrow(
      '--timeout: "-1s" is negative; a duration is 0 or more (e.g. 500ms, 60s, 2m, 1m30s)',
    );
    expect(parseDuration('0s', 'grace')).toBe(0);
    expect(() => parseDuration('0s', 'timeout', { positive: true })).toThrow(
      '--timeout: "0s" is no time at all; give a duration above 0',
    );
    expect(() => parseDuration('8d', 'duration')).toThrow(/is not a duration/);
    expect(() => parseDuration('169h', 'duration', { maxMs: 7 * 86_400_000 })).toThrow(
      '--duration: "169h" is over the maximum of 7 days',
    );
    expect(() => parseDuration('600h', 'timeout')).toThrow('--timeout: "600h" is over the maximum of 24.9 days');
    expect(parseDuration('596h', 'timeout')).toBe(596 * 3_600_000);
  });
});

describe('joinDashValues', () => {
  it('joins a value that starts with a dash and a digit to the long flag before it, and nothing after --', () => {
    expect(joinDashValues(['eval', '--timeout', '-1s', '--rate', '-5', '-h'])).toEqual([
      'eval',
      '--timeout=-1s',
      '--rate=-5',
      '-h',
    ]);
    expect(joinDashValues(['--grace', '-.5s', '--', '--x', '-1'])).toEqual(['--grace=-.5s', '--', '--x', '-1']);
    expect(joinDashValues(['--timeout=-1s', '--sim', '--out', 'x'])).toEqual(['--timeout=-1s', '--sim', '--out', 'x']);
  });
});

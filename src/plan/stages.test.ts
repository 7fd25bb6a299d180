import { expect, it } from 'vitest';
import { parseDurationMs, parseStages, stagesDurationMs, targetAt } from './stages.js';

it('parses stages with every duration form', () => {
  expect(parseStages('30s:10, 2m:50,500ms:0,1m30s:2.5')).toEqual([
    { duration_ms: 30_000, target: 10 },
    { duration_ms: 120_000, target: 50 },
    { duration_ms: 500, target: 0 },
    { duration_ms: 90_000, target: 2.5 },
  ]);
  expect(parseDurationMs('1h')).toBe(3_600_000);
  expect(parseDurationMs('2')).toBe(2000);
  expect(parseDurationMs('2x')).toBeUndefined();
});

it.each([
  ['', 'no stages: give duration:target pairs, e.g. "30s:10,2m:50,30s:0"'],
  ['30s', 'stage 1 "30s": not duration:target (e.g. 30s:10)'],
  ['30s:10,abc:5', 'stage 2 "abc:5": "abc" is not a duration (e.g. 500ms, 30s, 2m, 1m30s)'],
  ['30s:-1', 'stage 1 "30s:-1": the target must be 0 or more'],
  ['30s:ten', 'stage 1 "30s:ten": the target "ten" is not a number'],
  ['0s:5', 'stage 1 "0s:5": the duration must be more than 0'],
  ['10s:0,5s:0', 'every stage targets 0: nothing would be sent'],
])('refuses %j with a message naming the stage', (text, message) => {
  expect(parseStages(text)).toEqual({ problems: [message] });
});

it('lists every bad stage at once, and wants whole users in the closed model', () => {
  expect(parseStages('1s:x,2q:1')).toEqual({
    problems: [
      'stage 1 "1s:x": the target "x" is not a number',
      'stage 2 "2q:1": "2q" is not a duration (e.g. 500ms, 30s, 2m, 1m30s)',
    ],
  });
  expect(parseStages('10s:2.5', { integerTargets: true })).toEqual({
    problems: ['stage 1 "10s:2.5": the target is a number of users: a whole number'],
  });
});

it('interpolates the target linearly within a stage, from 0', () => {
  const stages = [
    { duration_ms: 10_000, target: 10 },
    { duration_ms: 10_000, target: 0 },
  ];
  expect(stagesDurationMs(stages)).toBe(20_000);
  expect(targetAt(stages, 5000)).toBe(5);
  expect(targetAt(stages, 15_000)).toBe(5);
  expect(targetAt(stages, 25_000)).toBe(0);
  expect(targetAt(stages, -1)).toBe(0);
});

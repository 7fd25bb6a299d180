import { describe, expect, it } from 'vitest';
import { describeThinkTime, parseThinkTime, thinkTimeMs } from './think-time.js';

describe('parseThinkTime', () => {
  it.each([
    ['0', { kind: 'constant', ms: 0 }],
    ['5s', { kind: 'constant', ms: 5000 }],
    ['1500ms', { kind: 'constant', ms: 1500 }],
    ['2s..8s', { kind: 'uniform', min_ms: 2000, max_ms: 8000 }],
    ['500ms..1m', { kind: 'uniform', min_ms: 500, max_ms: 60_000 }],
    ['lognormal:3s,p99=15s', { kind: 'lognormal', median_ms: 3000, p99_ms: 15_000 }],
  ])('%s', (text, want) => expect(parseThinkTime(text)).toEqual(want));

  it.each([
    ['', ['empty: give a constant (5s), a range (2s..8s) or lognormal:MEDIAN,p99=P99 (lognormal:3s,p99=15s)']],
    [
      '5',
      [
        'the think time "5" needs a unit (ms, s or m); give a constant (5s), a range (2s..8s) or lognormal:MEDIAN,p99=P99 (lognormal:3s,p99=15s)',
      ],
    ],
    ['8s..2s', ['"8s..2s": the lower bound (8000 ms) is above the upper (2000 ms)']],
    ['2x..8s', ['the lower bound "2x" is not a duration (e.g. 500ms, 3s, 1m)']],
    ['1s..2s..3s', ['"1s..2s..3s": a range has two bounds (2s..8s)']],
    ['lognormal:3s', ['"lognormal:3s": lognormal needs p99=DURATION after the median (lognormal:3s,p99=15s)']],
    ['lognormal:3s,p99=1s', ['"lognormal:3s,p99=1s": p99 (1000 ms) is below the median (3000 ms)']],
    [
      'lognormal:abc,p99=zz',
      ['the median "abc" is not a duration (e.g. 500ms, 3s, 1m)', 'p99 "zz" is not a duration (e.g. 500ms, 3s, 1m)'],
    ],
  ])('%j is refused, every problem named', (text, problems) => expect(parseThinkTime(text)).toEqual({ problems }));

  it('writes back as it was written', () => {
    for (const text of ['5s', '2s..8s', 'lognormal:3s,p99=15s', '250ms']) {
      const parsed = parseThinkTime(text);
      if ('problems' in parsed) throw new Error(parsed.problems.join());
      expect(describeThinkTime(parsed)).toBe(text);
    }
  });
});

describe('thinkTimeMs', () => {
  const uniform = { kind: 'uniform', min_ms: 2000, max_ms: 8000 } as const;
  const lognormal = { kind: 'lognormal', median_ms: 3000, p99_ms: 15_000 } as const;
  it('depends only on the seed, the arrival and the turn (every shard draws the same)', () => {
    expect(thinkTimeMs(uniform, 7, 42, 2)).toBe(thinkTimeMs(uniform, 7, 42, 2));
    expect(thinkTimeMs(uniform, 7, 42, 2)).not.toBe(thinkTimeMs(uniform, 7, 42, 3));
    expect(thinkTimeMs(uniform, 7, 42, 2)).not.toBe(thinkTimeMs(uniform, 7, 43, 2));
  });
  it('draws inside a range; a log-normal has its median and its p99', () => {
    const draws = Array.from({ length: 4000 }, (_, n) => thinkTimeMs(uniform, 1, n, 2));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(2000);
    expect(Math.max(...draws)).toBeLessThanOrEqual(8000);
    const sorted = Array.from({ length: 20_000 }, (_, n) => thinkTimeMs(lognormal, 1, n, 2)).sort((a, b) => a - b);
    expect(sorted[10_000]! / 3000).toBeGreaterThan(0.95);
    expect(sorted[10_000]! / 3000).toBeLessThan(1.05);
    expect(sorted[19_800]! / 15_000).toBeGreaterThan(0.85);
    expect(sorted[19_800]! / 15_000).toBeLessThan(1.15);
  });
});

import { describe, expect, it } from 'vitest';
import { abandonAfterMs, DEFAULT_ABANDON_AFTER, parseAbandon } from './abandon.js';

/** The CLI passes its duration parser; this one reads the two units the cases use. */
const ms = (text: string) => {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(text);
  if (m === null) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
};

describe('parseAbandon', () => {
  it.each([
    ['0.1', { share: 0.1, ...DEFAULT_ABANDON_AFTER }],
    ['0.1@2s', { share: 0.1, after_min_ms: 2000, after_max_ms: 2000 }],
    ['0.25@500ms-3s', { share: 0.25, after_min_ms: 500, after_max_ms: 3000 }],
    ['1@0s', { share: 1, after_min_ms: 0, after_max_ms: 0 }],
  ])('%s', (text, want) => expect(parseAbandon(text, ms)).toEqual(want));

  it.each(['0', '1.5', 'x', '', '0.1@', '0.1@3s-1s', '0.1@1s-2s-3s', '0.1@1s@2s'])(
    'refuses %j naming the flag',
    (text) => {
      expect(parseAbandon(text, ms)).toMatch(/^--abandon /);
    },
  );
});

describe('abandonAfterMs', () => {
  it('abandons about the share, each arrival the same way every time, after a delay in the range', () => {
    const spec = { share: 0.2, after_min_ms: 500, after_max_ms: 3000 };
    const draws = Array.from({ length: 5000 }, (_, i) => abandonAfterMs(spec, 7, i));
    const left = draws.filter((d): d is number => d !== null);
    expect(left.length / draws.length).toBeGreaterThan(0.17);
    expect(left.length / draws.length).toBeLessThan(0.23);
    expect(left.every((d) => d >= 500 && d <= 3000)).toBe(true);
    expect(Array.from({ length: 5000 }, (_, i) => abandonAfterMs(spec, 7, i))).toEqual(draws);
    expect(Array.from({ length: 50 }, (_, i) => abandonAfterMs(spec, 8, i))).not.toEqual(draws.slice(0, 50));
    expect(abandonAfterMs(null, 7, 0)).toBeNull();
  });
});

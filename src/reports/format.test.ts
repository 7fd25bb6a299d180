import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trimText } from './format.js';

/** The definition: at most `max` code points, the cut marked with "…". */
const byCodePoints = (text: string, max: number) => {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
};

describe('trimText', () => {
  it('cuts on code points, never inside a surrogate pair, as the definition says', () => {
    const text = fc.array(fc.constantFrom('a', 'é', '\u{1F600}', '\ud83d', '\ude00', ' '), { maxLength: 14 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, fc.integer({ min: -1, max: 15 }), (t, max) => trimText(t, max) === byCodePoints(t, max)), { numRuns: 3000 });
  });
  it('keeps a text that fits, and marks a cut', () => {
    expect(trimText('abc', 3)).toBe('abc');
    expect(trimText('abcd', 3)).toBe('ab…');
    expect(trimText('\u{1F600}\u{1F600}', 2)).toBe('\u{1F600}\u{1F600}');
  });
});

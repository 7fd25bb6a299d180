import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { bestMarks, pairOrder, winner, type SetPair } from './pairwise.js';
import type { GroupComparison } from './schema.js';

const group = (figures: Array<{ significant: boolean; direction: 'better' | 'worse' | 'same' }>) =>
  ({ figures: figures.map((f, i) => ({ figure: `f${i}`, headline: true, ...f })) }) as unknown as GroupComparison;

describe('pairwise', () => {
  it('pairs every set with the first, or with --reference; a reference naming no set is a usage error', () => {
    expect(pairOrder(['a', 'b', 'c'], undefined)).toEqual({ reference: 'a', others: ['b', 'c'] });
    expect(pairOrder(['a', 'b', 'c'], 'b')).toEqual({ reference: 'b', others: ['a', 'c'] });
    expect(pairOrder(['a'], undefined)).toBeNull();
    expect(() => pairOrder(['a', 'b'], 'z')).toThrow(UsageError);
  });

  it.each([
    {
      name: 'nothing significant',
      figures: [{ significant: false, direction: 'better' as const }],
      want: 'no clear winner',
    },
    {
      name: 'only better',
      figures: [
        { significant: true, direction: 'better' as const },
        { significant: false, direction: 'worse' as const },
      ],
      want: 'best: fast (1 significantly better)',
    },
    {
      name: 'only worse',
      figures: [{ significant: true, direction: 'worse' as const }],
      want: 'best: accurate (fast 1 significantly worse)',
    },
    {
      name: 'mixed',
      figures: [
        { significant: true, direction: 'worse' as const },
        { significant: true, direction: 'better' as const },
      ],
      want: 'no clear winner (fast: 1 significantly better, 1 worse)',
    },
  ])('"best" only on significant changes that agree: $name', ({ figures, want }) => {
    expect(winner(group(figures), 'accurate', 'fast')).toBe(want);
  });

  describe('bestMarks: the tables\' "best" from the same tests as the pair lines', () => {
    type Said = 'better' | 'worse' | 'same' | 'untested';
    /** `other` against `reference`: pass_rate said as given, in one stream group. */
    const pair = (reference: string, other: string, said: Said, figure = 'pass_rate'): SetPair => ({
      reference,
      other,
      comparison: {
        groups: [
          {
            mode: 'stream',
            model_index: null,
            figures: [
              {
                figure,
                significant: said === 'better' || said === 'worse',
                direction: said === 'untested' ? 'better' : said,
              },
            ],
          },
        ],
      } as unknown as SetPair['comparison'],
    });

    it.each([
      { name: 'two sets, the other significantly better', pairs: [pair('a', 'b', 'better')], want: 'b' },
      { name: 'two sets, the other significantly worse', pairs: [pair('a', 'b', 'worse')], want: 'a' },
      { name: 'two sets, higher but not significant', pairs: [pair('a', 'b', 'untested')], want: null },
      {
        name: 'three sets, both others significantly worse',
        pairs: [pair('a', 'b', 'worse'), pair('a', 'c', 'worse')],
        want: 'a',
      },
      { name: 'three sets, c above a above b', pairs: [pair('a', 'b', 'worse'), pair('a', 'c', 'better')], want: 'c' },
      {
        name: 'three sets, b and c both above a (untested between them)',
        pairs: [pair('a', 'b', 'better'), pair('a', 'c', 'better')],
        want: null,
      },
      {
        name: 'three sets, c above a, b not significantly different from a',
        pairs: [pair('a', 'b', 'same'), pair('a', 'c', 'better')],
        want: null,
      },
      {
        name: 'a figure one pair lacks',
        pairs: [pair('a', 'b', 'worse'), pair('a', 'c', 'worse', 'citation_recall')],
        want: null,
      },
    ])('$name', ({ pairs, want }) => {
      const marks = bestMarks(pairs).filter((m) => m.figure === 'pass_rate');
      expect(marks).toEqual(
        want === null ? [] : [{ figure: 'pass_rate', mode: 'stream', model_index: null, set: want }],
      );
    });
  });
});

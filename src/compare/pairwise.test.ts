import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { pairOrder, winner } from './pairwise.js';
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
    { name: 'nothing significant', figures: [{ significant: false, direction: 'better' as const }], want: 'no clear winner' },
    { name: 'only better', figures: [{ significant: true, direction: 'better' as const }, { significant: false, direction: 'worse' as const }], want: 'best: fast (1 significantly better)' },
    { name: 'only worse', figures: [{ significant: true, direction: 'worse' as const }], want: 'best: accurate (fast 1 significantly worse)' },
    { name: 'mixed', figures: [{ significant: true, direction: 'worse' as const }, { significant: true, direction: 'better' as const }], want: 'no clear winner (fast: 1 significantly better, 1 worse)' },
  ])('"best" only on significant changes that agree: $name', ({ figures, want }) => {
    expect(winner(group(figures), 'accurate', 'fast')).toBe(want);
  });
});

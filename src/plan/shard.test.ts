import { describe, expect, it } from 'vitest';
import { parseShard, selectShard } from './shard.js';

// Ten questions, each asked by two sets, as a plan interleaves them (question by question).
const plan = Array.from({ length: 20 }, (_, index) => ({
  index,
  question_id: `q${Math.floor(index / 2)}`,
  set: index % 2 === 0 ? 'fast' : 'accurate',
}));

describe('shards', () => {
  it.each([2, 3, 4, 7, 10, 13])('%d shards cover every request exactly once, balanced within one question', (count) => {
    const shards = Array.from({ length: count }, (_, i) => selectShard(plan, { index: i + 1, count }));
    const all = shards
      .flat()
      .map((p) => p.index)
      .sort((a, b) => a - b);
    expect(all).toEqual(plan.map((p) => p.index));
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(2);
  });

  it('keeps every set of a question in one shard: a shard compares its sets on the same questions', () => {
    for (const count of [2, 3, 4]) {
      for (let i = 1; i <= count; i += 1) {
        const shard = selectShard(plan, { index: i, count });
        const asked = (set: string) => shard.filter((p) => p.set === set).map((p) => p.question_id);
        expect(asked('fast')).toEqual(asked('accurate'));
      }
    }
  });

  it('is stable: the same plan gives the same shard', () => {
    expect(selectShard(plan, { index: 2, count: 3 }).map((p) => p.index)).toEqual([2, 3, 8, 9, 14, 15]);
    expect(selectShard(plan, null)).toEqual(plan);
  });

  it.each([
    ['1/4', { index: 1, count: 4 }],
    [' 4/4 ', { index: 4, count: 4 }],
    ['3/2', '"3/2": the shard index must be between 1 and 2'],
    ['0/2', '"0/2": the shard index must be between 1 and 2'],
    ['1/0', '"1/0": the shard count must be at least 1'],
    ['two/4', '"two/4" is not a shard: give i/N, e.g. 2/4'],
    ['1', '"1" is not a shard: give i/N, e.g. 2/4'],
  ])('parseShard(%j)', (text, want) => expect(parseShard(text)).toEqual(want));
});

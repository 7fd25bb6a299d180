import { describe, expect, it } from 'vitest';
import { addToCluster, clusterValues, type ClusterValues } from './clustered.js';
import { BLOCK_ROWS, createScoreClusters } from './score-clusters.js';
import { createQuestionIndex } from './question-index.js';
import { QuestionRows } from './question-rows.js';

/** The map of maps the columns replaced: a cluster per question per figure. */
function naive() {
  const byName = new Map<string, Map<string, ClusterValues>>();
  return {
    add(name: string, key: string, value: number): boolean {
      let map = byName.get(name);
      if (map === undefined) byName.set(name, (map = new Map()));
      const had = map.get(key);
      map.set(key, addToCluster(had, value));
      return had !== undefined;
    },
    clusters: (name: string) =>
      new Map([...(byName.get(name) ?? [])].map(([key, values]) => [key, clusterValues(values)] as const)),
  };
}

const sorted = (clusters: ReadonlyMap<string, readonly number[]>) =>
  [...clusters]
    .map(([key, values]) => [key, [...values].sort((a, b) => a - b)] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));

describe('score clusters', () => {
  it.each([{ blockRows: BLOCK_ROWS }, { blockRows: 64 }])(
    'give back the same clusters as a cluster per question per figure, past the columns growing (blocks of $blockRows rows)',
    ({ blockRows }) => {
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const ids = createQuestionIndex();
      const compact = createScoreClusters(blockRows, new QuestionRows(), ids);
      const reference = naive();
      for (let i = 0; i < 5000; i++) {
        const name = ['hit_at_1', 'rouge_l', 'my_check'][Math.floor(random() * 3)]!;
        const key = `q${Math.floor(random() * (i < 2500 ? 3000 : 40))}`;
        const value = random() < 0.5 ? Math.floor(random() * 3) : random();
        expect(compact.add(name, ids.id(key), value)).toBe(reference.add(name, key, value));
      }
      // A figure first given to questions far past the first block: its column has no earlier blocks.
      for (let i = 0; i < 300; i++) {
        const key = `q${2900 + (i % 150)}`;
        expect(compact.add('late_check', ids.id(key), i / 300)).toBe(reference.add('late_check', key, i / 300));
      }
      for (const name of ['hit_at_1', 'rouge_l', 'my_check', 'late_check', 'never_given'])
        expect(sorted(compact.clusters(name))).toEqual(sorted(reference.clusters(name)));
    },
  );

  it('keep a question with no value of a figure out of that figure, and a value of 0 in it', () => {
    const ids = createQuestionIndex();
    const c = createScoreClusters(BLOCK_ROWS, new QuestionRows(), ids);
    expect(c.add('a', ids.id('q1'), 0)).toBe(false);
    expect(c.add('b', ids.id('q2'), 0.5)).toBe(false);
    expect(c.add('a', ids.id('q1'), 1)).toBe(true);
    expect(sorted(c.clusters('a'))).toEqual([['q1', [0, 1]]]);
    expect(sorted(c.clusters('b'))).toEqual([['q2', [0.5]]]);
  });
});

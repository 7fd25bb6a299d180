/**
 * @module metrics/score-clusters
 * Per figure and per question, the values a summary group's clustered means need (metrics/clustered),
 * kept compactly: a question's first value of each figure in a column of numbers (a row per
 * question, NaN where it has none), and only a question that gives a figure a second value gets a
 * cluster of its own. A run of a million distinct questions and some fifty figures held a map entry
 * per question per figure (about 1 KB a question, in each group and category); the columns hold 8
 * bytes per question per figure. The clusters they give back are the same, so the means are the
 * same to the bit.
 */
import { addToCluster, clusterValues, type ClusterValues, type Clusters } from './clustered.js';

export interface ScoreClusters {
  /** Adds `value` to the cluster of question `key` for figure `name`; true when that cluster already had a value. */
  add(name: string, key: string, value: number): boolean;
  /** Every question's values of figure `name`: one value, or its cluster's. */
  clusters(name: string): Clusters;
}

/**
 * Rows of a column's block. A column grew by doubling: its room stood a third above its rows on
 * average (at 20,000 distinct questions 12 MB for 7.5 MB of numbers, per group and category), and
 * while it was copied old and new were both live. Its first block still grows by doubling (a small
 * run keeps a small column); past it a column takes a block at a time and copies nothing.
 */
export const BLOCK_ROWS = 4096;

export function createScoreClusters(blockRows = BLOCK_ROWS): ScoreClusters {
  const rows = new Map<string, number>();
  const columns = new Map<string, (Float64Array | undefined)[]>();
  const repeated = new Map<string, Map<string, ClusterValues>>();

  const rowOf = (key: string): number => {
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = rows.size));
    return row;
  };
  /** Figure `name`'s value in `row`; NaN where it has none. */
  const read = (name: string, row: number): number => {
    const block = columns.get(name)?.[Math.floor(row / blockRows)];
    const at = row % blockRows;
    return block !== undefined && at < block.length ? block[at]! : Number.NaN;
  };
  const write = (name: string, row: number, value: number): void => {
    let blocks = columns.get(name);
    if (blocks === undefined) columns.set(name, (blocks = []));
    const index = Math.floor(row / blockRows);
    const at = row % blockRows;
    let block = blocks[index];
    if (block === undefined || at >= block.length) {
      const size = index > 0 ? blockRows : Math.min(blockRows, Math.max(8, 2 ** Math.ceil(Math.log2(at + 1))));
      const grown = new Float64Array(size).fill(Number.NaN);
      if (block !== undefined) grown.set(block);
      blocks[index] = block = grown;
    }
    block[at] = value;
  };

  return {
    add(name, key, value) {
      const many = repeated.get(name)?.get(key);
      if (many !== undefined) {
        repeated.get(name)!.set(key, addToCluster(many, value));
        return true;
      }
      const row = rowOf(key);
      const first = read(name, row);
      if (Number.isNaN(first)) {
        write(name, row, value);
        return false;
      }
      write(name, row, Number.NaN);
      let clusters = repeated.get(name);
      if (clusters === undefined) repeated.set(name, (clusters = new Map()));
      clusters.set(key, addToCluster(first, value));
      return true;
    },
    clusters(name) {
      const out = new Map<string, number[]>();
      if (columns.has(name))
        for (const [key, row] of rows) {
          const value = read(name, row);
          if (!Number.isNaN(value)) out.set(key, [value]);
        }
      for (const [key, cluster] of repeated.get(name) ?? []) out.set(key, clusterValues(cluster));
      return out;
    },
  };
}

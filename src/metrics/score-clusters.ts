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

export function createScoreClusters(): ScoreClusters {
  const rows = new Map<string, number>();
  const columns = new Map<string, Float64Array>();
  const repeated = new Map<string, Map<string, ClusterValues>>();
  // Grown by doubling: an accumulator per category and per turn starts small.
  let capacity = 8;

  const column = (name: string): Float64Array => {
    let values = columns.get(name);
    if (values === undefined) columns.set(name, (values = new Float64Array(capacity).fill(Number.NaN)));
    return values;
  };
  const rowOf = (key: string): number => {
    let row = rows.get(key);
    if (row !== undefined) return row;
    row = rows.size;
    rows.set(key, row);
    if (row === capacity) {
      capacity *= 2;
      for (const [name, values] of columns) {
        const grown = new Float64Array(capacity).fill(Number.NaN);
        grown.set(values);
        columns.set(name, grown);
      }
    }
    return row;
  };

  return {
    add(name, key, value) {
      const many = repeated.get(name)?.get(key);
      if (many !== undefined) {
        repeated.get(name)!.set(key, addToCluster(many, value));
        return true;
      }
      const row = rowOf(key);
      const values = column(name);
      const first = values[row]!;
      if (Number.isNaN(first)) {
        values[row] = value;
        return false;
      }
      values[row] = Number.NaN;
      let clusters = repeated.get(name);
      if (clusters === undefined) repeated.set(name, (clusters = new Map()));
      clusters.set(key, addToCluster(first, value));
      return true;
    },
    clusters(name) {
      const out = new Map<string, number[]>();
      const values = columns.get(name);
      if (values !== undefined)
        for (const [key, row] of rows) if (!Number.isNaN(values[row]!)) out.set(key, [values[row]!]);
      for (const [key, cluster] of repeated.get(name) ?? []) out.set(key, clusterValues(cluster));
      return out;
    },
  };
}

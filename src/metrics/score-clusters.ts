/**
 * @module metrics/score-clusters
 * Per figure and per question, the values a summary group's clustered means need (metrics/clustered),
 * kept compactly: a question's first value of each figure in a column (a row per question, NaN
 * where it has none; metrics/coded-values: a byte a value while the figure has few distinct
 * values), and only a question that gives a figure a second value gets a cluster of its own. A run
 * of a million distinct questions and some fifty figures held a map entry per question per figure
 * (about 1 KB a question, in each group and category); columns of doubles, 8 bytes per question per
 * figure; coded, about one. The clusters they give back are the same, so the means are the
 * same to the bit.
 */
import { addToCluster, clusterValues, type ClusterValues, type Clusters } from './clustered.js';
import { BLOCK_ROWS, createCodedValues, type CodedValues } from './coded-values.js';
import { createQuestionIndex, type QuestionIndex } from './question-index.js';
import { QuestionRows } from './question-rows.js';

export interface ScoreClusters {
  /** Adds `value` to the cluster of question `question` (the pass's integer) for figure `name`; true when that cluster already had a value. */
  add(name: string, question: number, value: number): boolean;
  /** Every question's values of figure `name`, by its id: one value, or its cluster's. */
  clusters(name: string): Clusters;
}

/** Rows of a column's block (metrics/coded-values). */
export { BLOCK_ROWS } from './coded-values.js';

/**
 * `rows`: each question's row, shared with the caller's own columns (metrics/group-figures); a
 * question new to it is added. `ids`: the pass's question ids (the clusters are keyed by id).
 */
export function createScoreClusters(
  blockRows = BLOCK_ROWS,
  rows = new QuestionRows(),
  ids: Pick<QuestionIndex, 'at'> = createQuestionIndex(),
): ScoreClusters {
  const columns = new Map<string, CodedValues>();
  const repeated = new Map<string, Map<number, ClusterValues>>();

  /** Figure `name`'s value in `row`; NaN where it has none. */
  const read = (name: string, row: number): number => columns.get(name)?.at(row) ?? Number.NaN;
  const write = (name: string, row: number, value: number): void => {
    let column = columns.get(name);
    if (column === undefined) columns.set(name, (column = createCodedValues(blockRows)));
    column.set(row, value);
  };

  return {
    add(name, question, value) {
      const many = repeated.get(name)?.get(question);
      if (many !== undefined) {
        repeated.get(name)!.set(question, addToCluster(many, value));
        return true;
      }
      const row = rows.add(question);
      const first = read(name, row);
      if (Number.isNaN(first)) {
        write(name, row, value);
        return false;
      }
      write(name, row, Number.NaN);
      let clusters = repeated.get(name);
      if (clusters === undefined) repeated.set(name, (clusters = new Map()));
      clusters.set(question, addToCluster(first, value));
      return true;
    },
    clusters(name) {
      const out = new Map<string, number[]>();
      if (columns.has(name))
        rows.forEach((question, row) => {
          const value = read(name, row);
          if (!Number.isNaN(value)) out.set(ids.at(question), [value]);
        });
      for (const [question, cluster] of repeated.get(name) ?? []) out.set(ids.at(question), clusterValues(cluster));
      return out;
    },
  };
}

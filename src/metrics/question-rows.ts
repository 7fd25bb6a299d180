/**
 * @module metrics/question-rows
 * One accumulator's rows, by the pass's question integer (metrics/question-index): a question's row
 * is the order it first came to this accumulator. Kept as a typed array indexed by the question (4
 * bytes a question) while most questions of the pass are this accumulator's; an accumulator that
 * sees few of them (one category of many) falls back on a map, so it never holds 4 bytes for every
 * question of the run.
 */

/** Below this share of the questions up to the largest one seen, the rows are a map. */
const DENSE_SHARE = 8;
/** An array this short stays one whatever its share (a small run's rows). */
const DENSE_FLOOR = 4096;

export class QuestionRows {
  /** row + 1 by question (0: none), or null once sparse. */
  private dense: Int32Array | null = new Int32Array(0);
  private sparse: Map<number, number> | null = null;
  size = 0;

  /** The question's row; -1 when it has none. */
  rowOf(question: number): number {
    if (this.dense !== null) return question < this.dense.length ? this.dense[question]! - 1 : -1;
    return this.sparse!.get(question) ?? -1;
  }

  /** The question's row, a new one (`size` before the call) when it had none. */
  add(question: number): number {
    const had = this.rowOf(question);
    if (had !== -1) return had;
    const row = this.size++;
    if (this.dense !== null && question >= this.dense.length) this.grow(question);
    if (this.dense !== null) this.dense[question] = row + 1;
    else this.sparse!.set(question, row);
    return row;
  }

  /** Every question with a row, with it, in no set order (question order while dense). */
  forEach(fn: (question: number, row: number) => void): void {
    if (this.dense === null) {
      for (const [question, row] of this.sparse!) fn(question, row);
      return;
    }
    const dense = this.dense;
    for (let question = 0; question < dense.length; question += 1)
      if (dense[question]! > 0) fn(question, dense[question]! - 1);
  }

  /** The questions by row. */
  questions(): Uint32Array {
    const out = new Uint32Array(this.size);
    this.forEach((question, row) => (out[row] = question));
    return out;
  }

  private grow(question: number): void {
    const dense = this.dense!;
    const length = Math.max(64, 2 ** Math.ceil(Math.log2(question + 1)));
    if (length > DENSE_FLOOR && (this.size + 1) * DENSE_SHARE < length) {
      this.sparse = new Map();
      for (let q = 0; q < dense.length; q += 1) if (dense[q]! > 0) this.sparse.set(q, dense[q]! - 1);
      this.dense = null;
      return;
    }
    const grown = new Int32Array(length);
    grown.set(dense);
    this.dense = grown;
  }
}

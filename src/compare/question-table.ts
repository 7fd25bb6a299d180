/**
 * @module compare/question-table
 * One group's questions in the run's data (compare/run-data): a row a question, in first-seen
 * order, found by the pass's question integer (metrics/question-index, metrics/question-rows), its
 * numbers in typed columns (util/typed-columns) and what few questions have (a second try, sums, a
 * cited id, an answer's text) in lists by row. Read as a map by question id (what every comparison
 * and gate reads), each question a view made when read. An object and a map entry a question, keyed
 * by its id, held a run of distinct questions some 100 bytes a question (docs/benchmarks-log.md
 * "Session 41: distinct questions, the margin").
 */
import type { QuestionIndex } from '../metrics/question-index.js';
import { QuestionRows } from '../metrics/question-rows.js';
import { TypedColumns } from '../util/typed-columns.js';

/** A question's numbers: its integer in the index, and its state (compare/run-data QuestionState). */
const QUESTION_COLUMNS = {
  question: { type: Uint32Array },
  next: { type: Uint32Array },
  mark: { type: Uint16Array },
  checked: { type: Uint8Array },
  judgeAsks: { type: Uint32Array },
  judgeFailed: { type: Uint32Array },
  firstRepeat: { type: Int32Array, empty: -1 },
  /** Its first answer's record's line's offset in results.jsonl; NaN when none (or kept as text). */
  firstAnswer: { type: Float64Array, empty: Number.NaN },
} as const;

export type QuestionColumn = keyof typeof QUESTION_COLUMNS;

/** `View`: what a question reads as (a view over its row, made when read). */
export class QuestionTable<View> implements ReadonlyMap<string, View> {
  readonly columns = new TypedColumns(QUESTION_COLUMNS);
  /** Its text, by row (the record's own string, which the reports' rows share). */
  readonly texts: string[] = [];
  private readonly rows = new QuestionRows();

  constructor(
    private readonly ids: Pick<QuestionIndex, 'id' | 'indexOf' | 'at'>,
    private readonly view: (row: number) => View,
  ) {}

  /** The question's row, a new one (its text kept) when it had none. */
  add(id: string, text: string): number {
    const question = this.ids.id(id);
    const had = this.rows.rowOf(question);
    if (had !== -1) return had;
    const row = this.rows.add(question);
    this.columns.addRow();
    this.columns.set('question', row, question);
    this.texts.push(text);
    return row;
  }

  /** The question's row; -1 when it has none. */
  rowOf(id: string): number {
    const question = this.ids.indexOf(id);
    return question === -1 ? -1 : this.rows.rowOf(question);
  }

  get size(): number {
    return this.columns.size;
  }
  has(id: string): boolean {
    return this.rowOf(id) !== -1;
  }
  get(id: string): View | undefined {
    const row = this.rowOf(id);
    return row === -1 ? undefined : this.view(row);
  }
  *keys(): MapIterator<string> {
    for (let row = 0; row < this.size; row += 1) yield this.idOf(row);
  }
  *values(): MapIterator<View> {
    for (let row = 0; row < this.size; row += 1) yield this.view(row);
  }
  *entries(): MapIterator<[string, View]> {
    for (let row = 0; row < this.size; row += 1) yield [this.idOf(row), this.view(row)];
  }
  [Symbol.iterator](): MapIterator<[string, View]> {
    return this.entries();
  }
  forEach(fn: (value: View, key: string, map: ReadonlyMap<string, View>) => void): void {
    for (const [id, view] of this) fn(view, id, this);
  }

  private idOf(row: number): string {
    return this.ids.at(this.columns.get('question', row));
  }
}

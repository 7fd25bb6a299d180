/**
 * @module util/value-table
 * Each distinct value once, by a small integer in first-seen order, and back: what the reports keep
 * per request or per question refers to a repeated text by its integer (reports/columns,
 * metrics/question-index), so the text and its map entry are held once.
 */

/** Each distinct value once, by index (first seen first). */
export interface ValueTable<T> {
  readonly size: number;
  id(value: T): number;
  /** The value's index without adding it; -1 when the table has none. */
  indexOf(value: T): number;
  at(index: number): T;
}

/** A table of strings, or of anything keyed by a string (a list of reasons by its joined text). */
export function createValueTable<T>(keyOf: (value: T) => string): ValueTable<T> {
  const ids = new Map<string, number>();
  const values: T[] = [];
  return {
    get size() {
      return values.length;
    },
    id(value) {
      const key = keyOf(value);
      let id = ids.get(key);
      if (id === undefined) {
        id = values.length;
        ids.set(key, id);
        values.push(value);
      }
      return id;
    },
    indexOf: (value) => ids.get(keyOf(value)) ?? -1,
    at: (index) => values[index]!,
  };
}

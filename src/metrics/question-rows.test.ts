import { describe, expect, it } from 'vitest';
import { QuestionRows } from './question-rows.js';

describe('question rows', () => {
  it.each([
    { name: 'every question (dense)', questions: Array.from({ length: 10_000 }, (_, i) => i) },
    { name: 'every 50th question past the floor (sparse)', questions: Array.from({ length: 400 }, (_, i) => i * 50) },
    { name: 'out of order, with repeats', questions: [5, 3, 5, 9000, 3, 0, 70_000, 9000] },
  ])('give each question its first-come row, and back ($name)', ({ questions }) => {
    const rows = new QuestionRows();
    const reference = new Map<number, number>();
    // The rows given otherwise, asserted once: an expect() per question cost more than the rows.
    const added: [number, number][] = [];
    for (const question of questions) {
      if (!reference.has(question)) reference.set(question, reference.size);
      const row = rows.add(question);
      if (row !== reference.get(question)) added.push([question, row]);
    }
    expect(added).toEqual([]);
    expect(rows.size).toBe(reference.size);
    expect(rows.rowOf(123_456)).toBe(-1);
    expect([...reference].filter(([question, row]) => rows.rowOf(question) !== row)).toEqual([]);
    expect([...rows.questions()]).toEqual([...reference.keys()]);
    const seen = new Map<number, number>();
    rows.forEach((question, row) => seen.set(question, row));
    expect(seen).toEqual(reference);
  });
});

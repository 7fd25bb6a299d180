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
    for (const question of questions) {
      if (!reference.has(question)) reference.set(question, reference.size);
      expect(rows.add(question)).toBe(reference.get(question));
    }
    expect(rows.size).toBe(reference.size);
    expect(rows.rowOf(123_456)).toBe(-1);
    for (const [question, row] of reference) expect(rows.rowOf(question)).toBe(row);
    expect([...rows.questions()]).toEqual([...reference.keys()]);
    const seen = new Map<number, number>();
    rows.forEach((question, row) => seen.set(question, row));
    expect(seen).toEqual(reference);
  });
});

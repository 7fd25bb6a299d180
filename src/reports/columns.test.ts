import { describe, expect, it } from 'vitest';
import { createColumn, createValueTable } from './columns.js';

describe('createColumn', () => {
  // Around and past the chunk boundaries (8,192 values a chunk).
  it.each([0, 1, 8_191, 8_192, 8_193, 3 * 8_192 + 5])('gives back each of %i values at its index', (count) => {
    const column = createColumn((n) => new Float64Array(n));
    const value = (i: number) => (i * 7_919) % 100_003 / 7;
    for (let i = 0; i < count; i += 1) column.push(value(i));
    expect(column.length).toBe(count);
    const wrong: number[] = [];
    for (let i = 0; i < count; i += 1) if (!Object.is(column.at(i), value(i))) wrong.push(i);
    expect(wrong).toEqual([]);
  });
});

describe('createValueTable', () => {
  it('keeps each value once, by its first index', () => {
    const table = createValueTable<string>((t) => t);
    expect(['a', 'b', 'a', 'c'].map((t) => table.id(t))).toEqual([0, 1, 0, 2]);
    expect([table.size, table.at(1)]).toEqual([3, 'b']);
  });
});

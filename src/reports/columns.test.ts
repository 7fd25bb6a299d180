import { describe, expect, it } from 'vitest';
import { createColumn, createScaledColumn } from './columns.js';
import { createValueTable } from '../util/value-table.js';

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

describe('createScaledColumn', () => {
  const back = (column: { length: number; at(i: number): number | null }) =>
    Array.from({ length: column.length }, (_, i) => column.at(i));
  it('gives back whole microseconds and nulls to the bit, past the chunk boundaries', () => {
    const values = Array.from({ length: 3 * 8_192 + 5 }, (_, i) => (i % 97 === 0 ? null : ((i * 7_919) % 4_000_003) / 1000));
    const column = createScaledColumn(1000);
    for (const v of values) column.push(v);
    expect(back(column)).toEqual(values);
  });
  it.each([1 / 3, -1, 2 ** 32, -0])('moves to doubles at %d, and keeps every value before and after', (odd) => {
    const values = [0, 1.5, null, 12.345, odd, 7, null];
    const column = createScaledColumn(1000);
    for (const v of values) column.push(v);
    const got = back(column);
    expect(got).toEqual(values);
    expect(Object.is(got[4], odd)).toBe(true);
  });
  it('with scale 1 keeps whole numbers (a repeat)', () => {
    const column = createScaledColumn(1);
    for (const v of [0, 3, 4_000_000_000]) column.push(v);
    expect(back(column)).toEqual([0, 3, 4_000_000_000]);
  });
});

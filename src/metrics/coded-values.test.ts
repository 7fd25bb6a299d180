import { describe, expect, it } from 'vitest';
import { createCodedValues } from './coded-values.js';

describe('createCodedValues', () => {
  it('gives NaN where nothing was written, and each value back to the bit (-0 too)', () => {
    const column = createCodedValues(4);
    column.set(1, 0.5);
    column.set(6, -0);
    column.set(9, 0);
    column.set(2, 1 / 3);
    expect([0, 1, 2, 3, 6, 9, 40].map((row) => column.at(row))).toEqual([NaN, 0.5, 1 / 3, NaN, -0, 0, NaN]);
    expect(Object.is(column.at(6), -0)).toBe(true);
    expect(Object.is(column.at(9), 0)).toBe(true);
    column.set(1, Number.NaN);
    expect(column.at(1)).toBeNaN();
  });

  it.each([10, 300, 70_000])('keeps %i distinct values as they were, through its widenings', (distinct) => {
    const column = createCodedValues(1024);
    const value = (row: number) => (row % distinct) / 7 + (row % 3 === 0 ? 0 : 1e-9 * row);
    const rows = Math.max(distinct * 2, 5000);
    for (let row = 0; row < rows; row += 2) column.set(row, value(row));
    // The rows read back otherwise, asserted once: an expect() per row cost more than the column.
    const wrong: number[] = [];
    for (let row = 0; row < rows; row += 1)
      if (!Object.is(column.at(row), row % 2 === 0 ? value(row) : NaN)) wrong.push(row);
    expect(wrong).toEqual([]);
  });

  it.each([1, 2, 3, 4, 5, 16, 17, 256])(
    'packs %i distinct values (a bit a row for one) and widens in place, rows between left empty',
    (distinct) => {
      for (const blockRows of [5, 8, 4096]) {
        const column = createCodedValues(blockRows);
        const value = (row: number) => (row % distinct === 0 ? -0 : (row % distinct) * 0.25);
        const written = (row: number) => row % 3 !== 1;
        for (let row = 0; row < 600; row += 1) if (written(row)) column.set(row, value(row));
        column.set(9, Number.NaN);
        const wrong: number[] = [];
        for (let row = 0; row < 620; row += 1) {
          const expected = row < 600 && row !== 9 && written(row) ? value(row) : NaN;
          if (!Object.is(column.at(row), expected)) wrong.push(row);
        }
        expect(wrong, `${blockRows} rows a block`).toEqual([]);
      }
    },
  );
});

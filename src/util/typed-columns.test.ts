import { describe, expect, it } from 'vitest';
import { TypedColumns } from './typed-columns.js';

describe('TypedColumns', () => {
  it('keeps every row of every column through its blocks, a new row at its empty values', () => {
    for (const blockRows of [4, 16, 100, 4096]) {
      const columns = new TypedColumns(
        { small: { type: Uint8Array }, first: { type: Int32Array, empty: -1 }, at: { type: Float64Array, empty: NaN } },
        blockRows,
      );
      for (let i = 0; i < 300; i += 1) {
        const row = columns.addRow();
        expect(row).toBe(i);
        expect([columns.get('small', row), columns.get('first', row), columns.get('at', row)]).toEqual([0, -1, NaN]);
        if (row % 3 !== 0) {
          columns.set('small', row, row % 256);
          columns.set('first', row, -row);
          columns.set('at', row, row + 0.5);
        }
      }
      expect(columns.size).toBe(300);
      for (let row = 0; row < 300; row += 1) {
        const written = row % 3 !== 0;
        expect(columns.get('small', row)).toBe(written ? row % 256 : 0);
        expect(columns.get('first', row)).toBe(written ? -row : -1);
        expect(columns.get('at', row)).toBe(written ? row + 0.5 : NaN);
      }
    }
  });
});

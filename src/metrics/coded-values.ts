/**
 * @module metrics/coded-values
 * One figure's value per question (a row), kept as the index of the value in the column's own table
 * of distinct values: a byte a row while the column has at most 255 distinct values, two bytes up
 * to 65,535, and the value itself (8 bytes) past that. A score takes few distinct values (a hit is
 * 0 or 1, a precision at 5 is k/5, a reciprocal rank 1/k), so a run of distinct questions kept 8
 * bytes a figure a question in each copy of its values (a summary group, each of its categories,
 * the run's data: some fifty figures, about 400 bytes a question each) where a byte does. A value
 * reads back as the same double, to the bit (-0 too), so every mean summed from them is the same.
 */

/** Rows of a block past the first (whose room grows by doubling up to this, so a small run keeps a small column). */
export const BLOCK_ROWS = 4096;

/** A column of numbers by row; NaN where nothing was written. */
export interface CodedValues {
  at(row: number): number;
  /** Writes `value` at `row` (NaN: clears it). */
  set(row: number, value: number): void;
}

type Block = Uint8Array | Uint16Array | Float64Array;

/** Codes a byte or two can hold (0 stands for no value). */
const MAX_CODES = { 1: 0xff, 2: 0xffff } as const;

export function createCodedValues(blockRows = BLOCK_ROWS): CodedValues {
  /** Bytes a row: 1 or 2 (a code), or 8 (the value itself: too many distinct values). */
  let width: 1 | 2 | 8 = 1;
  let blocks: (Block | undefined)[] = [];
  /** values[code - 1]: the value of a code; its code by the value (-0 apart: a Map's key 0 is -0 too). */
  const values: number[] = [];
  const codes = new Map<number, number>();
  let negativeZero = 0;

  const make = (rows: number): Block => {
    if (width === 1) return new Uint8Array(rows);
    if (width === 2) return new Uint16Array(rows);
    return new Float64Array(rows).fill(Number.NaN);
  };
  const valueOf = (code: number): number => (code === 0 ? Number.NaN : values[code - 1]!);
  /** Every block made again at the next width, each row keeping its value. */
  const widen = (): void => {
    width = width === 1 ? 2 : 8;
    blocks = blocks.map((block) => {
      if (block === undefined) return undefined;
      const wider = make(block.length);
      for (let i = 0; i < block.length; i += 1) wider[i] = width === 8 ? valueOf(block[i]!) : block[i]!;
      return wider;
    });
    if (width === 8) {
      codes.clear();
      values.length = 0;
    }
  };
  const codeOf = (value: number): number => {
    if (Object.is(value, -0)) {
      if (negativeZero === 0) negativeZero = values.push(value);
      return negativeZero;
    }
    let code = codes.get(value);
    if (code === undefined) codes.set(value, (code = values.push(value)));
    return code;
  };

  return {
    at(row) {
      const block = blocks[Math.floor(row / blockRows)];
      const at = row % blockRows;
      if (block === undefined || at >= block.length) return Number.NaN;
      return width === 8 ? block[at]! : valueOf(block[at]!);
    },
    set(row, value) {
      // The value's code looked up once: a code past the width's room widens the column first (a
      // code stays valid from one byte to two; past two, the value itself is kept).
      const code = width === 8 || Number.isNaN(value) ? 0 : codeOf(value);
      if (width !== 8 && code > MAX_CODES[width]) widen();
      const stored = width === 8 ? value : code;
      const index = Math.floor(row / blockRows);
      const at = row % blockRows;
      let block = blocks[index];
      if (block === undefined || at >= block.length) {
        if (Number.isNaN(value)) return; // nothing there to clear
        const size = index > 0 ? blockRows : Math.min(blockRows, Math.max(8, 2 ** Math.ceil(Math.log2(at + 1))));
        const grown = make(size);
        if (block !== undefined) grown.set(block);
        blocks[index] = block = grown;
      }
      block[at] = stored;
    },
  };
}

/**
 * @module metrics/coded-values
 * One figure's value per question (a row), kept as the index of the value in the column's own table
 * of distinct values, packed: a bit a row while the column has one distinct value, 2 bits up to 3,
 * 4 up to 15, a byte up to 255, two bytes up to 65,535, and the value itself (8 bytes) past that. A score takes few distinct values (a hit is
 * 0 or 1, a precision at 5 is k/5, a reciprocal rank 1/k), so a run of distinct questions kept 8
 * bytes a figure a question in each copy of its values (a summary group, each of its categories,
 * the run's data: some fifty figures, about 400 bytes a question each) where a byte does; a figure
 * no answer moved off one value (a retrieval score of a run whose expected documents never come
 * back, every question 0) kept a byte where a bit does (docs/benchmarks-log.md "Session 41:
 * distinct questions, the margin"). A value reads back as the same double, to the bit (-0 too), so
 * every mean summed from them is the same.
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

/** Bits a row: a code packed in bytes (1 to 8), a code of two bytes (16), or the value itself (64). */
type Bits = 1 | 2 | 4 | 8 | 16 | 64;
/** The next width when a code outgrows one. */
const WIDER: Record<Exclude<Bits, 64>, Bits> = { 1: 2, 2: 4, 4: 8, 8: 16, 16: 64 };

/** Rows an element of a block holds at `width` bits a row. */
const perElement = (width: Bits): number => (width < 8 ? 8 / width : 1);
const make = (rows: number, width: Bits): Block => {
  if (width <= 8) return new Uint8Array(Math.ceil(rows / perElement(width)));
  if (width === 16) return new Uint16Array(rows);
  return new Float64Array(rows).fill(Number.NaN);
};
const rowsOf = (block: Block, width: Bits): number => block.length * perElement(width);
/** What `block` holds at row `at`: a code, or (64 bits) the value. */
const read = (block: Block, width: Bits, at: number): number => {
  if (width >= 8) return block[at]!;
  const per = 8 / width;
  return (block[Math.floor(at / per)]! >> ((at % per) * width)) & ((1 << width) - 1);
};
const write = (block: Block, width: Bits, at: number, stored: number): void => {
  if (width >= 8) {
    block[at] = stored;
    return;
  }
  const per = 8 / width;
  const shift = (at % per) * width;
  const i = Math.floor(at / per);
  block[i] = (block[i]! & ~(((1 << width) - 1) << shift)) | (stored << shift);
};

export function createCodedValues(blockRows = BLOCK_ROWS): CodedValues {
  let bits: Bits = 1;
  let blocks: (Block | undefined)[] = [];
  /** values[code - 1]: the value of a code (0 stands for no value); its code by the value (-0 apart: a Map's key 0 is -0 too). */
  const values: number[] = [];
  const codes = new Map<number, number>();
  let negativeZero = 0;

  const valueOf = (code: number): number => (code === 0 ? Number.NaN : values[code - 1]!);
  /** Every block made again at the next width, each row keeping its value. */
  const widen = (): void => {
    const from = bits;
    const to = WIDER[from as Exclude<Bits, 64>];
    blocks = blocks.map((block) => {
      if (block === undefined) return undefined;
      const rows = rowsOf(block, from);
      const wider = make(rows, to);
      for (let at = 0; at < rows; at += 1) {
        const code = read(block, from, at);
        write(wider, to, at, to === 64 ? valueOf(code) : code);
      }
      return wider;
    });
    bits = to;
    if (bits === 64) {
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
      if (block === undefined || at >= rowsOf(block, bits)) return Number.NaN;
      return bits === 64 ? block[at]! : valueOf(read(block, bits, at));
    },
    set(row, value) {
      // The value's code looked up once: a code past the width's room widens the column first (a
      // code stays valid from one width to the next; past two bytes, the value itself is kept).
      const code = bits === 64 || Number.isNaN(value) ? 0 : codeOf(value);
      if (bits !== 64 && code >= 1 << bits) widen();
      const stored = bits === 64 ? value : code;
      const index = Math.floor(row / blockRows);
      const at = row % blockRows;
      let block = blocks[index];
      if (block === undefined || at >= rowsOf(block, bits)) {
        if (Number.isNaN(value)) return; // nothing there to clear
        const size = index > 0 ? blockRows : Math.min(blockRows, Math.max(8, 2 ** Math.ceil(Math.log2(at + 1))));
        const grown = make(size, bits);
        if (block !== undefined) grown.set(block);
        blocks[index] = block = grown;
      }
      write(block, bits, at, stored);
    },
  };
}

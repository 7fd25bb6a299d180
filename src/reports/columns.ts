/**
 * @module reports/columns
 * Compact storage for what the reports keep per request until the end (junit.xml's cases, the CDF
 * samples): numbers in typed arrays grown by fixed chunks (no doubling slack, no copy on growth);
 * each repeated text is stored once and referred to by its index (util/value-table). A request then
 * costs its few numbers, never an object.
 */

/** Values per chunk: 8,192 × 8 bytes = 64 KB for a Float64 column. */
const CHUNK = 8192;

type TypedArray = Float64Array | Uint32Array | Uint8Array;

/** An append-only column of numbers of one typed-array kind. */
export interface NumberColumn {
  readonly length: number;
  push(value: number): void;
  at(index: number): number;
}

/** A column of `make`'s kind: Float64Array for figures (NaN for null), Uint32Array for indexes, Uint8Array for flags. */
export function createColumn(make: (length: number) => TypedArray): NumberColumn {
  const chunks: TypedArray[] = [];
  let length = 0;
  return {
    get length() {
      return length;
    },
    push(value) {
      const offset = length % CHUNK;
      if (offset === 0) chunks.push(make(CHUNK));
      chunks[chunks.length - 1]![offset] = value;
      length += 1;
    },
    at: (index) => chunks[Math.floor(index / CHUNK)]![index % CHUNK]!,
  };
}

/** A column of numbers or nulls. */
export interface NullableColumn {
  readonly length: number;
  push(value: number | null): void;
  at(index: number): number | null;
}

/** The whole number that stands for null in a scaled column. */
const NULL_WHOLE = 2 ** 32 - 1;

/**
 * A column of numbers that are whole multiples of 1 / `scale` (a repeat: scale 1; a time in ms
 * rounded to the µs: 1000), or null: each kept as the whole number k = v · scale in a Uint32Array
 * (4 bytes where a double takes 8; null as 2³² − 1). The first value that is not moves the column
 * to doubles (null as NaN). k / scale gives back v to the bit.
 */
export function createScaledColumn(scale: number): NullableColumn {
  let whole: NumberColumn | null = createColumn((n) => new Uint32Array(n));
  let doubles: NumberColumn | null = null;
  const toDoubles = (from: NumberColumn): NumberColumn => {
    const to = createColumn((n) => new Float64Array(n));
    for (let i = 0; i < from.length; i += 1) {
      const k = from.at(i);
      to.push(k === NULL_WHOLE ? Number.NaN : k / scale);
    }
    return to;
  };
  return {
    get length() {
      return (whole ?? doubles!).length;
    },
    push(value) {
      if (whole !== null) {
        if (value === null) return whole.push(NULL_WHOLE);
        const k = Math.round(value * scale);
        if (k >= 0 && k < NULL_WHOLE && k / scale === value && (k !== 0 || Object.is(value, 0))) return whole.push(k);
        doubles = toDoubles(whole);
        whole = null;
      }
      doubles!.push(toCell(value));
    },
    at(index) {
      if (whole === null) return fromCell(doubles!.at(index));
      const k = whole.at(index);
      return k === NULL_WHOLE ? null : k / scale;
    },
  };
}

/** null as NaN in a Float64 column (a record never holds NaN: JSON cannot carry it). */
export const toCell = (value: number | null): number => (value === null ? Number.NaN : value);
export const fromCell = (value: number): number | null => (Number.isNaN(value) ? null : value);

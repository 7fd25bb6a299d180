/**
 * @module util/typed-columns
 * Numbers by row, a typed array per named column: what a collector keeps of each of many rows (a
 * question of the run's data, compare/question-table) as a few bytes per column, not an object a
 * row (a header, a pointer a field, and each field a JS value). The rows are held in blocks of
 * `blockRows`: the first grows by doubling up to it (a small run keeps small arrays), the others
 * are made whole, so no column is ever copied past its first block.
 */

type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** A column: its array type, and the value of a row never written (default 0). */
export interface ColumnSpec {
  readonly type: new (length: number) => TypedArray;
  readonly empty?: number;
}

/** Rows of a block past the first. */
export const COLUMN_BLOCK_ROWS = 4096;

export class TypedColumns<Name extends string> {
  /** Rows added so far (rows 0 … size - 1). */
  size = 0;
  /** Rows the blocks have room for. */
  private room = 0;
  private readonly blocks = new Map<Name, TypedArray[]>();

  constructor(
    private readonly specs: Readonly<Record<Name, ColumnSpec>>,
    private readonly blockRows = COLUMN_BLOCK_ROWS,
  ) {
    for (const name of Object.keys(specs) as Name[]) this.blocks.set(name, []);
  }

  /** A new row, every column at its empty value; its number. */
  addRow(): number {
    if (this.size === this.room) this.grow();
    return this.size++;
  }

  get(name: Name, row: number): number {
    return this.blocks.get(name)![Math.floor(row / this.blockRows)]![row % this.blockRows]!;
  }

  set(name: Name, row: number, value: number): void {
    this.blocks.get(name)![Math.floor(row / this.blockRows)]![row % this.blockRows] = value;
  }

  private grow(): void {
    const first = this.room < this.blockRows;
    const rows = first ? Math.min(this.blockRows, Math.max(16, this.room * 2)) : this.blockRows;
    for (const [name, blocks] of this.blocks) {
      const spec = this.specs[name];
      const block = new spec.type(rows);
      if (spec.empty !== undefined && spec.empty !== 0) block.fill(spec.empty);
      if (first && blocks.length > 0) block.set(blocks[0]!);
      if (first) blocks[0] = block;
      else blocks.push(block);
    }
    this.room = first ? rows : this.room + rows;
  }
}

/**
 * @module dataset/row-file
 * A dataset's rows read again from its file when they are needed, by the byte spans its one
 * streaming pass recorded (dataset/row-source indexDataset): memory holds a few blocks of rows, not
 * the rows. Rows are read by blocks of BLOCK_ROWS consecutive records (one read of the bytes from
 * the block's first record to its last, parsed with the stream's csv-parse options, validated row
 * by row when asked). Reading ahead: when a block is first used, the next one's bytes are read
 * asynchronously, so that a run (which takes the next request between two sends) finds them in
 * memory; a block not there yet (the first, a sync pass such as the plan digest, a conversation
 * whose turns stand far apart) is read at once with a synchronous read of a few KiB.
 *
 * The file must not change under the run: each read compares its size and modification time with
 * those of the pass, and refuses a changed file (InputError naming it).
 */
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.js';
import { CSV_OPTIONS } from './read-csv.js';

/** Consecutive rows read and parsed together (a few KiB of a typical dataset). */
export const BLOCK_ROWS = 128;
/** Parsed blocks kept (the current, the next, and a few for conversations whose turns stand apart). */
const CACHED_BLOCKS = 4;

/** What identifies the file as the pass read it. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

export interface RowFileOptions<Row> {
  /** The file's full path, and its name for messages (as the user gave it). */
  readonly full: string;
  readonly name: string;
  readonly stamp: FileStamp;
  /** Rows, and each one's byte offset and length (without its line ending). */
  readonly count: number;
  readonly offsets: Uint32Array;
  readonly lengths: Uint32Array;
  /** The row at `index` from its record's cells (validated as the pass validated it). */
  readonly toRow: (cells: string[], index: number) => Row;
}

interface Block<Row> {
  readonly cells: string[][];
  readonly rows: (Row | undefined)[];
}

/** `row(index)` of a dataset file, read block by block; see the module header. */
export function createRowFile<Row>(options: RowFileOptions<Row>): (index: number) => Row {
  const { full, name, stamp, count, offsets, lengths } = options;
  const cache = new Map<number, Block<Row>>(); // in order of first use: the oldest is dropped first
  const ahead = new Map<number, Buffer>(); // bytes read ahead, not parsed yet
  let reading: number | null = null; // the block being read ahead

  const range = (block: number): [number, number] => {
    const first = block * BLOCK_ROWS;
    const last = Math.min(count, first + BLOCK_ROWS) - 1;
    return [offsets[first]!, offsets[last]! + lengths[last]!];
  };
  const check = (stats: Stats | { size: number; mtimeMs: number }) => {
    if (stats.size !== stamp.size || stats.mtimeMs !== stamp.mtimeMs) {
      throw new InputError([
        `${name}: the file changed after it was read (size or modification time differs); run again with the file left as it is`,
      ]);
    }
  };
  const readNow = (block: number): Buffer => {
    const [start, end] = range(block);
    const bytes = Buffer.allocUnsafe(end - start);
    const fd = openSync(full, 'r');
    try {
      check(fstatSync(fd));
      for (let done = 0; done < bytes.length;) {
        const n = readSync(fd, bytes, done, bytes.length - done, start + done);
        if (n === 0) throw new InputError([`${name}: the file ended early (it changed after it was read)`]);
        done += n;
      }
    } finally {
      closeSync(fd);
    }
    return bytes;
  };
  const readAhead = (block: number) => {
    if (reading !== null || block * BLOCK_ROWS >= count || cache.has(block) || ahead.has(block)) return;
    reading = block;
    const [start, end] = range(block);
    void (async () => {
      const handle = await open(full, 'r');
      try {
        check(await handle.stat());
        const bytes = Buffer.allocUnsafe(end - start);
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
        if (bytesRead !== bytes.length || cache.has(block)) return;
        if (ahead.size >= CACHED_BLOCKS) ahead.delete(ahead.keys().next().value!); // read ahead of a pass that went elsewhere
        ahead.set(block, bytes);
      } finally {
        await handle.close();
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        // a failed read ahead is read again, and fails, when needed
        reading = null;
      });
  };
  const load = (block: number): Block<Row> => {
    const bytes = ahead.get(block) ?? readNow(block);
    ahead.delete(block);
    const first = block * BLOCK_ROWS;
    const want = Math.min(count, first + BLOCK_ROWS) - first;
    // As the stream read it: CRLF made LF, LF the record delimiter, the same rows skipped.
    const cells = parse(bytes.toString('utf8').replace(/\r\n/g, '\n'), CSV_REREAD_OPTIONS) as string[][];
    if (cells.length !== want)
      throw new InputError([
        `${name}: the file changed after it was read (rows ${first + 1}–${first + want} read again differ)`,
      ]);
    if (cache.size >= CACHED_BLOCKS) cache.delete(cache.keys().next().value!);
    const loaded: Block<Row> = { cells, rows: new Array<Row | undefined>(want) };
    cache.set(block, loaded);
    return loaded;
  };
  return (index: number): Row => {
    if (!Number.isInteger(index) || index < 0 || index >= count) throw new RangeError(`row ${index} of ${count}`);
    const block = Math.floor(index / BLOCK_ROWS);
    let found = cache.get(block);
    if (found === undefined) {
      found = load(block);
      readAhead(block + 1);
    }
    const at = index - block * BLOCK_ROWS;
    return (found.rows[at] ??= options.toRow(found.cells[at]!, index));
  };
}

/** The stream's options with the delimiter it found (LF) fixed: a block must not guess it again. */
const CSV_REREAD_OPTIONS = { ...CSV_OPTIONS, record_delimiter: '\n' } as const;

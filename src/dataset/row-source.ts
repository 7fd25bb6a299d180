/**
 * @module dataset/row-source
 * A dataset's rows as the eval plan takes them: by index, with what the plan needs of every row
 * held compactly (ids, the conversation units as row indexes, the lines of rows asking for deep
 * research) and the rows themselves read again from the file when the run reaches them
 * (dataset/row-file). `indexDataset` validates the file in one streaming pass (dataset/read-csv
 * scanDataset: the same problems, the same exit 2 before anything is sent) and keeps each row's
 * byte offset, length and line in typed arrays: a dataset of a million rows costs some tens of MB,
 * not its rows. `rowsInMemory` is the same view of rows already held (tests, small plans).
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { compactRow, scanDataset, toRowInput, type DatasetShape } from './read-csv.js';
import type { InputFile } from './read-text.js';
import type { RecordSpan } from './record-spans.js';
import { createRowFile } from './row-file.js';
import { DatasetRowSchema, type DatasetRow } from './schema.js';
import type { ToolIds } from './tools.js';
import { conversationUnits } from './conversations.js';
import { createStringColumn, grown } from './string-column.js';

/** The rows of a dataset by index (0-based, file order). */
export interface RowSource {
  readonly length: number;
  /** The row at `index`; may read it from the file (a few KiB at most). */
  row(index: number): DatasetRow;
  /** Its id, without reading the row. */
  id(index: number): string;
  /** The units a plan sends (dataset/conversations conversationUnits), as row indexes. */
  readonly unitCount: number;
  unit(index: number): readonly number[];
  /** Whether any row is a turn of a conversation; the distinct turn numbers, ascending. */
  readonly hasConversations: boolean;
  readonly turns: readonly number[];
  /** The rows asking for deep research (plan/build-plan deepResearchProblems). */
  readonly deepResearch: readonly Pick<DatasetRow, 'line' | 'deep_research'>[];
}

/** An eval's dataset: its shape and its rows as a RowSource. */
export interface IndexedDataset extends DatasetShape {
  readonly rows: RowSource;
  /**
   * Lets the rows' index go (at a million rows ~40 MB: offsets, lengths, lines, ids, units) once
   * the run is done with them: an eval's reports read results.jsonl, never the dataset, and the
   * plan and its callers may still hold `rows`. Every later row, id or unit asked for throws.
   */
  release(): void;
}

/** Rows already in memory as a RowSource. */
export function rowsInMemory(rows: readonly DatasetRow[]): RowSource {
  const indexed = rows.map((row, index) => ({ index, conversation: row.conversation, turn: row.turn }));
  const units = conversationUnits(indexed).map((unit) => unit.map((r) => r.index));
  return {
    length: rows.length,
    row: (index) => rows[index]!,
    id: (index) => rows[index]!.id,
    unitCount: units.length,
    unit: (index) => units[index]!,
    hasConversations: rows.some((row) => row.conversation !== null),
    turns: turnsOf(rows),
    deepResearch: rows.filter((row) => row.deep_research === true),
  };
}

const turnsOf = (rows: Iterable<Pick<DatasetRow, 'conversation' | 'turn'>>): number[] => {
  const turns = new Set<number>();
  for (const row of rows) if (row.conversation !== null) turns.add(row.turn ?? 1);
  return [...turns].sort((a, b) => a - b);
};

/**
 * Validates the dataset at `file` in one streaming pass and indexes its rows (see the module
 * header). Throws InputError with every problem, as readDataset does. A file whose records are
 * not LF-delimited (lone CRs) cannot be re-read by offset: its rows are kept in memory instead.
 */
export async function indexDataset(
  file: InputFile,
  options: { toolIds?: ToolIds | null | undefined } = {},
): Promise<IndexedDataset> {
  const full = isAbsolute(file.path) || file.cwd === undefined ? file.path : resolve(file.cwd, file.path);
  const index = createIndex();
  const held: DatasetRow[] = [];
  let spans = true;
  const shape = await scanDataset(file, {
    ...options,
    spans: true,
    onRow: (row, span) => {
      if (span === null) spans = false;
      if (span === null) held.push(row);
      else index.add(row, span);
    },
  });
  if (!spans) return { ...shape, ...releasable(rowsInMemory(held)) }; // (the pass gives every span or none)
  const info = await stat(full);
  const columns = shape.columns;
  const categories = new Map<string, string>();
  const row = createRowFile({
    full,
    name: file.path,
    stamp: { size: info.size, mtimeMs: info.mtimeMs },
    count: index.count,
    offsets: index.offsets(),
    lengths: index.lengths(),
    toRow: (cells, at) =>
      compactRow(DatasetRowSchema.parse(toRowInput(columns, { cells, line: index.line(at) }, at + 1)), categories),
  });
  return { ...shape, ...releasable(index.source(row)) };
}

/**
 * `source` as `rows` until `release()`, after which nothing here holds it. Built apart from
 * indexDataset so that its closures hold `source` alone, not indexDataset's scope (the index).
 */
function releasable(source: RowSource): Pick<IndexedDataset, 'rows' | 'release'> {
  let held: RowSource | null = source;
  const use = (): RowSource => {
    if (held === null) throw new Error("the dataset's rows were released: the run is done with them");
    return held;
  };
  const { length, unitCount, hasConversations, turns, deepResearch } = source;
  return {
    rows: {
      length,
      unitCount,
      hasConversations,
      turns,
      deepResearch,
      row: (index) => use().row(index),
      id: (index) => use().id(index),
      unit: (index) => use().unit(index),
    },
    release: () => {
      held = null;
    },
  };
}

/** What the pass keeps of each row: see the module header. */
function createIndex() {
  let count = 0;
  let offsets = new Uint32Array(1024);
  let lengths = new Uint32Array(1024);
  let lines = new Uint32Array(1024);
  const ids = createStringColumn();
  // Conversation rows only: their conversation's rows, by conversation id, as [index, turn] pairs.
  const conversations = new Map<string, number[]>();
  const unitHeads: number[] = []; // the index of each unit's first row, in file order; -1 - n: conversation n
  const conversationOrder: string[] = [];
  const turns = new Set<number>();
  const deepResearch: Pick<DatasetRow, 'line' | 'deep_research'>[] = [];
  return {
    get count() {
      return count;
    },
    add(row: DatasetRow, span: RecordSpan): void {
      [offsets, lengths, lines] = [grown(offsets, count + 1), grown(lengths, count + 1), grown(lines, count + 1)];
      offsets[count] = span.offset;
      lengths[count] = span.length;
      lines[count] = row.line;
      ids.add(row.id);
      if (row.deep_research === true) deepResearch.push({ line: row.line, deep_research: true });
      if (row.conversation === null) unitHeads.push(count);
      else {
        let turnsOfIt = conversations.get(row.conversation);
        if (turnsOfIt === undefined) {
          conversations.set(row.conversation, (turnsOfIt = []));
          unitHeads.push(-1 - conversationOrder.length);
          conversationOrder.push(row.conversation);
        }
        turnsOfIt.push(count, row.turn ?? 1);
        turns.add(row.turn ?? 1);
      }
      count += 1;
    },
    offsets: () => offsets.subarray(0, count),
    lengths: () => lengths.subarray(0, count),
    line: (at: number) => lines[at]!,
    source(row: (index: number) => DatasetRow): RowSource {
      // Each conversation's rows in turn order (conversationUnits' order), as plain index lists.
      const byConversation = conversationOrder.map((id) => {
        const pairs = conversations.get(id)!;
        const entries = Array.from({ length: pairs.length / 2 }, (_, i) => [pairs[2 * i]!, pairs[2 * i + 1]!] as const);
        return entries.sort((a, b) => a[1] - b[1]).map(([at]) => at);
      });
      conversations.clear();
      const heads = Int32Array.from(unitHeads);
      unitHeads.length = 0; // (copied into heads: this scope outlives the pass, held by the closures below)
      return {
        length: count,
        row,
        id: ids.get,
        unitCount: heads.length,
        unit: (at) => {
          const head = heads[at]!;
          return head >= 0 ? [head] : byConversation[-1 - head]!;
        },
        hasConversations: conversationOrder.length > 0,
        turns: [...turns].sort((a, b) => a - b),
        deepResearch,
      };
    },
  };
}

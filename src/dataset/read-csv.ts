/**
 * @module dataset/read-csv
 * Reads a CSV dataset with csv-parse as a stream (the file's text is never held whole: a dataset
 * of a million rows costs its rows, not its text and every raw record besides), keeping the
 * physical line where each record starts, and validates every row before anything is sent. All problems of the file are listed at once, one
 * per line (`file:line: column: message`), in a single InputError (exit 2).
 */
import { CsvError, parse, type Info } from 'csv-parse';
import { InputError } from '../errors.js';
import { formatCount } from '../util/limits.js';
import { DatasetRowSchema, isKnownColumn, type DatasetRow, type DatasetRowInput } from './schema.js';
import { readUtf8Chunks, type InputFile } from './read-text.js';
import { conversationProblems, type TurnRow } from './conversations.js';
import { toolProblems, type ToolIds } from './tools.js';
import { createRecordSpans, type RecordSpan } from './record-spans.js';
import { createFirstLines } from './string-column.js';

const lineNumber = (problem: string): number => Number(/^[^\n]*?:(\d+):/.exec(problem)?.[1] ?? 0);

/** A validated dataset. `path` is as the user named it. */
export interface Dataset {
  readonly path: string;
  readonly rows: DatasetRow[];
  /** Header names (trimmed), in file order. */
  readonly columns: string[];
  /** Distinct categories in order of first appearance; rows without one are not listed. */
  readonly categories: string[];
}

/** The columns that are not known to chatbench, kept per row as `metadata` and shown in reports. */
export const metadataColumns = (dataset: Pick<Dataset, 'columns'>): string[] =>
  dataset.columns.filter((name) => !isKnownColumn(name));

interface RawRecord {
  readonly cells: string[];
  readonly line: number;
  /** Where the record stands in the file's bytes; null when not asked for, or when LF is not the file's record delimiter. */
  readonly span: RecordSpan | null;
}

/**
 * Reads and validates the dataset at `file.path` (relative to `file.cwd`). UTF-8 with or without
 * BOM, LF or CRLF, quoted cells spanning lines; blank lines and rows of empty cells are skipped.
 * `id` defaults to the row number (first question = "1"), or `conversation#turn` for a turn of a
 * conversation. Conversations are checked across rows (dataset/conversations.ts), tool names
 * against `toolIds` when the service's tools are known (dataset/tools.ts). Throws InputError
 * listing every problem, by line.
 */
export async function readDataset(
  file: InputFile | string,
  options: { toolIds?: ToolIds | null | undefined } = {},
): Promise<Dataset> {
  const rows: DatasetRow[] = [];
  const categories = new Map<string, string>();
  const shape = await scanDataset(file, { ...options, onRow: (row) => rows.push(compactRow(row, categories)) });
  return {
    ...shape,
    rows,
    categories: [...new Set(rows.flatMap((row) => (row.category === null ? [] : [row.category])))],
  };
}

export interface ScanOptions {
  readonly toolIds?: ToolIds | null | undefined;
  /**
   * Each valid row, in file order; with `spans`, where its record stands in the file's bytes (null
   * for every row of a file whose records are not LF-delimited: lone CRs, which cannot be re-read),
   * and its cells as the file has them (what a rewrite of the file keeps: draft-expectations).
   */
  readonly onRow: (row: DatasetRow, span: RecordSpan | null, cells: readonly string[]) => void;
  readonly spans?: boolean;
}

/** A dataset as a stream of its rows leaves it: everything but the rows. */
export type DatasetShape = Pick<Dataset, 'path' | 'columns'>;

/**
 * Reads and validates the dataset as readDataset does, with the same problems in the same order,
 * but hands each valid row to `onRow` instead of holding it: what the caller keeps is its own
 * choice (validate keeps counts; eval each row's byte span, dataset/row-source). Held meanwhile: each row's id (for duplicates, packed: dataset/string-column) and the few fields
 * of conversation rows that the cross-row checks need.
 */
export async function scanDataset(file: InputFile | string, options: ScanOptions): Promise<DatasetShape> {
  const input = typeof file === 'string' ? { path: file } : file;
  const name = input.path;
  const records = parseRecords(name, input, options.spans === true);
  const first = await records.next();
  if (first.done === true) throw new InputError([`${name}: empty file`]);
  const columns = first.value.cells.map((column) => column.trim());
  const headerProblems = checkHeader(name, columns);
  if (headerProblems.length > 0) {
    await records.return(undefined);
    throw new InputError(headerProblems);
  }

  // Each list keeps its first MAX_LISTED_PROBLEMS (rows come in line order: the earliest lines).
  const problems = cappedList<string>(MAX_LISTED_PROBLEMS);
  const turns: TurnRow[] = [];
  const tools = cappedList<string>(MAX_LISTED_PROBLEMS);
  const firstLines = createFirstLines();
  let index = 0;
  for await (const record of records) {
    index += 1;
    const where = `${name}:${record.line}`;
    if (record.cells.length > columns.length) {
      problems.add(
        `${where}: ${record.cells.length} cells but the header has ${columns.length} columns (quote cells that contain a comma)`,
      );
      continue;
    }
    const rowInput = toRowInput(columns, record, index);
    const result = DatasetRowSchema.safeParse(rowInput);
    if (result.success) {
      const row = result.data;
      if (row.conversation !== null || row.turn !== null)
        turns.push({
          line: row.line,
          conversation: row.conversation,
          turn: row.turn,
          persona_id: row.persona_id,
          project_id: row.project_id,
        });
      tools.add(...toolProblems([row], options.toolIds ?? null, name));
      // Once a problem is found no row is handed on: the reader throws at the end whatever they are.
      if (problems.count === 0) options.onRow(row, record.span, record.cells);
    } else
      for (const issue of result.error.issues)
        problems.add(`${where}: ${issue.path.join('.') || 'row'}: ${issue.message}`);
    // Checked on the cell, not the parsed row, so a duplicate shows even when the row has other problems.
    const id = rowInput.id.trim();
    const firstLine = firstLines.seen(id, record.line);
    if (firstLine !== undefined && id !== '')
      problems.add(`${where}: id: duplicate id ${JSON.stringify(id)} (first on line ${firstLine})`);
  }
  if (index === 0) throw new InputError([`${name}: no questions (the file has only a header row)`]);
  const all = [...problems.items, ...conversationProblems(turns, name), ...tools.items].sort(
    (a, b) => lineNumber(a) - lineNumber(b),
  );
  const total = problems.count + tools.count + all.length - problems.items.length - tools.items.length;
  if (total > MAX_LISTED_PROBLEMS) {
    throw new InputError([
      ...all.slice(0, MAX_LISTED_PROBLEMS),
      `${name}: ${formatCount(total - MAX_LISTED_PROBLEMS)} more problems (the first ${formatCount(MAX_LISTED_PROBLEMS)} by line are listed)`,
    ]);
  }
  if (all.length > 0) throw new InputError(all);
  return { path: name, columns };
}

/**
 * Problems listed at most: a file wrong on every one of a million rows is refused with its first
 * ones and a count, not with a million lines held and printed.
 */
export const MAX_LISTED_PROBLEMS = 1000;

/** A list that keeps its first `cap` items and counts every one. */
function cappedList<T>(cap: number) {
  const items: T[] = [];
  let count = 0;
  return {
    items,
    get count() {
      return count;
    },
    add(...more: T[]) {
      for (const item of more) {
        count += 1;
        if (items.length < cap) items.push(item);
      }
    },
  };
}

/** The empty list every row with nothing in a list shares (frozen: nothing may add to it). */
const NONE = Object.freeze([]) as unknown as never[];
/** The metadata of every row without extra columns, shared and frozen likewise. */
const NO_METADATA: Record<string, string> = Object.freeze({});

/**
 * The row with its empty lists and metadata shared and its category interned: a million rows held
 * for the plan would otherwise keep some ten million empty arrays and a million copies of a few
 * category names. Nothing downstream mutates a row.
 */
export function compactRow(row: DatasetRow, categories: Map<string, string>): DatasetRow {
  const e = row.expectations;
  const shared = <T>(list: T[]): T[] => (list.length === 0 ? NONE : list);
  let category = row.category;
  if (category !== null) {
    const known = categories.get(category);
    if (known === undefined) categories.set(category, category);
    else category = known;
  }
  return {
    ...row,
    category,
    expectations: {
      ...e,
      expected_document_ids: shared(e.expected_document_ids),
      must_contain: shared(e.must_contain),
      must_not_contain: shared(e.must_not_contain),
      must_match: shared(e.must_match),
      must_not_match: shared(e.must_not_match),
      expected_tools: shared(e.expected_tools),
    },
    metadata: Object.keys(row.metadata).length === 0 ? NO_METADATA : row.metadata,
  };
}

/**
 * The file's records as csv-parse streams them, each with the line where it starts. csv-parse
 * counts a CRLF inside a quoted cell as two lines; the text comes with CRLF made LF, so its line
 * numbers are exact. A CSV error is an InputError naming the line.
 */
async function* parseRecords(
  name: string,
  input: InputFile,
  withSpans = false,
): AsyncGenerator<RawRecord, void, undefined> {
  const parser = parse({ info: true, bom: true, ...CSV_OPTIONS });
  const spans = withSpans ? createRecordSpans() : null;
  const feed = async () => {
    try {
      for await (const chunk of readUtf8Chunks(
        input,
        undefined,
        spans === null ? undefined : (bytes) => spans.feed(bytes),
      )) {
        if (parser.destroyed) return; // a CSV error, or the reader stopped early
        // Back-pressure; a parser destroyed meanwhile never drains, but it closes.
        if (!parser.write(chunk)) {
          await new Promise<void>((done) => {
            const settle = () => {
              parser.off('drain', settle).off('close', settle);
              done();
            };
            parser.on('drain', settle).on('close', settle);
          });
        }
      }
      spans?.end();
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  };
  const fed = feed();
  try {
    // With `info: true` each record comes as { record, info }.
    let lfDelimited: boolean | undefined;
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: Info & { lines: number };
    }>) {
      // info.lines is the line where the record ends; only quoted cells can hold newlines.
      const counted = info.lines - record.reduce((count, value) => count + countNewlines(value), 0);
      // csv-parse settles the record delimiter on the first line; the spans split on LF only.
      lfDelimited ??= isLfDelimited(parser);
      // A CR that ends the file is no line break to csv-parse (it waits for an LF that never comes),
      // though it counts one in a quoted cell: the record then starts a line later than counted.
      const span = spans === null || !lfDelimited ? null : (spans.take(counted) ?? spans.take(counted + 1));
      const line = counted; // (as the path without spans counts it, so both give a row the same line)
      if (spans !== null && lfDelimited && span === undefined)
        throw new Error(`${name}:${line}: the byte offsets of the records and csv-parse disagree (a chatbench bug)`);
      yield { cells: record, line, span: span ?? null };
    }
  } catch (error) {
    if (error instanceof CsvError) throw new InputError([await csvProblem(name, input, error)], { cause: error });
    throw error;
  } finally {
    parser.destroy();
    await fed;
  }
}

// csv-parse counts a lone CR inside a cell as a line break too (CRLF arrives as LF).
const countNewlines = (value: string): number => (value.match(/[\r\n]/g) ?? []).length;

/**
 * The options every parse of a dataset shares: the stream's and a re-read record's (dataset/row-file)
 * must split and skip alike.
 */
export const CSV_OPTIONS = {
  relax_column_count: true,
  skip_empty_lines: true,
  skip_records_with_empty_values: true,
} as const;

/** Whether the parser found LF to be the record delimiter (csv-parse fills `options.record_delimiter` on the first line). */
function isLfDelimited(parser: object): boolean {
  const found = (parser as { options?: { record_delimiter?: Buffer[] } }).options?.record_delimiter ?? [];
  return found.length === 1 && found[0]!.length === 1 && found[0]![0] === 0x0a;
}

async function csvProblem(name: string, input: InputFile, error: CsvError): Promise<string> {
  const reported = typeof error.lines === 'number' ? error.lines : 1;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `${name}:${(await recordStartLine(input, error)) ?? reported}: unterminated quote: a quoted cell opened in this record is never closed`;
    case 'INVALID_OPENING_QUOTE':
      return `${name}:${reported}: a double quote inside an unquoted cell (quote the whole cell and double the inner quotes: "say ""hi""")`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `${name}:${reported}: text after the closing quote of a cell (double a quote that is part of the text: "say ""hi""")`;
    default:
      return `${name}:${reported}: ${error.message}`;
  }
}

/**
 * The line where the unparsed record starts: after the bytes of the last good record and any blank
 * lines. Read again as a stream (only on this error), counting newlines up to that byte.
 */
async function recordStartLine(input: InputFile, error: CsvError): Promise<number | undefined> {
  if (typeof error.bytes_records !== 'number') return undefined;
  let offset = 0; // bytes of the LF text seen so far
  let line = 1;
  let skipping = false; // past the last good record: blank lines are skipped
  for await (const text of readUtf8Chunks(input)) {
    const bytes = Buffer.from(text, 'utf8');
    for (let i = 0; i < bytes.length; i += 1, offset += 1) {
      if (offset >= error.bytes_records) skipping = true;
      if (skipping && bytes[i] !== 0x0a) return line;
      if (bytes[i] === 0x0a) line += 1;
    }
  }
  return line;
}

function checkHeader(name: string, columns: string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  columns.forEach((column, index) => {
    if (column === '') problems.push(`${name}:1: column ${index + 1} has no name`);
    // An object key of that name sets the object's prototype: the column would vanish from every record.
    else if (column === '__proto__')
      problems.push(
        `${name}:1: column "__proto__" cannot be kept (the name is reserved in JavaScript objects); rename it`,
      );
    else if (seen.has(column)) problems.push(`${name}:1: column "${column}" appears twice`);
    seen.add(column);
  });
  if (!seen.has('question')) {
    const separator = foreignSeparator(columns);
    if (separator !== undefined)
      return [
        `${name}:1: the header row is separated by ${separator.name} ("${columns.join(',')}"): datasets are comma-separated CSV; save the file with "," as the separator (a spreadsheet's "CSV (comma delimited)")`,
      ];
    const near = columns.find((column) => column.toLowerCase() === 'question');
    const hint = near === undefined ? '' : ` ("${near}" is not it: column names are lowercase)`;
    problems.unshift(`${name}: no "question" column${hint}; the header row is: ${columns.join(',')}`);
  }
  return problems;
}

/**
 * A spreadsheet in a locale whose decimal mark is "," saves "CSV" with ";" (and some tools with tabs):
 * read as commas, the whole header is one column. Named as such instead of "no question column".
 */
function foreignSeparator(columns: readonly string[]): { name: string } | undefined {
  for (const [char, name] of [
    [';', 'semicolons (";")'],
    ['\t', 'tabs'],
  ] as const) {
    if (
      columns.some(
        (column) =>
          column.includes(char) && column.split(char).some((part) => part.trim().toLowerCase() === 'question'),
      )
    )
      return { name };
  }
  return undefined;
}

export function toRowInput(
  columns: string[],
  record: Pick<RawRecord, 'cells' | 'line'>,
  rowNumber: number,
): DatasetRowInput {
  const known: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  columns.forEach((column, index) => {
    const value = record.cells[index] ?? '';
    if (isKnownColumn(column)) known[column] = value;
    else metadata[column] = value;
  });
  const id = known.id === undefined || known.id.trim() === '' ? defaultId(known, rowNumber) : known.id;
  return { ...known, id, line: record.line, metadata };
}

/** A turn of a conversation is `conversation#turn` (stable when rows move); any other row its row number. */
function defaultId(known: Record<string, string>, rowNumber: number): string {
  const conversation = known.conversation?.trim() ?? '';
  const turn = known.turn?.trim() ?? '';
  return conversation !== '' && /^\d+$/.test(turn) ? `${conversation}#${Number(turn)}` : String(rowNumber);
}

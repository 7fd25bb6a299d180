/**
 * @module reports/results-csv
 * results.csv: one row per request (one per model of a multi-model request) for spreadsheets and
 * pandas. Streamed from the records as they come, so it never needs the whole run in memory.
 * A figure that does not exist is an empty cell; booleans are `true`/`false`; lists are `|`-joined.
 * After `pass`: `judge_errors` (the judged figures whose judge failed) and one `check.NAME` column
 * per user check (`--checks`), then the dataset's extra columns.
 *
 * Text cells come from the dataset and the service. One that starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return is a formula to a spreadsheet (`=HYPERLINK(...)` in a document id), so it
 * is written with a leading `'` (OWASP's rule for CSV injection); numbers are written as numbers.
 */
import { stringify } from 'csv-stringify/sync';
import type { AnswerFigures, RequestRecord } from '../records/record.js';
import { ScoresSchema, type Scores } from '../records/scores.js';
import { modelPassed, recordPassed } from '../metrics/pass.js';
import type { RecordSink } from './sink.js';

/** Score columns in schema order, `pass` last (it has its own column after them). */
export const SCORE_COLUMNS = Object.keys(ScoresSchema.shape).filter((k): k is keyof Scores => k !== 'pass');

/** Every column before the score and metadata columns. */
export const BASE_COLUMNS = [
  'key', 'question_id', 'question', 'conversation', 'turn', 'session', 'category', 'set', 'mode', 'repeat', 'model_index', 'model_name', 'started_at',
  'outcome', 'http_status', 'error_code', 'attempts',
  'queue_ms', 'headers_ms', 'ttfp_ms', 'ttft_ms', 'first_citation_ms', 'total_ms', 'response_ms', 'time_per_delta_ms',
  'output_chars_per_s', 'output_tokens', 'output_tokens_per_s', 'tpot_per_token_ms', 'pre_answer_processing_seconds', 'first_packet_ms',
  'parts', 'answer_deltas', 'answer_chars', 'answer_truncated', 'reasoning_chars', 'tool_errors', 'tools_used',
  'cited_document_ids', 'top_document_ids', 'expected_document_ids', 'markers_without_citation',
] as const;

/** Metadata (extra dataset columns) are prefixed so a dataset column can never shadow one of ours. */
export const META_PREFIX = 'meta.';
/** A user check's score column. */
export const CHECK_PREFIX = 'check.';

export interface CsvOptions {
  /** The dataset's extra columns. Default: the metadata keys of the first record. */
  metadataColumns?: readonly string[];
  /** The user checks' names. Default: the checks of the first record (or its first model); none when the header goes out at creation. */
  checkColumns?: readonly string[];
}

type Cell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet will not run: `'` before a leading `=`, `+`, `-`, `@`, tab or CR (OWASP). */
export const neutraliseCell = (cell: Cell): Cell => (typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell);

/** One CSV line of cells, each neutralised. */
const csvLine = (rows: Cell[][]): string => stringify(rows.map((row) => row.map(neutraliseCell)));

/**
 * A sink that writes results.csv through `write`. The header goes out at creation when
 * `metadataColumns` is given, else with the first record (or at close() if there was none).
 * A metadata key missing from a record is an empty cell; one not in the header is left out.
 */
export function createCsvSink(write: (chunk: string) => void, options: CsvOptions = {}): RecordSink {
  let columns: { metadata: readonly string[]; checks: readonly string[] } | null = null;
  const header = (metadata: readonly string[], checks: readonly string[]) => {
    write(csvLine([[...BASE_COLUMNS, ...SCORE_COLUMNS, 'pass', 'judge_errors', ...checks.map((c) => `${CHECK_PREFIX}${c}`), ...metadata.map((c) => `${META_PREFIX}${c}`)]]));
    return { metadata, checks };
  };
  if (options.metadataColumns) columns = header(options.metadataColumns, options.checkColumns ?? []);
  return {
    name: 'csv',
    write(record) {
      const firstChecks = Object.keys(record.models?.[0]?.checks ?? record.checks);
      columns ??= header(options.metadataColumns ?? Object.keys(record.metadata), options.checkColumns ?? firstChecks);
      const { metadata, checks } = columns;
      write(csvLine(csvRowsOf(record, checks).map((row) => [...row, ...metadata.map((c) => record.metadata[c] ?? null)])));
    },
    async close() {
      columns ??= header(options.metadataColumns ?? [], options.checkColumns ?? []);
    },
  };
}

/** results.csv of a whole list of records in one string (tests, small runs). */
export function renderResultsCsv(records: Iterable<RequestRecord>, options: CsvOptions = {}): string {
  const chunks: string[] = [];
  const sink = createCsvSink((chunk) => chunks.push(chunk), options);
  for (const record of records) sink.write(record);
  void sink.close();
  return chunks.join('');
}

/** The rows of one record without the metadata cells: one, or one per model. */
function csvRowsOf(record: RequestRecord, checks: readonly string[]): Cell[][] {
  if (!record.models) return [cellsOf(record, record, null, null, checks)];
  return record.models.map((m) => cellsOf(record, m, m.model_index, m.model_name, checks));
}

function cellsOf(record: RequestRecord, figures: AnswerFigures, modelIndex: number | null, modelName: string | null, checks: readonly string[]): Cell[] {
  const base: Record<(typeof BASE_COLUMNS)[number], Cell> = {
    key: record.key,
    question_id: record.question_id,
    conversation: record.conversation,
    turn: record.turn,
    session: record.session,
    question: record.question,
    category: record.category,
    set: record.set,
    mode: record.mode,
    repeat: record.repeat,
    model_index: modelIndex,
    model_name: modelName,
    started_at: record.started_at,
    outcome: figures.outcome,
    http_status: record.http_status,
    error_code: figures.error_code,
    attempts: record.attempts.length,
    queue_ms: record.queue_ms,
    headers_ms: record.headers_ms,
    ttfp_ms: figures.ttfp_ms,
    ttft_ms: figures.ttft_ms,
    first_citation_ms: figures.first_citation_ms,
    total_ms: figures.total_ms,
    response_ms: record.response_ms,
    time_per_delta_ms: figures.time_per_delta_ms,
    output_chars_per_s: figures.output_chars_per_s,
    output_tokens: figures.output_tokens ?? null,
    output_tokens_per_s: figures.output_tokens_per_s ?? null,
    tpot_per_token_ms: figures.tpot_per_token_ms ?? null,
    pre_answer_processing_seconds: figures.pre_answer_processing_seconds,
    first_packet_ms: Object.keys(figures.first_packet_ms).length > 0 ? JSON.stringify(figures.first_packet_ms) : null,
    parts: figures.parts,
    answer_deltas: figures.answer_deltas,
    answer_chars: figures.answer_chars,
    answer_truncated: String(figures.answer_truncated),
    reasoning_chars: figures.reasoning_chars,
    tool_errors: figures.tool_errors,
    tools_used: figures.tools_used.join('|'),
    cited_document_ids: figures.cited_document_ids.join('|'),
    top_document_ids: figures.top_document_ids.join('|'),
    expected_document_ids: record.expected_document_ids.join('|'),
    markers_without_citation: figures.markers_without_citation.join('|'),
  };
  const scores = figures.scores;
  const passed = modelIndex === null ? recordPassed(record) : modelPassed(figures);
  const judgeErrors = Object.entries(figures.judge?.verdicts ?? {}).filter(([, v]) => v?.status === 'judge_error').map(([f]) => f);
  return [
    ...BASE_COLUMNS.map((c) => base[c]), ...SCORE_COLUMNS.map((c) => scoreCell(scores?.[c])), String(passed), judgeErrors.join('|'),
    ...checks.map((c) => figures.checks[c]?.score ?? null),
  ];
}

function scoreCell(value: Scores[keyof Scores] | undefined): Cell {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.join('|');
  if (typeof value === 'boolean') return String(value);
  return value;
}

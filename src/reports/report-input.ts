/**
 * @module reports/report-input
 * What the renderers read: the Summary, what each figure needs of the rows (junit.xml's cases as
 * columns of numbers, report.html's CDF points and pass/fail grid), and the full records of the
 * worst few. Built while records stream past: each record becomes its slim rows (one per request,
 * one per model of a multi-model request), which are folded into those structures and dropped, so
 * no row object and no answer is kept to the end (issue 24 §3).
 */
import type { Verdict } from '../verdict/index.js';
import { z } from 'zod';
import type { RequestRecord } from '../records/record.js';
import type { Summary } from '../records/summary.js';
import { createDistributionsBuilder, type ColumnValues, type Distributions } from './distributions.js';
import { createJunitCasesBuilder, type JunitCases } from './junit-cases.js';
import { createPassGridBuilder, MAX_GRID_QUESTIONS, type PassGridData } from './pass-grid-data.js';
import { createQuestionIndex, type QuestionIndex } from '../metrics/question-index.js';
import { modelChecked, modelPassed, recordChecked } from '../metrics/pass.js';
import type { ReportRow } from './report-row.js';
import { answerFailReasons, recordFailReasons, recordPassed } from './fail-reasons.js';

/** How much of the question text a row keeps. */
export const QUESTION_CHARS = 200;
export const DEFAULT_WORST = 10;

export { ReportRowSchema, type ReportRow } from './report-row.js';

export const ReportMetaSchema = z.object({
  title: z.string(),
  /** `chatbench <version>`. */
  generated_by: z.string(),
  run_dir: z.string().optional(),
  /** What the target told of itself (release, stream framing), from the run's manifest. */
  service: z.string().optional(),
});

export type ReportMeta = z.infer<typeof ReportMetaSchema>;

/** What every renderer of an eval's reports reads. In memory only (never parsed from a file). */
export interface ReportInput {
  readonly summary: Summary;
  /** junit.xml's testcases: the request-level rows. */
  readonly junit: JunitCases;
  /** report.html's latency CDFs by column. */
  readonly distributions: Distributions;
  /** report.html's pass/fail grid. */
  readonly grid: PassGridData;
  /** Worst first: non-ok requests, then failed ones, then by ascending citation F1. */
  readonly worst: RequestRecord[];
  readonly meta: ReportMeta;
  /**
   * The run's verdict (verdict/verdict): known once the gates and the pairs of sets are checked,
   * after the first rendering; the reports are rendered again with it and open with it.
   */
  readonly verdict?: Verdict;
}

/** What the renderers read of the rows, from rows given one at a time. */
export interface RowsCollector {
  add(row: ReportRow): void;
  finish(): Pick<ReportInput, 'junit' | 'distributions' | 'grid'>;
}

/**
 * `latencyOf`: where the columns' latency values are kept already (reports/distributions). `ids`:
 * the pass's question ids, when the caller interns them already (the summarizer's,
 * metrics/question-index): one table of them a pass, not one here too.
 */
export function createRowsCollector(
  latencyOf?: ColumnValues,
  ids: QuestionIndex = createQuestionIndex(),
): RowsCollector {
  // One table of the question ids for junit.xml's cases and the grid (a map entry a question, not two).
  const junit = createJunitCasesBuilder(ids);
  const distributions = createDistributionsBuilder(latencyOf);
  const grid = createPassGridBuilder(MAX_GRID_QUESTIONS, ids);
  return {
    add(row) {
      grid.add(row);
      junit.add(row);
      distributions.add(row);
    },
    finish: () => ({ junit: junit.finish(), distributions: distributions.finish(), grid: grid.finish() }),
  };
}

export interface ReportInputOptions {
  /** How many full records to keep for "worst questions" (default 10; 0 keeps none). */
  worst?: number;
  title?: string;
  /** The toolkit's version, for `generated_by`; the app passes it (reports never read package.json). */
  version?: string;
  run_dir?: string;
  service?: string;
  /**
   * The columns' latency values, ascending, once every record is in (the summarizer's,
   * metrics/summarize `latency`): report.html's CDFs read them instead of keeping a copy.
   */
  latencyOf?: ColumnValues;
  /** The pass's question ids, interned once a pass (metrics/question-index: the summarizer's); default a table of its own. */
  questionIds?: QuestionIndex;
}

export interface ReportInputBuilder {
  /** Takes one record as it completes: folds its slim rows in and, if among the worst so far, keeps the record. */
  add(record: RequestRecord): void;
  /** The input for every renderer. */
  finish(summary: Summary): ReportInput;
}

/** Creates the streaming builder of a ReportInput. */
export function createReportInputBuilder(options: ReportInputOptions = {}): ReportInputBuilder {
  const limit = Math.max(0, Math.floor(options.worst ?? DEFAULT_WORST));
  const rows = createRowsCollector(options.latencyOf, options.questionIds);
  const worst: Array<{ rank: WorstRank; record: RequestRecord }> = [];
  const shared = createInterner();
  return {
    add(record) {
      for (const row of rowsOf(record, shared)) rows.add(row);
      if (limit === 0) return;
      const rank = worstRank(record);
      if (worst.length === limit && compareRank(rank, worst[worst.length - 1]!.rank) >= 0) return;
      const at = worst.findIndex((entry) => compareRank(rank, entry.rank) < 0);
      worst.splice(at === -1 ? worst.length : at, 0, { rank, record });
      if (worst.length > limit) worst.pop();
    },
    finish(summary) {
      return {
        summary,
        ...rows.finish(),
        worst: worst.map((entry) => entry.record),
        meta: {
          title: options.title ?? 'chatbench report',
          generated_by: options.version ? `chatbench ${options.version}` : 'chatbench',
          ...(options.run_dir === undefined ? {} : { run_dir: options.run_dir }),
          ...(options.service === undefined ? {} : { service: options.service }),
        },
      };
    },
  };
}

/**
 * One copy of each repeated value of the rows (its set, its category, the same list of reasons): a
 * row then costs its own numbers and key, not its texts. A question's id and text are not kept
 * here: the rows are folded in and dropped, and what keeps them (junit.xml's cases, the grid)
 * keeps its first, so a map entry each a distinct question would be all they cost.
 */
export interface Interner {
  text<T extends string | null>(value: T): T;
  question(value: string): string;
  reasons(value: string[]): string[];
}

function createInterner(): Interner {
  const texts = new Map<string, string>();
  const questions = new Map<string, string>();
  const reasons = new Map<string, string[]>();
  const text = <T extends string | null>(value: T): T => {
    if (value === null) return value;
    const known = texts.get(value);
    if (known !== undefined) return known as T;
    texts.set(value, value);
    return value;
  };
  return {
    text,
    question(value) {
      // A question no longer than the cut is its own cut: no copy, no map entry.
      if (value.length <= QUESTION_CHARS) return value;
      let short = questions.get(value);
      if (short === undefined) questions.set(value, (short = text(cutQuestion(value))));
      return short;
    },
    reasons(value) {
      const key = value.join('\n');
      const known = reasons.get(key);
      if (known !== undefined) return known;
      reasons.set(key, value);
      return value;
    },
  };
}

const cutQuestion = (question: string) => Array.from(question).slice(0, QUESTION_CHARS).join('');

/** Keeps every value as it is (rowsOf called on its own). */
const NO_INTERNER: Interner = { text: (value) => value, question: cutQuestion, reasons: (value) => value };

/** The slim rows of one record: the request, then one per model of a multi-model request. */
export function rowsOf(record: RequestRecord, shared: Interner = NO_INTERNER): ReportRow[] {
  const whole = slimRow(record, shared, record, null, null, recordPassed(record), shared.reasons(recordFailReasons(record)));
  if (record.models === null || record.models.length === 0) return [whole];
  const rows = [whole];
  for (const m of record.models) {
    // Each model is judged on its own answer (metrics/pass), as its column in the summary is.
    const reasons = answerFailReasons(m, record.http_status);
    const pass = modelPassed(m);
    rows.push(slimRow(record, shared, m, m.model_index, shared.text(m.model_name), pass, shared.reasons(pass ? [] : reasons.length > 0 ? reasons : ['did not pass'])));
  }
  return rows;
}

type RowFigures = Pick<ReportRow, 'outcome' | 'error_code' | 'ttfp_ms' | 'ttft_ms' | 'total_ms' | 'time_per_delta_ms' | 'output_chars_per_s'> & {
  readonly scores: { readonly citation_recall: number | null; readonly citation_precision: number | null; readonly citation_f1: number | null; readonly checked?: boolean | undefined } | null;
};

/**
 * One row as a single object literal of a fixed shape: built by spreads, a row of 22 fields fell
 * into V8's dictionary mode and took about 930 bytes (measured over 50,000 rows); written out, 290.
 */
function slimRow(record: RequestRecord, shared: Interner, f: RowFigures, modelIndex: number | null, modelName: string | null, pass: boolean, reasons: string[]): ReportRow {
  return {
    key: record.key,
    question_id: record.question_id,
    question: shared.question(record.question),
    category: shared.text(record.category),
    set: shared.text(record.set),
    mode: record.mode,
    repeat: record.repeat,
    http_status: record.http_status,
    model_index: modelIndex,
    model_name: modelName,
    outcome: f.outcome,
    error_code: shared.text(f.error_code),
    pass,
    checked: modelIndex === null ? recordChecked(record) : modelChecked(f),
    ttfp_ms: f.ttfp_ms,
    ttft_ms: f.ttft_ms,
    total_ms: f.total_ms,
    time_per_delta_ms: f.time_per_delta_ms,
    output_chars_per_s: f.output_chars_per_s,
    citation_recall: f.scores?.citation_recall ?? null,
    citation_precision: f.scores?.citation_precision ?? null,
    citation_f1: f.scores?.citation_f1 ?? null,
    reasons,
  };
}

/** [severity (0 = not ok, 1 = failed, 2 = passed), citation F1 (N/A sorts last), key]. */
type WorstRank = readonly [number, number, string];

function worstRank(record: RequestRecord): WorstRank {
  const severity = record.outcome !== 'ok' ? 0 : recordPassed(record) ? 2 : 1;
  const f1s = [record.scores?.citation_f1, ...(record.models ?? []).map((m) => m.scores?.citation_f1)].filter(
    (v): v is number => typeof v === 'number',
  );
  return [severity, f1s.length > 0 ? Math.min(...f1s) : Number.POSITIVE_INFINITY, record.key];
}

function compareRank(a: WorstRank, b: WorstRank): number {
  return a[0] - b[0] || (a[1] === b[1] ? 0 : a[1] < b[1] ? -1 : 1) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

/**
 * @module reports/junit-cases
 * junit.xml's testcases, one per request (the request-level report row), kept as columns of
 * numbers with their texts shared (columns.ts): 22 bytes a request (a question's text found by its
 * id, the repeat and the time as whole numbers), where a row object took about 290. The order
 * junit.xml wants (suites in the run's set order, cases by natural question id then repeat) is
 * computed at the end on indexes.
 */
import type { Mode, Outcome } from '../records/record.js';
import { OUTCOMES } from '../records/record.js';
import { createColumn, createScaledColumn } from './columns.js';
import { createValueTable, type ValueTable } from '../util/value-table.js';
import { naturalCompare } from './format.js';
import type { ReportRow } from './report-row.js';

/** What one testcase says. */
export type JunitCase = Pick<ReportRow, 'question_id' | 'question' | 'repeat' | 'outcome' | 'pass' | 'checked' | 'total_ms' | 'reasons'>;

export interface JunitSuite {
  readonly set: string;
  readonly mode: Mode;
  /** Case indexes (for `at`), in the suite's order: natural question id, then repeat, then as added. */
  readonly cases: Uint32Array;
}

/** The request-level rows of a run, for junit.xml. */
export interface JunitCases {
  /** Cases in the order added. */
  readonly length: number;
  at(index: number): JunitCase;
  /** Whether any case has repeat > 0 (then every case name carries its repeat). */
  readonly repeats: boolean;
  /** The suites (set × mode) in the order first seen, each with its cases sorted. */
  suites(): JunitSuite[];
}

export interface JunitCasesBuilder {
  /** Takes a request-level row (a model's row is ignored: it is folded into the request's reasons). */
  add(row: ReportRow): void;
  finish(): JunitCases;
}

/** The pass column's values: a pass that tested nothing the question expects is kept apart (JUnit says "not checked"). */
const FAILED = 0;
const PASSED = 1;
const UNCHECKED_PASS = 2;

const keyOfList = (list: readonly string[]): string => list.join('\u0000');

/**
 * `cases` (in the order added) by rank, then repeat, then the order added: a counting sort on the
 * rank, then each rank's few cases by repeat. A comparison sort of a suite's cases copied them
 * all into the heap as numbers, twice (some 14 MB at a million cases, at the reports' peak).
 */
function byRank(cases: Uint32Array, rankOf: (c: number) => number, ranks: number, repeatOf: (c: number) => number): Uint32Array {
  const starts = new Uint32Array(ranks + 1);
  for (const c of cases) starts[rankOf(c) + 1]! += 1;
  for (let r = 0; r < ranks; r += 1) starts[r + 1]! += starts[r]!;
  const next = starts.slice(0, ranks);
  const out = new Uint32Array(cases.length);
  for (const c of cases) out[next[rankOf(c)]!++] = c;
  for (let r = 0; r < ranks; r += 1) {
    const run = out.subarray(starts[r]!, starts[r + 1]!);
    let ordered = true;
    for (let i = 1; i < run.length && ordered; i += 1) ordered = repeatOf(run[i - 1]!) <= repeatOf(run[i]!);
    // Stable by the order added already; the repeats are usually in order too.
    if (!ordered) run.sort((a, b) => repeatOf(a) - repeatOf(b) || a - b);
  }
  return out;
}

/** `ids`: the run's question ids, a table the caller may share (the pass grid's, reports/pass-grid-data). */
export function createJunitCasesBuilder(ids: ValueTable<string> = createValueTable((id) => id)): JunitCasesBuilder {
  const suiteTable = createValueTable<readonly [string, Mode]>(([set, mode]) => `${set}\u0000${mode}`);
  const reasonLists = createValueTable<string[]>(keyOfList);
  const suite = createColumn((n) => new Uint32Array(n));
  const questionId = createColumn((n) => new Uint32Array(n));
  // A question's text by its id: the one its first case had. A case whose text differs (a dataset
  // that reuses an id) keeps its own, by case index: none in a run of any usual dataset.
  const questionOf: string[] = [];
  const otherQuestion = new Map<number, string>();
  const repeat = createScaledColumn(1);
  const outcome = createColumn((n) => new Uint8Array(n));
  const pass = createColumn((n) => new Uint8Array(n));
  const total = createScaledColumn(1000);
  const reasons = createColumn((n) => new Uint32Array(n));
  let repeats = false;
  const at = (i: number): JunitCase => {
    const id = questionId.at(i);
    return {
      question_id: ids.at(id),
      question: otherQuestion.get(i) ?? questionOf[id]!,
      repeat: repeat.at(i)!,
      outcome: OUTCOMES[outcome.at(i)]!,
      pass: pass.at(i) !== FAILED,
      checked: pass.at(i) !== UNCHECKED_PASS,
      total_ms: total.at(i),
      reasons: reasonLists.at(reasons.at(i)),
    };
  };
  return {
    add(row) {
      if (row.model_index !== null) return;
      const id = ids.id(row.question_id);
      if (questionOf[id] === undefined) questionOf[id] = row.question;
      else if (questionOf[id] !== row.question) otherQuestion.set(questionId.length, row.question);
      suite.push(suiteTable.id([row.set, row.mode]));
      questionId.push(id);
      repeat.push(row.repeat);
      outcome.push(OUTCOMES.indexOf(row.outcome as Outcome));
      pass.push(row.pass ? (row.checked ? PASSED : UNCHECKED_PASS) : FAILED);
      total.push(row.total_ms);
      reasons.push(reasonLists.id(row.reasons));
      if (row.repeat > 0) repeats = true;
    },
    finish() {
      const length = suite.length;
      return {
        length,
        at,
        repeats,
        suites() {
          // Natural order of the question ids, once per distinct id (every id of the table has a
          // case): cases then sort on integers.
          const distinct = Array.from({ length: ids.size }, (_, id) => id).sort((a, b) =>
            naturalCompare(ids.at(a), ids.at(b)),
          );
          const rankOfId = new Uint32Array(ids.size);
          distinct.forEach((id, i) => {
            const previous = distinct[i - 1];
            rankOfId[id] = previous !== undefined && naturalCompare(ids.at(previous), ids.at(id)) === 0 ? rankOfId[previous]! : i;
          });
          const sizes = new Uint32Array(suiteTable.size);
          for (let i = 0; i < length; i += 1) sizes[suite.at(i)]! += 1;
          const members = Array.from(sizes, (size) => ({ cases: new Uint32Array(size), filled: 0 }));
          for (let i = 0; i < length; i += 1) {
            const m = members[suite.at(i)]!;
            m.cases[m.filled++] = i;
          }
          return members.map((m, s) => {
            const [set, mode] = suiteTable.at(s);
            return { set, mode, cases: byRank(m.cases, (c) => rankOfId[questionId.at(c)]!, ids.size, (c) => repeat.at(c)!) };
          });
        },
      };
    },
  };
}

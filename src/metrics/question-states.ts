/**
 * @module metrics/question-states
 * What a summary group (or one category of it) keeps a question for its clustered figures
 * (metrics/clustered): its passes and tries, whether an answer of it was not checked, and its score
 * values (metrics/score-clusters), at its row (metrics/question-rows). A group's own figures are
 * its categories' together: `unionOfQuestionStates` reads them from its categories instead of a
 * copy of its own (a run of distinct questions of one category kept every question's rows and
 * coded values twice, some 60 bytes a question; docs/benchmarks-log.md "Session 40: distinct questions").
 */
import type { Clusters, PassCounts } from './clustered.js';
import { BLOCK_ROWS, createCodedValues } from './coded-values.js';
import type { QuestionIndex } from './question-index.js';
import { QuestionRows } from './question-rows.js';
import { createScoreClusters } from './score-clusters.js';

export interface QuestionStates {
  /** Whether a question came more than once. */
  readonly repeated: boolean;
  /** Every question's values of a score or check figure, by its id. */
  clusters(name: string): Clusters;
  /** Per question with a checked answer, its passes and tries (by the question's id). */
  passCounts(): PassCounts;
  /** Questions none of whose answers were checked, but some unchecked. */
  uncheckedQuestions(): number;
  /** Each question (its integer), whether an answer of it was checked, and whether one was not. */
  forEach(fn: (question: number, checked: boolean, unchecked: boolean) => void): void;
}

export interface QuestionStatesBuilder extends QuestionStates {
  /** A question's answer came: its row (repeated from its second). */
  add(question: number, checked: boolean, passed: boolean): void;
  /** A finite score or check value of an ok answer of `question`. */
  addValue(name: string, question: number, value: number): void;
}

export function createQuestionStates(ids: Pick<QuestionIndex, 'at'>): QuestionStatesBuilder {
  const rows = new QuestionRows();
  // Passes as two counts (not a value per try: exact, and a question's cost, not a request's) and
  // whether an answer was not checked, in columns (metrics/coded-values: a byte a question while
  // the counts are small).
  const triesOf = createCodedValues();
  const passesOf = createCodedValues();
  const uncheckedOf = createCodedValues();
  const scoreClusters = createScoreClusters(BLOCK_ROWS, rows, ids);
  let repeated = false;
  return {
    get repeated() {
      return repeated;
    },
    add(question, checked, passed) {
      if (rows.rowOf(question) !== -1) repeated = true;
      const row = rows.add(question);
      if (!checked) uncheckedOf.set(row, 1);
      else {
        const tries = triesOf.at(row);
        triesOf.set(row, Number.isNaN(tries) ? 1 : tries + 1);
        passesOf.set(row, (Number.isNaN(tries) ? 0 : passesOf.at(row)) + (passed ? 1 : 0));
      }
    },
    addValue(name, question, value) {
      if (scoreClusters.add(name, question, value)) repeated = true;
    },
    clusters: (name) => scoreClusters.clusters(name),
    passCounts() {
      const counts = new Map<string, { passed: number; tries: number }>();
      rows.forEach((question, row) => {
        const tries = triesOf.at(row);
        if (!Number.isNaN(tries)) counts.set(ids.at(question), { passed: passesOf.at(row), tries });
      });
      return counts;
    },
    uncheckedQuestions() {
      let count = 0;
      for (let row = 0; row < rows.size; row += 1)
        if (!Number.isNaN(uncheckedOf.at(row)) && Number.isNaN(triesOf.at(row))) count += 1;
      return count;
    },
    forEach(fn) {
      rows.forEach((question, row) => fn(question, !Number.isNaN(triesOf.at(row)), !Number.isNaN(uncheckedOf.at(row))));
    },
  };
}

/** Bits of a question's flags over the parts: in a part already, an answer checked, one not. */
const IN_PART = 1;
const CHECKED = 2;
const UNCHECKED = 4;

/**
 * The states of `parts` (accumulators that together took every observation: a group's categories)
 * as one: a question in several parts is one question, its values and counts theirs together. The
 * same clusters and counts, so the same figures to the bit (the clustered figures sort by id and value).
 * `questions`: how many question integers the pass has given.
 */
export function unionOfQuestionStates(parts: () => readonly QuestionStates[], questions: () => number): QuestionStates {
  /** Per question, its flags over the parts; and whether one was in two parts. */
  const flags = (): { of: Uint8Array; shared: boolean } => {
    const of = new Uint8Array(questions());
    let shared = false;
    for (const part of parts())
      part.forEach((question, checked, unchecked) => {
        if ((of[question]! & IN_PART) !== 0) shared = true;
        of[question] = of[question]! | IN_PART | (checked ? CHECKED : 0) | (unchecked ? UNCHECKED : 0);
      });
    return { of, shared };
  };
  const merged = <T>(maps: readonly Map<string, T>[], join: (a: T, b: T) => T): Map<string, T> => {
    const out = new Map<string, T>();
    for (const map of maps)
      for (const [key, value] of map) {
        const had = out.get(key);
        out.set(key, had === undefined ? value : join(had, value));
      }
    return out;
  };
  return {
    get repeated() {
      return parts().some((part) => part.repeated) || flags().shared;
    },
    clusters: (name) =>
      merged(
        parts().map((part) => part.clusters(name) as Map<string, readonly number[]>),
        (a, b) => [...a, ...b],
      ),
    passCounts: () =>
      merged(
        parts().map((part) => part.passCounts() as Map<string, { passed: number; tries: number }>),
        (a, b) => ({ passed: a.passed + b.passed, tries: a.tries + b.tries }),
      ),
    uncheckedQuestions() {
      let count = 0;
      for (const f of flags().of) if ((f & UNCHECKED) !== 0 && (f & CHECKED) === 0) count += 1;
      return count;
    },
    forEach(fn) {
      flags().of.forEach((f, question) => {
        if (f !== 0) fn(question, (f & CHECKED) !== 0, (f & UNCHECKED) !== 0);
      });
    },
  };
}

/**
 * @module metrics/repeats
 * Figures across repeats (`--repeat N`), per question × set × mode (and per model of a
 * multi-model set): pass@N (passed at least once), pass^N (passed every time) and flakiness (the
 * outcome or the pass differs between repeats); their rates per group and the list of flaky
 * questions. Keeps a question's tries in two typed arrays (9 bytes a try), never answers.
 */
import { z } from 'zod';
import { ModeSchema, OUTCOMES, OutcomeSchema, type Mode, type Outcome, type RequestRecord } from '../records/record.js';
import { MeanEstimateSchema } from '../records/summary.js';
import { modelPassed, recordPassed } from './pass.js';
import { proportionEstimate } from './stats.js';
import { createQuestionIndex, type QuestionIndex } from './question-index.js';
import { QuestionRows } from './question-rows.js';

/** One question's tries, in repeat order. */
export const QuestionTriesSchema = z.object({
  question_id: z.string(),
  outcomes: z.array(OutcomeSchema),
  passes: z.array(z.boolean()),
});
export type QuestionTries = z.infer<typeof QuestionTriesSchema>;

export const RepeatsGroupSchema = z.object({
  set: z.string(),
  mode: ModeSchema,
  model_index: z.number().int().nullable(),
  questions: z.number().int(),
  /** The most tries any question had (N). */
  repeats: z.number().int(),
  /** Shares of questions, with 95% Wilson intervals; null when the group has no question. */
  pass_at_n: MeanEstimateSchema.nullable(),
  pass_all_n: MeanEstimateSchema.nullable(),
  flaky_rate: MeanEstimateSchema.nullable(),
  /** Flaky questions in first-seen order, with what each try did. */
  flaky: z.array(QuestionTriesSchema),
});
export type RepeatsGroup = z.infer<typeof RepeatsGroupSchema>;

/** pass@N, pass^N and flakiness of one question's tries. No tries → nothing passed, not flaky. */
export function questionRepeatFigures(tries: Pick<QuestionTries, 'outcomes' | 'passes'>): {
  pass_at_n: boolean;
  pass_all_n: boolean;
  flaky: boolean;
} {
  const { outcomes, passes } = tries;
  return {
    pass_at_n: passes.some(Boolean),
    pass_all_n: passes.length > 0 && passes.every(Boolean),
    flaky: outcomes.some((o) => o !== outcomes[0]) || passes.some((p) => p !== passes[0]),
  };
}

export { modelPassed, recordPassed } from './pass.js';

/**
 * A question's tries as they came, each its repeat × MARKS + its mark (the outcome's index × 2 +
 * passed), as the map keeps a question's one try (below): 4 bytes a try in a Uint32Array while
 * every repeat is under MAX_PACKED_REPEAT. A repeat past it (a resumed plan of absurd size) moves
 * the tries to a repeat and a mark each (9 bytes a try). A repeat and a mark in two arrays took 9
 * bytes a try for every question, and its doubling left as much again as garbage outside the heap:
 * a million-request eval of 1,000 questions kept ~9–18 MB of them per collector (session 57); three
 * arrays of JS values had taken 24 bytes a try. The first try is kept in two numbers and the arrays
 * made at the second: a question asked once (every question of a run of distinct questions) holds
 * no array at all.
 */
class Tries {
  private packed: Uint32Array | null = null;
  private repeats: Float64Array | null = null;
  private marks: Uint8Array | null = null;
  length = 1;
  constructor(
    private readonly firstRepeat: number,
    private readonly firstMark: number,
  ) {}
  push(repeat: number, mark: number): void {
    if (this.repeats === null && isPackable(repeat) && isPackable(this.firstRepeat)) {
      if (this.packed === null || this.length === this.packed.length) {
        const packed = new Uint32Array(Math.max(4, this.length * 2));
        if (this.packed === null) packed[0] = this.firstRepeat * MARKS + this.firstMark;
        else packed.set(this.packed);
        this.packed = packed;
      }
      this.packed[this.length] = repeat * MARKS + mark;
    } else {
      if (this.repeats === null || this.length === this.repeats.length) this.widen(Math.max(4, this.length * 2));
      this.repeats![this.length] = repeat;
      this.marks![this.length] = mark;
    }
    this.length += 1;
  }
  /** Moves the tries so far to a repeat and a mark each, in arrays of `size`. */
  private widen(size: number): void {
    const repeats = new Float64Array(size);
    const marks = new Uint8Array(size);
    for (let i = 0; i < this.length; i += 1) {
      repeats[i] = this.repeatAt(i);
      marks[i] = this.markAt(i);
    }
    this.repeats = repeats;
    this.marks = marks;
    this.packed = null;
  }
  repeatAt(i: number): number {
    if (this.repeats !== null) return this.repeats[i]!;
    if (this.packed !== null) return Math.floor(this.packed[i]! / MARKS);
    return this.firstRepeat;
  }
  markAt(i: number): number {
    if (this.marks !== null) return this.marks[i]!;
    if (this.packed !== null) return this.packed[i]! % MARKS;
    return this.firstMark;
  }
}

const OUTCOME_INDEX: ReadonlyMap<Outcome, number> = new Map(OUTCOMES.map((o, i) => [o, i]));

/**
 * A question's one try as a single number (its repeat × MARKS + its mark), kept as the map's value
 * itself: a Tries object a question cost a run of distinct questions some 60 bytes a question.
 * Tries only from a question's second try (or a repeat too large for a small integer).
 */
const MARKS = 64;
const MAX_PACKED_REPEAT = 2 ** 24;
const isPackable = (repeat: number): boolean => Number.isInteger(repeat) && repeat >= 0 && repeat < MAX_PACKED_REPEAT;

interface GroupState {
  set: string;
  mode: Mode;
  model_index: number | null;
  /**
   * Its questions' rows (by the pass's question integer, metrics/question-rows: 4 bytes a question
   * where a map keyed by the id took ~35), in first-seen order, and at each row its tries as they
   * came: its one try packed, or its Tries.
   */
  rows: QuestionRows;
  came: (Tries | number)[];
}

/** A question's tries as Tries (its one packed try unpacked). */
const triesOf = (came: Tries | number): Tries =>
  typeof came === 'number' ? new Tries(Math.floor(came / MARKS), came % MARKS) : came;

/** Takes records in any order; `finish()` gives one RepeatsGroup per set × mode (and model). */
export interface RepeatsAccumulator {
  add(record: RequestRecord): void;
  finish(): RepeatsGroup[];
}

/**
 * Creates an accumulator. Groups appear in first-seen order (the whole request before its models);
 * tries are ordered by repeat, so the figures do not depend on record order. A record seen twice
 * for the same repeat keeps the last one. `ids`: the pass's question ids (metrics/question-index),
 * shared with the summarizer's.
 */
export function createRepeatsAccumulator(ids: QuestionIndex = createQuestionIndex()): RepeatsAccumulator {
  const groups = new Map<string, GroupState>();
  const observe = (record: RequestRecord, modelIndex: number | null, outcome: Outcome, passed: boolean) => {
    const key = JSON.stringify([record.set, record.mode, modelIndex]);
    let group = groups.get(key);
    if (group === undefined)
      groups.set(
        key,
        (group = { set: record.set, mode: record.mode, model_index: modelIndex, rows: new QuestionRows(), came: [] }),
      );
    const mark = OUTCOME_INDEX.get(outcome)! * 2 + (passed ? 1 : 0);
    const row = group.rows.add(ids.id(record.question_id));
    const came = group.came[row];
    if (came === undefined) {
      group.came.push(isPackable(record.repeat) ? record.repeat * MARKS + mark : new Tries(record.repeat, mark));
    } else {
      const tries = triesOf(came);
      tries.push(record.repeat, mark);
      if (tries !== came) group.came[row] = tries;
    }
  };
  return {
    add(record) {
      observe(record, null, record.outcome, recordPassed(record));
      for (const model of record.models ?? []) observe(record, model.model_index, model.outcome, modelPassed(model));
    },
    finish: () => [...groups.values()].map((group) => toRepeatsGroup(group, ids)),
  };
}

function toRepeatsGroup(group: GroupState, ids: Pick<QuestionIndex, 'at'>): RepeatsGroup {
  let passAt = 0;
  let passAll = 0;
  let repeats = 0;
  const flaky: QuestionTries[] = [];
  const questions = group.rows.questions();
  for (let row = 0; row < questions.length; row += 1) {
    const question_id = ids.at(questions[row]!);
    const came = triesOf(group.came[row]!);
    // By repeat; of a repeat seen twice, the later one.
    const latest = new Map<number, number>();
    for (let i = 0; i < came.length; i += 1) latest.set(came.repeatAt(i), i);
    const ordered = [...latest.entries()].sort(([a], [b]) => a - b).map(([, i]) => came.markAt(i));
    const tries = {
      question_id,
      outcomes: ordered.map((mark) => OUTCOMES[mark >> 1]!),
      passes: ordered.map((mark) => (mark & 1) === 1),
    };
    const figures = questionRepeatFigures(tries);
    repeats = Math.max(repeats, ordered.length);
    if (figures.pass_at_n) passAt += 1;
    if (figures.pass_all_n) passAll += 1;
    if (figures.flaky) flaky.push(tries);
  }
  const n = group.rows.size;
  return {
    set: group.set,
    mode: group.mode,
    model_index: group.model_index,
    questions: n,
    repeats,
    pass_at_n: proportionEstimate(passAt, n),
    pass_all_n: proportionEstimate(passAll, n),
    flaky_rate: proportionEstimate(flaky.length, n),
    flaky,
  };
}

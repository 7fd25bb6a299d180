/**
 * @module compare/tries
 * One question's tries as the run's data keeps them (compare/run-data): per try its repeat while
 * the records are read, and its outcome, pass, a person's verdict and its conversation's pass
 * packed in two bytes. Four arrays of JS values (8 bytes an element, more as they grew) held a
 * million-request eval's tries in ~41 MB; these hold them in 10 bytes a try while the records
 * are read and 2 once sealed. The first try is kept in two numbers and the arrays made at the
 * second: a question asked once (every question of a run of distinct questions) holds none.
 */
import { OUTCOMES, type Outcome } from '../records/record.js';

const OUTCOME_INDEX: ReadonlyMap<Outcome, number> = new Map(OUTCOMES.map((o, i) => [o, i]));
// A mark: bits 0–3 the outcome's index (OUTCOMES has fewer than 16), bit 4 passed, bits 5–6 the
// person's verdict, bits 7–8 the conversation's pass (each 0 none, 1 false, 2 true).
const PASSED = 1 << 4;
const HUMAN_SHIFT = 5;
const CONVERSATION_SHIFT = 7;
const verdictBits = (value: boolean | null): number => (value === null ? 0 : value ? 2 : 1);
const verdictOf = (bits: number): boolean | null => (bits === 0 ? null : bits === 2);

/** A try's mark: its outcome, pass and verdict (its conversation's pass comes later, setConversation). */
export function markOf(outcome: Outcome, passed: boolean, human: boolean | null): number {
  return OUTCOME_INDEX.get(outcome)! | (passed ? PASSED : 0) | (verdictBits(human) << HUMAN_SHIFT);
}

/** A question's tries in the order they were added. */
export class Tries {
  /** Repeats of the tries, until sealed (null: one try, or sealed). */
  private repeats: Float64Array | null = null;
  private marks: Uint16Array | null = null;
  private firstRepeat: number;
  private firstMark: number;
  length = 1;

  constructor(repeat: number, mark: number) {
    this.firstRepeat = repeat;
    this.firstMark = mark;
  }

  push(repeat: number, mark: number): void {
    if (this.marks === null || this.length === this.marks.length) {
      const repeats = new Float64Array(Math.max(4, this.length * 2));
      const marks = new Uint16Array(repeats.length);
      if (this.marks === null) {
        repeats[0] = this.firstRepeat;
        marks[0] = this.firstMark;
      } else {
        repeats.set(this.repeats!);
        marks.set(this.marks);
      }
      this.repeats = repeats;
      this.marks = marks;
    }
    this.repeats![this.length] = repeat;
    this.marks[this.length] = mark;
    this.length += 1;
  }

  /** Where a repeat's try is; -1 when none (or sealed). */
  indexOfRepeat(repeat: number): number {
    if (this.marks === null) return this.firstRepeat === repeat ? 0 : -1;
    if (this.repeats === null) return -1;
    for (let i = 0; i < this.length; i += 1) if (this.repeats[i] === repeat) return i;
    return -1;
  }

  /** Replaces a try's outcome, pass and verdict (a repeat seen twice: the later one wins); keeps its conversation's pass. */
  replace(at: number, mark: number): void {
    this.setMark(at, (this.markAt(at) & ~((1 << CONVERSATION_SHIFT) - 1)) | mark);
  }

  setConversation(at: number, passed: boolean): void {
    this.setMark(at, (this.markAt(at) & ((1 << CONVERSATION_SHIFT) - 1)) | (verdictBits(passed) << CONVERSATION_SHIFT));
  }

  /** Drops the repeats and the room past the last try: what QuestionData keeps. */
  seal(): void {
    this.repeats = null;
    if (this.marks !== null && this.marks.length > this.length) this.marks = this.marks.slice(0, this.length);
  }

  outcome(i: number): Outcome {
    return OUTCOMES[this.markAt(i) & 0xf]!;
  }

  passed(i: number): boolean {
    return (this.markAt(i) & PASSED) !== 0;
  }

  human(i: number): boolean | null {
    return verdictOf((this.markAt(i) >> HUMAN_SHIFT) & 3);
  }

  conversation(i: number): boolean | null {
    return verdictOf((this.markAt(i) >> CONVERSATION_SHIFT) & 3);
  }

  private markAt(i: number): number {
    return this.marks === null ? this.firstMark : this.marks[i]!;
  }

  private setMark(i: number, mark: number): void {
    if (this.marks === null) this.firstMark = mark;
    else this.marks[i] = mark;
  }
}

/** A column of the tries as an array, in try order. */
export function column<T>(tries: Tries | null, value: (tries: Tries, i: number) => T): T[] {
  if (tries === null) return [];
  const out = new Array<T>(tries.length);
  for (let i = 0; i < tries.length; i += 1) out[i] = value(tries, i);
  return out;
}

// The mark's outcome takes 4 bits.
if (OUTCOMES.length > 16) throw new Error('compare/tries: more than 16 outcomes do not fit a mark');

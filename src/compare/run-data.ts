/**
 * @module compare/run-data
 * What a comparison or a gate needs from one run, collected in one pass over its records: the
 * Summary (metrics/summarize), the repeat figures (metrics/repeats), per group the latency
 * samples of ok requests (the summarizer's own sorted values), and per question its tries, its
 * per-question score means and the first try's answer (trimmed). Pure: the app streams the records in.
 */
import { trimText } from '../reports/format.js';
import { createRepeatsAccumulator, modelPassed, recordPassed, type RepeatsGroup } from '../metrics/repeats.js';
import { modelChecked, recordChecked } from '../metrics/pass.js';
import { createSummarizer, type Summarizer } from '../metrics/summarize.js';
import { createJudgeAskCounter } from '../metrics/group-figures.js';
import type { SortedValues } from '../metrics/stats.js';
import type { AnswerFigures, Mode, Outcome, RequestRecord } from '../records/record.js';
import type { LoopDelay } from '../records/generator-health.js';
import { LATENCY_FIGURES, type Group, type LatencyFigure, type Summary } from '../records/summary.js';
import { SCORE_NAMES, figureKind, type LatencyStat } from '../figures/catalogue.js';
import type { QuestionFigures, ScoreMeans } from '../metrics/question-value.js';
import { answerKey, NO_VERDICTS, recordVerdict, type HumanVerdicts } from '../records/review.js';
import { column, markOf, Tries } from './tries.js';
import { createCodedValues, type CodedValues } from '../metrics/coded-values.js';
import { createQuestionIndex, type QuestionIndex } from '../metrics/question-index.js';
import { QuestionTable } from './question-table.js';

/** Answers kept per question for the broken/fixed lists. */
export const ANSWER_CHARS = 400;

const SCORE_SET: ReadonlySet<string> = new Set(SCORE_NAMES);

/** One question of one group. */
export interface QuestionData extends QuestionFigures {
  question: string;
  outcomes: Outcome[];
  passes: boolean[];
  /** Per-question means of the catalogue's scores and of the user's checks (metrics/question-value scoreMean). */
  scores: ScoreMeans;
  /** Per try, a person's verdict (reviews.jsonl): true pass, false fail, null not reviewed. */
  human: (boolean | null)[];
  /** The lowest repeat's answer, trimmed to ANSWER_CHARS; null when it had none. */
  answer: string | null;
  cited_document_ids: string[];
}

/** Identifies a group: a set × mode, or one model of a multi-model set × mode. */
export interface GroupKey {
  set: string;
  mode: Mode;
  model_index: number | null;
}

export const groupKeyString = (g: GroupKey): string => JSON.stringify([g.set, g.mode, g.model_index]);

export interface GroupData extends GroupKey {
  model_name: string | null;
  /** By question id, in first-seen order (compare/question-table: each question a view made when read). */
  questions: ReadonlyMap<string, QuestionData>;
  /**
   * Latencies of ok requests, ascending, as the sample kept them (4 bytes a value when each is a
   * whole number of microseconds, else 8: never the records); made doubles when resampled.
   */
  latency: Record<LatencyFigure, SortedValues>;
}

export interface RunData {
  /** Where the records came from, for messages and reports. */
  source: string;
  summary: Summary;
  repeats: RepeatsGroup[];
  groups: GroupData[];
  /** Torn last lines skipped while reading (a run that crashed mid-write). */
  torn_lines: number;
  /**
   * The run's timing uncertainty: its generator's event-loop delay (generator.json); null when not
   * measured. No latency was measured more than its max late, so a latency change within it proves nothing.
   */
  loop_delay_ms: LoopDelay | null;
  /** The user checks' figures (`--checks`) the records carry, sorted. */
  check_names: string[];
  /**
   * The run seen at one turn number of its conversations (only the records of that turn): what a
   * gate scoped `turn:N` is checked on, and compared with the baseline's same turn. Empty without
   * conversations.
   */
  turns: ReadonlyMap<number, RunData>;
}

/** One try as a question keeps it until its turn comes (see QuestionState): its figures, never its record. */
interface Try {
  repeat: number;
  outcome: Outcome;
  passed: boolean;
  human: boolean | null;
  /** The try's score and check values by name, ok tries only (finite values only). */
  values: ReadonlyMap<string, number> | null;
  /** Its answer, trimmed, or its record's line's offset in results.jsonl (see `answerAt`); null when it had none. */
  answer: string | number | null;
  cited_document_ids: string[];
  /** The judge's asks of this try, and those without a verdict (judge_error_rate). */
  judgeAsks: number;
  judgeFailed: number;
}

/**
 * One question of one group, in bounded memory. Its per-question score means sum the tries in
 * repeat order (as they always have: the same bits whatever order the records came in), so the
 * tries are taken in repeat order: a try whose repeat is the next one (0, 1, …) is folded in at
 * once — its outcome, pass and verdict appended, its values added to the running sums — and one
 * that comes early waits in `pending` until those before it have come. In a run's results.jsonl
 * the repeats of a question come nearly in order, so `pending` holds a few tries at most; the
 * rest (a repeat that never came: an interrupted run) are folded in, in order, at the end.
 *
 * A view of its row of its group's questions (compare/question-table), made when read: its
 * numbers are the table's columns, what few questions have (more tries, sums, pending tries, cited
 * ids, an answer's text) the group's lists by row.
 */
class QuestionState implements QuestionData, ScoreMeans {
  constructor(
    private readonly group: GroupQuestions,
    readonly row: number,
  ) {}

  private get columns() {
    return this.group.table.columns;
  }
  get question(): string {
    return this.group.table.texts[this.row]!;
  }
  /** The next repeat to fold in. */
  get next(): number {
    return this.columns.get('next', this.row);
  }
  set next(next: number) {
    this.columns.set('next', this.row, next);
  }
  /**
   * Its tries folded in, in repeat order: repeat, outcome, pass, verdict, conversation's pass; none
   * while it has one (its repeat firstRepeat, its mark `mark`: a question asked once, every question
   * of a run of distinct questions, holds no Tries object) or none. Read through triesRead(),
   * changed through triesKept().
   */
  private get tries(): Tries | null {
    return this.group.tries[this.row] ?? null;
  }
  /** Its one try's mark (compare/tries markOf) while it has no Tries. */
  get mark(): number {
    return this.columns.get('mark', this.row);
  }
  set mark(mark: number) {
    this.columns.set('mark', this.row, mark);
  }
  /** One of its tries was checked (metrics/pass): else its pass rate is "not checked" (null), as in the summary. */
  get checked(): boolean {
    return this.columns.get('checked', this.row) === 1;
  }
  set checked(checked: boolean) {
    this.columns.set('checked', this.row, checked ? 1 : 0);
  }
  /**
   * Once a name has a second value: per name, at 2 × its slot, the sum and the count of its values
   * over the tries folded in so far (null before). A flat list of numbers: a map of pairs cost a
   * run of a million distinct questions about 3 KB a question.
   */
  get sums(): number[] | null {
    return this.group.sums[this.row] ?? null;
  }
  set sums(sums: number[] | null) {
    setAt(this.group.sums, this.row, sums);
  }
  /** Tries that came before an earlier repeat of theirs (created when one does). */
  get pending(): Map<number, Try> | null {
    return this.group.pending[this.row] ?? null;
  }
  set pending(pending: Map<number, Try> | null) {
    setAt(this.group.pending, this.row, pending);
  }
  /** The judge's asks over the tries folded in, and those without a verdict. */
  get judgeAsks(): number {
    return this.columns.get('judgeAsks', this.row);
  }
  set judgeAsks(asks: number) {
    this.columns.set('judgeAsks', this.row, asks);
  }
  get judgeFailed(): number {
    return this.columns.get('judgeFailed', this.row);
  }
  set judgeFailed(failed: number) {
    this.columns.set('judgeFailed', this.row, failed);
  }
  /**
   * The lowest repeat folded in (-1 before the first), its answer (trimmed, or the offset of its
   * record's line, read back when asked: GroupMeans answerAt) and cited ids.
   */
  get firstRepeat(): number {
    return this.columns.get('firstRepeat', this.row);
  }
  set firstRepeat(repeat: number) {
    this.columns.set('firstRepeat', this.row, repeat);
  }
  get firstAnswer(): string | number | null {
    const offset = this.columns.get('firstAnswer', this.row);
    return Number.isNaN(offset) ? (this.group.answers[this.row] ?? null) : offset;
  }
  set firstAnswer(answer: string | number | null) {
    this.columns.set('firstAnswer', this.row, typeof answer === 'number' ? answer : Number.NaN);
    setAt(this.group.answers, this.row, typeof answer === 'string' ? answer : null);
  }
  get firstCited(): string[] {
    return this.group.cited[this.row] ?? NO_IDS;
  }
  set firstCited(cited: string[]) {
    setAt(this.group.cited, this.row, cited === NO_IDS ? null : cited);
  }

  /** Its tries, to read (its one try as a Tries of its own, not kept). */
  triesRead(): Tries | null {
    return this.tries ?? (this.firstRepeat === -1 ? null : new Tries(this.firstRepeat, this.mark));
  }
  /** Its tries, kept from now on (its one try made a Tries), to change or add to. */
  triesKept(): Tries | null {
    if (this.tries === null && this.firstRepeat !== -1)
      this.group.tries[this.row] = new Tries(this.firstRepeat, this.mark);
    return this.tries;
  }

  // As QuestionData, once finished. Each column is made as an array when read (a comparison or a
  // gate reads a question's few times), so a run's data keeps 2 bytes a try, not 32; its score
  // means are its row of the group's columns, read through itself.
  get scores(): ScoreMeans {
    return this;
  }
  get slots(): ReadonlyMap<string, number> {
    return this.group.means.slots;
  }
  mean(slot: number): number {
    return this.group.means.columns[slot]?.at(this.row) ?? Number.NaN;
  }
  get answer(): string | null {
    const first = this.firstAnswer;
    if (typeof first !== 'number') return first;
    const answer = this.group.means.answerAt!(first);
    return answer == null ? null : trimText(answer, ANSWER_CHARS);
  }
  get cited_document_ids(): string[] {
    const cited = this.firstCited;
    return cited === NO_IDS ? [] : cited;
  }
  /** Made when read (a comparison's judge_error_rate), not an object kept a question. */
  get judge(): { asks: number; failed: number } {
    return { asks: this.judgeAsks, failed: this.judgeFailed };
  }
  get outcomes(): Outcome[] {
    return column(this.triesRead(), (t, i) => t.outcome(i));
  }
  get passes(): boolean[] {
    return column(this.triesRead(), (t, i) => t.passed(i));
  }
  get human(): (boolean | null)[] {
    return column(this.triesRead(), (t, i) => t.human(i));
  }
  get conversation_passes(): (boolean | null)[] {
    return column(this.triesRead(), (t, i) => t.conversation(i));
  }
}

/**
 * A group's questions: the table (compare/question-table), its score means (GroupMeans), and what
 * few of its questions have, in lists by row (a run of distinct questions writes none of them:
 * each stays empty).
 */
interface GroupQuestions {
  readonly table: QuestionTable<QuestionState>;
  readonly means: GroupMeans;
  readonly tries: (Tries | undefined)[];
  readonly sums: (number[] | undefined)[];
  readonly pending: (Map<number, Try> | undefined)[];
  readonly cited: (string[] | undefined)[];
  readonly answers: (string | undefined)[];
}

function createGroupQuestions(ids: QuestionIndex, means: GroupMeans): GroupQuestions {
  const group: GroupQuestions = {
    table: new QuestionTable(ids, (row) => new QuestionState(group, row)),
    means,
    tries: [],
    sums: [],
    pending: [],
    cited: [],
    answers: [],
  };
  return group;
}

/** Sets `list[row]`; null clears it, without making the list longer (a list never written stays empty). */
function setAt<T>(list: (T | undefined)[], row: number, value: T | null): void {
  if (value !== null) list[row] = value;
  else if (row < list.length && list[row] !== undefined) list[row] = undefined;
}

/** A question's cited ids before its first try is folded in (never changed). */
const NO_IDS: string[] = [];

/** One conversation (× repeat) of a group: whether every turn passed so far, and its first turn's question. */
interface ConversationState {
  passed: boolean;
  first: string | undefined;
  repeat: number;
}

/**
 * A group's score and check values per question, a column per slot (metrics/coded-values: a byte a
 * value while a name has few distinct values). A list of doubles a question cost a run of distinct
 * questions some fifty numbers, 8 bytes each, and as much again for its means at the end.
 */
type ScoreColumns = (CodedValues | undefined)[];

/** Takes every record of a run, then gives its RunData. */
export interface RunCollector {
  /** `offset`: where the record's line starts in results.jsonl, for the collector's `answerAt`. */
  add(record: RequestRecord, offset?: number): void;
  finish(source: string, tornLines?: number, loopDelay?: LoopDelay | null): RunData;
}

/**
 * `verdicts`: the run's reviews (records/review), for human_pass_rate; `setOrder`: the plan's set
 * order (summarize); `byTurn` (default true) also collects the run at each turn number.
 * `summarizer`: one the caller fed the same records with the same verdicts and set order (the
 * reports' pass): its finish(), repeats() and latency() give RunData's summary, repeats and
 * latencies, and the collector keeps none of them itself (a summarizer keeps some 1.5 KB a distinct question and a repeats
 * accumulator some 260 bytes; a second of each gave the same groups).
 */
export function createRunCollector(
  options: {
    verdicts?: HumanVerdicts;
    setOrder?: readonly string[];
    byTurn?: boolean;
    summarizer?: Pick<Summarizer, 'finish' | 'repeats' | 'latency'>;
    /**
     * Reads an answer back (the request's, or a model's) from its record's line in results.jsonl, by
     * the offset `add` was given (app/store/answer-at): a question then keeps that offset, not its
     * first answer's text (~100 bytes a distinct question, up to ~420 in a real run), and only a
     * comparison that lists the question reads it.
     */
    answerAt?: (offset: number, modelIndex: number | null) => string | null;
    /** The pass's question ids (metrics/question-index), shared with the summary's: its groups' questions are found by them. */
    questionIds?: QuestionIndex;
  } = {},
): RunCollector {
  const verdicts = options.verdicts ?? NO_VERDICTS;
  // One index for the collector and its turns (their options are these, `byTurn` aside).
  options = { ...options, questionIds: options.questionIds ?? createQuestionIndex() };
  const questionIds = options.questionIds!;
  const summarizer =
    options.summarizer === undefined
      ? createSummarizer({ verdicts, ...(options.setOrder ? { setOrder: options.setOrder } : {}) })
      : null;
  const repeats = options.summarizer === undefined ? createRepeatsAccumulator() : null;
  const groups = new Map<
    string,
    {
      key: GroupKey;
      model_name: string | null;
      /** Its questions, with its score columns (GroupMeans, the run's slots) their means are read from. */
      questions: GroupQuestions;
      conversations: Map<string, ConversationState>;
    }
  >();
  const turns = new Map<number, RunCollector>();
  const checkNames = new Set<string>();
  const slots = new Map<string, number>();

  const observe = (
    record: RequestRecord,
    offset: number | undefined,
    model_index: number | null,
    model_name: string | null,
    figures: AnswerFigures,
    passed: boolean,
    human: boolean | undefined,
    checked: boolean,
  ) => {
    const key = { set: record.set, mode: record.mode, model_index };
    const id = groupKeyString(key);
    let group = groups.get(id);
    if (group === undefined)
      groups.set(
        id,
        (group = {
          key,
          model_name,
          questions: createGroupQuestions(questionIds, { slots, columns: [], answerAt: answerAtOf(model_index) }),
          conversations: new Map(),
        }),
      );
    if (model_name !== null && (group.model_name === null || model_name < group.model_name))
      group.model_name = model_name;
    const questions = group.questions;
    const question = new QuestionState(questions, questions.table.add(record.question_id, record.question));
    question.checked ||= checked;
    addTry(question, questions.means.columns, slots, {
      repeat: record.repeat,
      outcome: figures.outcome,
      passed,
      human: human ?? null,
      values: figures.outcome === 'ok' ? valuesOf(figures) : null,
      // Only a try that may still be the lowest repeat keeps its answer (the first only ever goes down).
      answer:
        figures.answer == null || (question.firstRepeat !== -1 && record.repeat > question.firstRepeat)
          ? null
          : offset !== undefined && options.answerAt !== undefined
            ? offset
            : trimText(figures.answer, ANSWER_CHARS),
      cited_document_ids: figures.cited_document_ids,
      ...judgeAsksOf(figures),
    });
    for (const name of Object.keys(figures.checks)) checkNames.add(name);
    if (record.conversation !== null) {
      const conversationKey = JSON.stringify([record.conversation, record.repeat]);
      const state = group.conversations.get(conversationKey) ?? {
        passed: true,
        first: undefined,
        repeat: record.repeat,
      };
      state.passed &&= passed;
      if (record.turn === 1) state.first = record.question_id;
      group.conversations.set(conversationKey, state);
    }
  };

  const answerAtOf = (modelIndex: number | null) => {
    const read = options.answerAt;
    return read === undefined ? undefined : (offset: number) => read(offset, modelIndex);
  };

  return {
    add(record, offset) {
      if (options.byTurn !== false && record.turn !== null) {
        let view = turns.get(record.turn);
        if (view === undefined)
          turns.set(record.turn, (view = createRunCollector({ ...options, byTurn: false, summarizer: undefined })));
        view.add(record, offset);
      }
      summarizer?.add(record);
      repeats?.add(record);
      const modelIndexes = (record.models ?? []).map((m) => m.model_index);
      observe(
        record,
        offset,
        null,
        null,
        record,
        recordPassed(record),
        recordVerdict(verdicts, record.key, modelIndexes),
        recordChecked(record),
      );
      for (const model of record.models ?? []) {
        observe(
          record,
          offset,
          model.model_index,
          model.model_name,
          model,
          modelPassed(model),
          verdicts.get(answerKey(record.key, model.model_index))?.pass,
          modelChecked(model),
        );
      }
    },
    finish(source, tornLines = 0, loopDelay = null) {
      const checks = [...checkNames].sort();
      for (const group of groups.values()) {
        const questions = group.questions;
        // Only the rows with tries pending (a list by row skips those without).
        questions.pending.forEach((_, row) =>
          foldPending(new QuestionState(questions, row), questions.means.columns, slots),
        );
        // Each conversation's verdict goes on its first turn's try, so a comparison pairs conversations.
        for (const state of group.conversations.values()) {
          const question = state.first === undefined ? undefined : questions.table.get(state.first);
          const tries = question?.triesKept();
          const at = tries?.indexOfRepeat(state.repeat) ?? -1;
          if (at !== -1) tries!.setConversation(at, state.passed);
        }
      }
      const summarized = summarizer ?? options.summarizer!;
      return {
        source,
        loop_delay_ms: loopDelay,
        summary: summarized.finish(),
        repeats: repeats?.finish() ?? options.summarizer!.repeats(),
        groups: [...groups.values()].map(({ key, model_name, questions }) => ({
          ...key,
          model_name,
          questions: questionsData(questions),
          // The summary's own sorted values (the same keys, the same ok answers): no second copy.
          latency: Object.fromEntries(LATENCY_FIGURES.map((f) => [f, summarized.latency(key, f)])) as Record<
            LatencyFigure,
            SortedValues
          >,
        })),
        torn_lines: tornLines,
        check_names: checks,
        turns: new Map(
          [...turns.entries()]
            .sort(([a], [b]) => a - b)
            .map(([turn, view]) => [turn, view.finish(`${source} (turn ${turn})`, 0, loopDelay)]),
        ),
      };
    },
  };
}

/** A try's values: every catalogue score, then each user check not named like a score (a score's name reads the score). */
function valuesOf(figures: AnswerFigures): Map<string, number> | null {
  const values = new Map<string, number>();
  if (figures.scores !== null) {
    for (const name of SCORE_NAMES) {
      const value = figures.scores[name];
      if (typeof value === 'number' && Number.isFinite(value)) values.set(name, value);
    }
  }
  for (const [name, check] of Object.entries(figures.checks)) {
    if (!SCORE_SET.has(name) && typeof check.score === 'number' && Number.isFinite(check.score))
      values.set(name, check.score);
  }
  return values.size === 0 ? null : values;
}

/** Takes a try: folded in when its repeat is the next, else kept until it is (a repeat seen twice: the later one wins). */
function addTry(q: QuestionState, columns: ScoreColumns, slots: Map<string, number>, t: Try): void {
  if (t.repeat < q.next) {
    // A repeat already folded in came again (no run writes one twice): the later try's outcome,
    // pass and verdict replace the earlier's, as they always have; its values are not added twice.
    const tries = q.triesKept();
    const at = tries?.indexOfRepeat(t.repeat) ?? -1;
    if (at !== -1) tries!.replace(at, markOf(t.outcome, t.passed, t.human));
    return;
  }
  if (t.repeat === q.next && (q.pending === null || q.pending.size === 0)) {
    fold(q, columns, slots, t);
    q.next += 1;
    return;
  }
  (q.pending ??= new Map()).set(t.repeat, t);
  for (let next = q.pending.get(q.next); next !== undefined; next = q.pending.get(q.next)) {
    q.pending.delete(q.next);
    fold(q, columns, slots, next);
    q.next += 1;
  }
}

/** Folds in the tries still waiting (their earlier repeats never came), in repeat order. */
function foldPending(q: QuestionState, columns: ScoreColumns, slots: Map<string, number>): void {
  if (q.pending === null) return;
  for (const t of [...q.pending.values()].sort((a, b) => a.repeat - b.repeat)) fold(q, columns, slots, t);
  q.pending = null;
}

function judgeAsksOf(figures: AnswerFigures): { judgeAsks: number; judgeFailed: number } {
  const judge = createJudgeAskCounter();
  judge.add(figures.judge);
  const asked = judge.figures();
  return { judgeAsks: asked.judge_asks, judgeFailed: asked.judge_failed_asks };
}

function fold(q: QuestionState, columns: ScoreColumns, slots: Map<string, number>, t: Try): void {
  q.judgeAsks += t.judgeAsks;
  q.judgeFailed += t.judgeFailed;
  const mark = markOf(t.outcome, t.passed, t.human);
  if (q.firstRepeat === -1)
    q.mark = mark; // its first try: kept as two numbers
  else q.triesKept()!.push(t.repeat, mark);
  if (q.firstRepeat === -1 || t.repeat < q.firstRepeat) {
    q.firstRepeat = t.repeat;
    q.firstAnswer = t.answer;
    // None cited: the one shared empty list, not the record's own (32 bytes a question).
    q.firstCited = t.cited_document_ids.length === 0 ? NO_IDS : t.cited_document_ids;
  }
  for (const [name, value] of t.values ?? []) {
    let slot = slots.get(name);
    if (slot === undefined) slots.set(name, (slot = slots.size));
    if (q.sums === null) {
      const column = (columns[slot] ??= createCodedValues());
      if (Number.isNaN(column.at(q.row))) {
        column.set(q.row, value);
        continue;
      }
      q.sums = sumsOf(columns, q.row);
    }
    // Sized to every name seen so far at once: pushed a number at a time, its room grew past the
    // numbers a question of some fifty figures needs (131 for 100: 250 bytes more).
    if (q.sums.length <= 2 * slot + 1) q.sums = resized(q.sums, 2 * slots.size, 0);
    const n = q.sums[2 * slot + 1]!;
    q.sums[2 * slot] = n === 0 ? value : q.sums[2 * slot]! + value;
    q.sums[2 * slot + 1] = n + 1;
  }
}

/**
 * A group's questions as QuestionData, their score means in the group's columns: a question asked
 * once keeps its values there as its means (the same bits as the sum of one value over a count of
 * 1), one with sums has its row written over with their means. The table is the data: the same
 * columns, no object kept a question.
 */
function questionsData(questions: GroupQuestions): ReadonlyMap<string, QuestionData> {
  const { slots, columns } = questions.means;
  const width = slots.size;
  questions.tries.forEach((tries) => tries?.seal());
  questions.sums.forEach((sums, row) => {
    if (sums === undefined) return;
    for (let slot = 0; slot < width; slot++) {
      const n = sums[2 * slot + 1] ?? 0;
      const mean = n > 0 ? sums[2 * slot]! / n : Number.NaN;
      if (columns[slot] !== undefined || !Number.isNaN(mean)) (columns[slot] ??= createCodedValues()).set(row, mean);
    }
  });
  return questions.table;
}

/** `list` with `length` numbers, those past its own `fill`. */
function resized(list: readonly number[], length: number, fill: number): number[] {
  const next = new Array<number>(length).fill(fill);
  for (let i = 0; i < list.length; i++) next[i] = list[i]!;
  return next;
}

/** A question's one value per name (its row of `columns`) as sums and counts (a count of 1, or 0 where it has none). */
function sumsOf(columns: ScoreColumns, row: number): number[] {
  const sums = new Array<number>(2 * columns.length).fill(0);
  columns.forEach((column, slot) => {
    const value = column?.at(row) ?? Number.NaN;
    if (!Number.isNaN(value)) {
      sums[2 * slot] = value;
      sums[2 * slot + 1] = 1;
    }
  });
  return sums;
}

/**
 * A group's means: its columns by the run's slots, each question's at its row; and where its
 * questions' answers are read back from (the collector's answerAt, for the group's model).
 */
interface GroupMeans {
  readonly slots: ReadonlyMap<string, number>;
  readonly columns: ScoreColumns;
  readonly answerAt?: ((offset: number) => string | null) | undefined;
}

/** The summary group and repeat figures of a key; undefined when the run has no such group. */
export function findGroup(
  run: RunData,
  key: GroupKey,
): { group: Group; data: GroupData; repeats: RepeatsGroup | undefined } | undefined {
  const same = (g: GroupKey) => g.set === key.set && g.mode === key.mode && g.model_index === key.model_index;
  const group = run.summary.groups.find(same);
  const data = run.groups.find(same);
  if (group === undefined || data === undefined) return undefined;
  return { group, data, repeats: run.repeats.find(same) };
}

/**
 * A group's value of a figure, as the summary reports it: a score's mean over ok requests, a rate
 * over all requests, a repeat figure over questions, a latency statistic over ok requests.
 * null when the figure does not exist (nothing had it, or a latency figure without a statistic).
 */
export function groupValue(run: RunData, key: GroupKey, figure: string, stat?: LatencyStat): number | null {
  const found = findGroup(run, key);
  if (found === undefined) return null;
  const { group, repeats } = found;
  const share = (count: number) => (group.requests === 0 ? null : count / group.requests);
  const o = group.outcomes;
  switch (figure) {
    case 'pass_rate':
      return group.pass_rate?.mean ?? null;
    case 'human_pass_rate':
      return group.human_pass_rate?.mean ?? null;
    case 'conversation_pass_rate':
      return group.conversations?.pass_rate?.mean ?? null;
    case 'ok_rate':
      return share(o.ok);
    case 'rate_limited_rate':
      return share(o.rate_limited);
    case 'error_rate':
      return share(group.requests - o.ok - o.rate_limited - (o.skipped ?? 0));
    case 'judge_error_rate':
      return group.judge_error_rate ?? null;
    case 'answer_gap_ms':
      // The ITL: pooled over the group's answer gaps (figures/catalogue POOLED_FIGURES).
      return stat === undefined ? null : (group.answer_gap_ms?.[stat] ?? null);
    case 'pass_at_n':
    case 'pass_all_n':
    case 'flaky_rate':
      return repeats?.[figure]?.mean ?? null;
  }
  if (figureKind(figure) === 'latency') {
    if (stat === undefined) return null;
    return group.latency[figure as LatencyFigure]?.[stat] ?? null;
  }
  return group.scores[figure]?.mean ?? null;
}

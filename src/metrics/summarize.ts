/**
 * @module metrics/summarize
 * Builds summary.json from the records, one at a time (issue 3 §5). Streaming: per group it keeps
 * only numbers (group-figures.ts), never answers, so a 20,000-request run stays small, and
 * `chatbench report DIR` rebuilds the same summary from results.jsonl alone.
 */
import { ModeSchema, type Mode, type ModelFigures, type RequestRecord } from '../records/record.js';
import {
  emptyOutcomeCounts,
  SUMMARY_VERSION,
  type Group,
  type LatencyFigure,
  type RepeatFigures,
  type Summary,
} from '../records/summary.js';
import { SortedValues } from './stats.js';
import { createRepeatsAccumulator, type RepeatsGroup } from './repeats.js';
import type { LoopDelay } from '../records/generator-health.js';
import { bannerLines, judgeBanner, uncheckedBanner } from './banner.js';
import { createProtocolTally } from './protocol-alarm.js';
import type { Label } from '../records/labels.js';
import type { JudgeFigure } from '../records/quality.js';
import {
  createFigureAccumulator,
  createJudgeAskCounter,
  type FigureAccumulator,
  type Observation,
} from './group-figures.js';
import { createAgreementAccumulator } from './judge-agreement.js';
import { createConversationAccumulator, type ConversationAccumulator } from './conversations.js';
import { modelChecked, modelPassed, recordChecked, recordPassed } from './pass.js';
import { answerKey, NO_VERDICTS, recordVerdict, type HumanVerdicts } from '../records/review.js';
import { createQuestionIndex, type QuestionIndex } from './question-index.js';
import { bytesHolding } from '../util/bytes-holding.js';

/** A group's values of a figure none of its answers had. */
const NO_VALUES = SortedValues.of(new Uint32Array(0), true);

/** A question's state in the summarizer's checkedOf: none of its records seen yet, seen, one of its answers checked. */
const UNSEEN = 0;
const SEEN = 1;
const CHECKED = 2;

/** The category key of records whose category is null. */
export const UNCATEGORISED = 'uncategorised';

/** Takes every record of a run, then gives its Summary. */
export interface Summarizer {
  add(record: RequestRecord): void;
  finish(): Summary;
  /** The repeat figures of every group (metrics/repeats), those finish() reads, computed once. */
  repeats(): RepeatsGroup[];
  /**
   * A group's values of a latency figure over its ok answers, ascending (metrics/group-figures
   * sortedLatency): the ones its summary figures are computed from, the same object every call, so
   * the run's data and report.html's CDFs keep no copy of their own. Empty for a group with none.
   * No ok record may be added after it (nor after finish()).
   */
  latency(group: { set: string; mode: Mode; model_index: number | null }, figure: LatencyFigure): SortedValues;
}

interface GroupState {
  set: string;
  mode: Mode;
  model_index: number | null;
  /** The smallest non-null name seen, so that the choice does not depend on record order. */
  model_name: string | null;
  all: FigureAccumulator;
  byCategory: Map<string, FigureAccumulator>;
  byTurn: Map<number, FigureAccumulator>;
  conversations: ConversationAccumulator;
}

/**
 * Creates a summarizer. Groups:
 * - one per set × mode (model_index null) over the whole requests;
 * - for multi-model records, one more per model (`models[]` entry: model_index, model_name), over
 *   that model's figures (its outcome, latencies, scores; headers_ms is the request's);
 * each with `by_category` (category null → "uncategorised"), keys sorted, "uncategorised" last,
 * and for conversation turns `by_turn` (by turn number) and `conversations` (metrics/conversations).
 * Outcome counts cover all requests; latencies and score means only ok ones (scores where not N/A);
 * pass_rate covers all requests (a failed request does not pass). A request passes by its record
 * `scores.pass`; a multi-model record whose record-level scores are null passes when every model
 * does. `no_expectation` counts requests with no expected documents.
 *
 * `banner` (metrics/banner) says how many requests failed by class and, with `loopDelay` (the
 * run's generator.json), whether timings may be late; `timing` carries that loop delay.
 *
 * Order: groups by set — in `setOrder` (the plan's, from the manifest) when given, else first
 * seen — then stream before full, then model_index (the whole request first); `run.sets` likewise.
 * With `setOrder`, nothing depends on the order of the records (same records in any order → the
 * same summary, to the bit); without it, only the set order does.
 *
 * `verdicts` (reviews.jsonl, records/review) give each group a `human_pass_rate` over the answers
 * a person reviewed; a multi-model request counts by records/review recordVerdict.
 */
export interface SummarizerOptions {
  setOrder?: readonly string[];
  /**
   * The pass's question ids (metrics/question-index), interned once for the summary's questions,
   * its groups and the repeats: one the caller shares with the reports' own (reports/report-input).
   */
  questionIds?: QuestionIndex;
  /** Human verdicts of reviews.jsonl (records/review), for human_pass_rate. */
  verdicts?: HumanVerdicts;
  /** The run's event-loop delay (generator.json), for the banner's timing uncertainty. */
  loopDelay?: LoopDelay | null;
  /**
   * Fills summary.quality: the pass rule in words (from the run's manifest), the human labels beside
   * the records' own human_verdict, and each judged figure's seeded bootstrap stream. Without it
   * (a baseline, a comparison) quality is null.
   */
  quality?: {
    passRule: string;
    labels: readonly Label[];
    reviews?: HumanVerdicts;
    randomFor: (figure: JudgeFigure) => () => number;
  };
}

export function createSummarizer(options: SummarizerOptions = {}): Summarizer {
  const verdicts = options.verdicts ?? NO_VERDICTS;
  const groups = new Map<string, GroupState>();
  const sets: string[] = [];
  /**
   * Every question (`ids`: the summary's questions are those of the pass's ids it was given, as
   * integers) and whether one of its answers was checked (metrics/pass recordChecked): the others
   * are "not checked". A byte a question by its integer, not a map entry keyed by its id (~35).
   */
  const ids = options.questionIds ?? createQuestionIndex();
  let checkedOf = new Uint8Array(1024);
  let questions = 0;
  let checkedQuestions = 0;
  const outcomes = emptyOutcomeCounts();
  let requests = 0;
  const protocol = createProtocolTally();
  let firstSentMs = Infinity;
  let lastDoneMs = -Infinity;
  const agreement = options.quality
    ? createAgreementAccumulator(options.quality.labels, options.quality.randomFor, options.quality.reviews)
    : undefined;
  /** The judge the records name (the smallest, so record order does not matter), its most asks, the check names. */
  let judge: { model: string; prompt_version: string; repeat: number } | null = null;
  const judgeAsks = createJudgeAskCounter();
  const repeats = createRepeatsAccumulator(ids);
  let repeatGroups: RepeatsGroup[] | undefined;
  const finishRepeats = (): RepeatsGroup[] => (repeatGroups ??= repeats.finish());
  const setModels = new Map<string, { asked: string[]; answered: Set<string> }>();
  const checkNames = new Set<string>();
  const noteQuality = (figures: Pick<ModelFigures, 'judge' | 'checks'>) => {
    judgeAsks.add(figures.judge);
    for (const name of Object.keys(figures.checks)) checkNames.add(name);
    const j = figures.judge;
    if (j === null) return;
    const asks = Math.max(0, ...Object.values(j.verdicts).map((v) => v?.asks.length ?? 0));
    if (
      judge === null ||
      JSON.stringify([j.model, j.prompt_version]) < JSON.stringify([judge.model, judge.prompt_version])
    ) {
      judge = { model: j.model, prompt_version: j.prompt_version, repeat: Math.max(asks, judge?.repeat ?? 0) };
    } else judge.repeat = Math.max(judge.repeat, asks);
  };

  const groupOf = (record: RequestRecord, model: ModelFigures | null): GroupState => {
    const modelIndex = model?.model_index ?? null;
    const key = JSON.stringify([record.set, record.mode, modelIndex]);
    let group = groups.get(key);
    if (group === undefined) {
      const byCategory = new Map<string, FigureAccumulator>();
      group = {
        set: record.set,
        mode: record.mode,
        model_index: modelIndex,
        model_name: null,
        // Every observation of the group goes to one of its categories too: their samples are its.
        all: createFigureAccumulator({ ids, parts: () => [...byCategory.values()] }),
        byCategory,
        byTurn: new Map(),
        conversations: createConversationAccumulator(),
      };
      groups.set(key, group);
    }
    const name = model?.model_name ?? null;
    if (name !== null && (group.model_name === null || name < group.model_name)) group.model_name = name;
    return group;
  };

  const observe = (group: GroupState, category: string, observation: Observation, record: RequestRecord) => {
    group.all.add(observation);
    let byCategory = group.byCategory.get(category);
    if (byCategory === undefined) group.byCategory.set(category, (byCategory = createFigureAccumulator({ ids })));
    byCategory.add(observation);
    if (record.conversation === null || record.turn === null) return;
    let byTurn = group.byTurn.get(record.turn);
    if (byTurn === undefined) group.byTurn.set(record.turn, (byTurn = createFigureAccumulator({ ids })));
    byTurn.add(observation);
    group.conversations.add({
      conversation: record.conversation,
      repeat: record.repeat,
      passed: observation.passed,
      skipped: record.outcome === 'skipped',
    });
  };

  return {
    add(record) {
      requests += 1;
      outcomes[record.outcome] += 1;
      protocol.add(record);
      const question = ids.id(record.question_id);
      checkedOf = bytesHolding(checkedOf, question);
      if (checkedOf[question] === UNSEEN) {
        questions += 1;
        checkedOf[question] = SEEN;
      }
      if (checkedOf[question] !== CHECKED && recordChecked(record)) {
        checkedOf[question] = CHECKED;
        checkedQuestions += 1;
      }
      if (!sets.includes(record.set)) sets.push(record.set);
      const sentMs = Date.parse(record.started_at);
      if (Number.isFinite(sentMs)) {
        firstSentMs = Math.min(firstSentMs, sentMs);
        lastDoneMs = Math.max(lastDoneMs, sentMs + (record.total_ms ?? 0));
      }
      const category = record.category ?? UNCATEGORISED;
      const expects = record.expected_document_ids.length > 0;
      const base = { headers_ms: record.headers_ms, expects_documents: expects, question };
      const modelIndexes = (record.models ?? []).map((m) => m.model_index);
      observe(
        groupOf(record, null),
        category,
        {
          ...base,
          figures: record,
          passed: recordPassed(record),
          checked: recordChecked(record),
          human: recordVerdict(verdicts, record.key, modelIndexes),
        },
        record,
      );
      noteQuality(record);
      for (const model of record.models ?? []) {
        const human = verdicts.get(answerKey(record.key, model.model_index))?.pass;
        observe(
          groupOf(record, model),
          category,
          { ...base, figures: model, passed: modelPassed(model), checked: modelChecked(model), human },
          record,
        );
        noteQuality(model);
      }
      agreement?.add(record);
      repeats.add(record);
      if (record.model_asked !== undefined) {
        let models = setModels.get(record.set);
        if (models === undefined)
          setModels.set(record.set, (models = { asked: record.model_asked, answered: new Set() }));
        for (const name of record.model_answered ?? []) models.answered.add(name);
      }
    },
    latency(group, figure) {
      return (
        groups.get(JSON.stringify([group.set, group.mode, group.model_index]))?.all.sortedLatency(figure) ?? NO_VALUES
      );
    },
    finish() {
      const hasTimes = Number.isFinite(firstSentMs);
      const order = options.setOrder ?? [];
      const orderedSets = [...order.filter((s) => sets.includes(s)), ...sets.filter((s) => !order.includes(s))];
      const loopDelay = options.loopDelay ?? null;
      const repeatGroups = finishRepeats();
      return {
        summary_version: SUMMARY_VERSION,
        banner: [
          ...bannerLines(requests, outcomes, loopDelay, protocol.line()),
          ...[judgeBanner(judgeAsks.figures()), uncheckedBanner(questions - checkedQuestions, questions)].filter(
            (line) => line !== null,
          ),
        ],
        timing: loopDelay === null ? null : { loop_delay_ms: loopDelay },
        run: {
          started_at: hasTimes ? new Date(firstSentMs).toISOString() : null,
          finished_at: hasTimes ? new Date(lastDoneMs).toISOString() : null,
          duration_s: hasTimes ? (lastDoneMs - firstSentMs) / 1000 : null,
          requests,
          questions,
          sets: orderedSets,
          outcomes: { ...outcomes },
          ...judgeAsks.figures(),
        },
        groups: [...groups.values()]
          .sort(groupOrder(orderedSets))
          .map((g) => toGroup(g, repeatsOf(repeatGroups, g), hasTimes ? (lastDoneMs - firstSentMs) / 1000 : null)),
        models: orderedSets.flatMap((set) => {
          const m = setModels.get(set);
          return m === undefined ? [] : [{ set, asked: m.asked, answered: [...m.answered].sort() }];
        }),
        quality: options.quality
          ? { pass_rule: options.quality.passRule, judge, checks: [...checkNames].sort(), ...agreement!.finish() }
          : null,
      };
    },
    repeats: finishRepeats,
  };
}

const MODE_ORDER = ModeSchema.options;

function groupOrder(sets: readonly string[]) {
  return (a: GroupState, b: GroupState) =>
    sets.indexOf(a.set) - sets.indexOf(b.set) ||
    MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode) ||
    (a.model_index ?? -1) - (b.model_index ?? -1);
}

function compareCategories(a: string, b: string): number {
  if (a === b) return 0;
  if (a === UNCATEGORISED) return 1;
  if (b === UNCATEGORISED) return -1;
  return a < b ? -1 : 1;
}

/** A group's repeat figures; null when none of its questions was asked more than once. */
function repeatsOf(all: readonly RepeatsGroup[], g: GroupState): RepeatFigures | null {
  const r = all.find((x) => x.set === g.set && x.mode === g.mode && x.model_index === g.model_index);
  if (r === undefined || r.repeats < 2) return null;
  return {
    questions: r.questions,
    repeats: r.repeats,
    pass_at_n: r.pass_at_n,
    pass_all_n: r.pass_all_n,
    flaky_rate: r.flaky_rate,
  };
}

/** `durationS`: the run's, the window of each group's output token throughput (vLLM's benchmark duration). */
function toGroup(group: GroupState, repeatFigures: RepeatFigures | null, durationS: number | null): Group {
  const categories = [...group.byCategory.entries()].sort(([a], [b]) => compareCategories(a, b));
  return {
    set: group.set,
    mode: group.mode,
    model_index: group.model_index,
    model_name: group.model_name,
    ...group.all.figures(durationS),
    by_category: Object.fromEntries(categories.map(([category, figures]) => [category, figures.figures(durationS)])),
    by_turn: Object.fromEntries(
      [...group.byTurn.entries()]
        .sort(([a], [b]) => a - b)
        .map(([turn, figures]) => [String(turn), figures.figures(durationS)]),
    ),
    conversations: group.conversations.figures(),
    repeats: repeatFigures,
  };
}

/**
 * @module metrics/summarize
 * Builds summary.json from the records, one at a time (issue 3 §5). Streaming: per group it keeps
 * only numbers (group-figures.ts), never answers, so a 20,000-request run stays small, and
 * `chatbench report DIR` rebuilds the same summary from results.jsonl alone.
 */
import { ModeSchema, type Mode, type ModelFigures, type RequestRecord } from '../records/record.js';
import { emptyOutcomeCounts, SUMMARY_VERSION, type Group, type Summary } from '../records/summary.js';
import type { LoopDelay } from '../records/generator-health.js';
import { bannerLines } from './banner.js';
import { createFigureAccumulator, type FigureAccumulator, type Observation } from './group-figures.js';
import { modelPassed, recordPassed } from './pass.js';
import { answerKey, NO_VERDICTS, recordVerdict, type HumanVerdicts } from '../records/review.js';

/** The category key of records whose category is null. */
export const UNCATEGORISED = 'uncategorised';

/** Takes every record of a run, then gives its Summary. */
export interface Summarizer {
  add(record: RequestRecord): void;
  finish(): Summary;
}

interface GroupState {
  set: string;
  mode: Mode;
  model_index: number | null;
  /** The smallest non-null name seen, so that the choice does not depend on record order. */
  model_name: string | null;
  all: FigureAccumulator;
  byCategory: Map<string, FigureAccumulator>;
}

/**
 * Creates a summarizer. Groups:
 * - one per set × mode (model_index null) over the whole requests;
 * - for multi-model records, one more per model (`models[]` entry: model_index, model_name), over
 *   that model's figures (its outcome, latencies, scores; headers_ms is the request's);
 * each with `by_category` (category null → "uncategorised"), keys sorted, "uncategorised" last.
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
export function createSummarizer(options: { setOrder?: readonly string[]; verdicts?: HumanVerdicts; loopDelay?: LoopDelay | null } = {}): Summarizer {
  const verdicts = options.verdicts ?? NO_VERDICTS;
  const groups = new Map<string, GroupState>();
  const sets: string[] = [];
  const questions = new Set<string>();
  const outcomes = emptyOutcomeCounts();
  let requests = 0;
  let firstSentMs = Infinity;
  let lastDoneMs = -Infinity;

  const groupOf = (record: RequestRecord, model: ModelFigures | null): GroupState => {
    const modelIndex = model?.model_index ?? null;
    const key = JSON.stringify([record.set, record.mode, modelIndex]);
    let group = groups.get(key);
    if (group === undefined) {
      group = { set: record.set, mode: record.mode, model_index: modelIndex, model_name: null, all: createFigureAccumulator(), byCategory: new Map() };
      groups.set(key, group);
    }
    const name = model?.model_name ?? null;
    if (name !== null && (group.model_name === null || name < group.model_name)) group.model_name = name;
    return group;
  };

  const observe = (group: GroupState, category: string, observation: Observation) => {
    group.all.add(observation);
    let byCategory = group.byCategory.get(category);
    if (byCategory === undefined) group.byCategory.set(category, (byCategory = createFigureAccumulator()));
    byCategory.add(observation);
  };

  return {
    add(record) {
      requests += 1;
      outcomes[record.outcome] += 1;
      questions.add(record.question_id);
      if (!sets.includes(record.set)) sets.push(record.set);
      const sentMs = Date.parse(record.started_at);
      if (Number.isFinite(sentMs)) {
        firstSentMs = Math.min(firstSentMs, sentMs);
        lastDoneMs = Math.max(lastDoneMs, sentMs + (record.total_ms ?? 0));
      }
      const category = record.category ?? UNCATEGORISED;
      const expects = record.expected_document_ids.length > 0;
      const base = { headers_ms: record.headers_ms, expects_documents: expects };
      const modelIndexes = (record.models ?? []).map((m) => m.model_index);
      observe(groupOf(record, null), category, { ...base, figures: record, passed: recordPassed(record), human: recordVerdict(verdicts, record.key, modelIndexes) });
      for (const model of record.models ?? []) {
        const human = verdicts.get(answerKey(record.key, model.model_index))?.pass;
        observe(groupOf(record, model), category, { ...base, figures: model, passed: modelPassed(model), human });
      }
    },
    finish() {
      const hasTimes = Number.isFinite(firstSentMs);
      const order = options.setOrder ?? [];
      const orderedSets = [...order.filter((s) => sets.includes(s)), ...sets.filter((s) => !order.includes(s))];
      const loopDelay = options.loopDelay ?? null;
      return {
        summary_version: SUMMARY_VERSION,
        banner: bannerLines(requests, outcomes, loopDelay),
        timing: loopDelay === null ? null : { loop_delay_ms: loopDelay },
        run: {
          started_at: hasTimes ? new Date(firstSentMs).toISOString() : null,
          finished_at: hasTimes ? new Date(lastDoneMs).toISOString() : null,
          duration_s: hasTimes ? (lastDoneMs - firstSentMs) / 1000 : null,
          requests,
          questions: questions.size,
          sets: orderedSets,
          outcomes: { ...outcomes },
        },
        groups: [...groups.values()].sort(groupOrder(orderedSets)).map(toGroup),
      };
    },
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

function toGroup(group: GroupState): Group {
  const categories = [...group.byCategory.entries()].sort(([a], [b]) => compareCategories(a, b));
  return {
    set: group.set,
    mode: group.mode,
    model_index: group.model_index,
    model_name: group.model_name,
    ...group.all.figures(),
    by_category: Object.fromEntries(categories.map(([category, figures]) => [category, figures.figures()])),
  };
}

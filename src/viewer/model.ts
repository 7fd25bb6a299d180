/**
 * @module viewer/model
 * Builds the viewer's ViewData from runs' records, with the code the reports and compare use: the
 * RunCollector (compare/run-data: summary, repeats, per-question data), groupValue and
 * questionValue for every figure, the catalogue for names, kinds and directions, compareRuns for
 * the baseline. New figures of the catalogue appear here with no change. Pure: the app streams the
 * records in.
 */
import type { Verdict as RunVerdict } from '../verdict/index.js';
import { minSamplesJson, minSamplesOf } from '../figures/min-samples.js';
import {
  createRunCollector,
  groupKeyString,
  groupValue,
  type GroupData,
  type GroupKey,
  type RunData,
} from '../compare/run-data.js';
import type { Comparison } from '../compare/schema.js';
import { shownFigures } from '../compare/table.js';
import {
  FIGURE_NAMES,
  HEADLINE_FIGURES,
  HEADLINE_LATENCY,
  LATENCY_STATS,
  REPEAT_FIGURES,
  REVIEW_FIGURES,
  figureKind,
  higherIsBetter,
  isPooledFigure,
  type LatencyStat,
} from '../figures/catalogue.js';
import { gateTargets } from '../gates/evaluate.js';
import { modelPassed, recordPassed } from '../metrics/pass.js';
import { questionValue } from '../metrics/question-value.js';
import { proportionEstimate } from '../metrics/stats.js';
import {
  ModeSchema,
  ModelFiguresSchema,
  RequestRecordSchema,
  type AnswerFigures,
  type RequestRecord,
} from '../records/record.js';
import { answerKey, NO_VERDICTS, recordVerdict, type HumanVerdicts } from '../records/review.js';
import { LATENCY_FIGURES, type LatencyFigure } from '../records/summary.js';
import { sampleValue } from '../figures/catalogue.js';
import { cellState } from '../reports/cell-state.js';
import { naturalCompare, trimText } from '../reports/format.js';
import {
  VIEW_DATA_VERSION,
  type ViewCell,
  type ViewChange,
  type ViewColumn,
  type ViewData,
  type ViewEstimate,
  type ViewFigure,
  type ViewQuestion,
  type ViewRun,
} from './view-data.js';

/** Default of how much of each answer the questions list keeps for search and preview. */

/**
 * Answer-quality fields (issue 14) the question page shows with the extra fields: the judge's
 * verdicts (a line per figure, ui/judge), the user's checks, the reference answer and the rubric
 * (as they are).
 */
const SHOWN_AS_IS: ReadonlySet<string> = new Set(['judge', 'checks', 'reference_answer', 'rubric']);

export const ANSWER_CHARS = 1000;

interface Try {
  outcome: AnswerFigures['outcome'];
  passed: boolean;
  human: boolean | undefined;
  latency: Record<LatencyFigure, number | null>;
  answer: string | null;
}

interface QuestionMeta {
  question: string;
  category: string | null;
  expected: string[];
  conversation: string | null;
  turn: number | null;
}

/** One run's records, collected: the RunCollector's data plus what the viewer shows per cell. */
export interface CollectedRun {
  readonly data: RunData;
  /** Group key string → question id → repeat → try. */
  readonly tries: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<number, Try>>>;
  readonly questions: ReadonlyMap<string, QuestionMeta>;
}

export interface ViewCollector {
  add(record: RequestRecord): void;
  /** `data`: the run's data collected by the caller (with `sharedRun`), else this collector's own. */
  finish(source: string, tornLines?: number, data?: RunData): CollectedRun;
}

/** Collects one run; `verdicts` are its reviews, `setOrder` the plan's set order (manifest). */
export function createViewCollector(
  options: {
    verdicts?: HumanVerdicts;
    setOrder?: readonly string[] | undefined;
    /** The caller collects the run's data from the same records and gives it to finish(): none is collected here. */
    sharedRun?: boolean;
  } = {},
): ViewCollector {
  const verdicts = options.verdicts ?? NO_VERDICTS;
  const run =
    options.sharedRun === true
      ? null
      : createRunCollector({ verdicts, ...(options.setOrder ? { setOrder: options.setOrder } : {}) });
  const tries = new Map<string, Map<string, Map<number, Try>>>();
  const questions = new Map<string, QuestionMeta>();
  const observe = (
    record: RequestRecord,
    modelIndex: number | null,
    figures: AnswerFigures,
    passed: boolean,
    human: boolean | undefined,
  ) => {
    const id = groupKeyString({ set: record.set, mode: record.mode, model_index: modelIndex });
    let group = tries.get(id);
    if (group === undefined) tries.set(id, (group = new Map()));
    let question = group.get(record.question_id);
    if (question === undefined) group.set(record.question_id, (question = new Map()));
    const latency = Object.fromEntries(
      LATENCY_FIGURES.map((f) => [f, sampleValue(f, figures, record.headers_ms)]),
    ) as Record<LatencyFigure, number | null>;
    question.set(record.repeat, { outcome: figures.outcome, passed, human, latency, answer: figures.answer });
  };
  return {
    add(record) {
      run?.add(record);
      if (!questions.has(record.question_id)) {
        questions.set(record.question_id, {
          question: record.question,
          category: record.category,
          expected: [...record.expected_document_ids],
          conversation: record.conversation,
          turn: record.turn,
        });
      }
      const modelIndexes = (record.models ?? []).map((m) => m.model_index);
      observe(record, null, record, recordPassed(record), recordVerdict(verdicts, record.key, modelIndexes));
      for (const m of record.models ?? [])
        observe(record, m.model_index, m, modelPassed(m), verdicts.get(answerKey(record.key, m.model_index))?.pass);
    },
    finish(source, tornLines = 0, data) {
      const own = data ?? run?.finish(source, tornLines);
      if (own === undefined) throw new Error('a view collector with sharedRun needs the run data at finish');
      return { data: own, tries, questions };
    },
  };
}

/** A run for buildViewData: its collected records and what the app knows of it. */
export interface ViewRunInput {
  readonly name: string;
  readonly source: string;
  readonly collected: CollectedRun;
  readonly reviews: number;
  /** Against the baseline (compareRuns), when one was given. */
  readonly comparison: Comparison | null;
  /** The run's verdict.json, when it has one. */
  readonly verdict?: RunVerdict | null;
}

export interface ViewDataOptions {
  readonly runs: readonly ViewRunInput[];
  readonly baseline?: ViewRunInput | null;
  readonly mode: ViewData['mode'];
  readonly reviewer?: string | null;
  readonly generatedBy: string;
  readonly answerChars?: number;
  readonly details: ViewData['details'];
}

const MODES = ModeSchema.options;
/** Latency statistics the overview shows. */
const OVERVIEW_STATS: readonly LatencyStat[] = LATENCY_STATS;
const HEADLINE: ReadonlySet<string> = new Set<string>([...HEADLINE_FIGURES, ...HEADLINE_LATENCY, ...REVIEW_FIGURES]);
const REPEATS: ReadonlySet<string> = new Set<string>(REPEAT_FIGURES);

/** Four significant digits: plenty for a colour or a sort, and the questions list stays small. */
const compact = (value: number | null): number | null =>
  value === null || !Number.isFinite(value) ? null : Number(value.toPrecision(4));

/** The columns of a run: gate targets (per model for multi-model sets), in set order, stream first, models by index. */
function runColumns(data: RunData): GroupData[] {
  const sets = data.summary.run.sets;
  return [...gateTargets(data)].sort(
    (a, b) =>
      sets.indexOf(a.set) - sets.indexOf(b.set) ||
      MODES.indexOf(a.mode) - MODES.indexOf(b.mode) ||
      (a.model_index ?? -1) - (b.model_index ?? -1),
  );
}

/** A figure by its name (`ttfp_ms.p95` or `citation_recall`); a latency figure without a statistic heads when one of its statistics does. */
function figureOf(name: string, repeats: boolean): ViewFigure | undefined {
  const [base = name] = name.split('.');
  const kind = figureKind(base);
  if (kind === undefined) return undefined;
  const headline =
    HEADLINE.has(name) ||
    (repeats && REPEATS.has(name)) ||
    (kind === 'latency' && base === name && HEADLINE_LATENCY.some((h) => h.startsWith(`${base}.`)));
  return {
    name,
    base,
    kind,
    higher_is_better: higherIsBetter(name),
    headline,
    min_n: minSamplesJson(minSamplesOf(name)),
  };
}

/** Every figure of the catalogue, latency ones with each statistic. */
function overviewFigures(repeats: boolean): ViewFigure[] {
  return FIGURE_NAMES.flatMap((base) =>
    figureKind(base) === 'latency' ? OVERVIEW_STATS.map((s) => `${base}.${s}`) : [base],
  ).flatMap((name) => figureOf(name, repeats) ?? []);
}

/** Every per-question figure: scores and rates by questionValue, latency figures by the mean of ok tries. */
function questionFigures(repeats: boolean): ViewFigure[] {
  return FIGURE_NAMES.flatMap((base) => figureOf(base, repeats) ?? []);
}

/** A group's estimate of a figure: the summary's mean and interval where it keeps one, else the value with a Wilson interval for a share of requests. */
function estimate(run: RunData, key: GroupKey, figure: ViewFigure): ViewEstimate | null {
  const stat = figure.kind === 'latency' ? (figure.name.split('.')[1] as LatencyStat) : undefined;
  const value = groupValue(run, key, figure.base, stat);
  if (value === null) return null;
  const group = run.summary.groups.find(
    (g) => g.set === key.set && g.mode === key.mode && g.model_index === key.model_index,
  );
  if (group === undefined) return null;
  if (figure.kind === 'latency')
    return {
      value,
      low: null,
      high: null,
      n:
        (isPooledFigure(figure.base) ? group[figure.base] : group.latency[figure.base as LatencyFigure])?.count ?? null,
    };
  const repeats = run.repeats.find(
    (r) => r.set === key.set && r.mode === key.mode && r.model_index === key.model_index,
  );
  const kept =
    group.scores[figure.base] ??
    (group as unknown as Record<string, unknown>)[figure.base] ??
    (repeats as unknown as Record<string, unknown> | undefined)?.[figure.base];
  if (isEstimate(kept)) return { value, low: kept.ci_low, high: kept.ci_high, n: kept.n };
  if (figure.kind === 'rate' && group.requests > 0) {
    const wilson = proportionEstimate(Math.round(value * group.requests), group.requests);
    if (wilson !== null) return { value, low: wilson.ci_low, high: wilson.ci_high, n: group.requests };
  }
  return { value, low: null, high: null, n: null };
}

const isEstimate = (v: unknown): v is { mean: number; ci_low: number; ci_high: number; n: number } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { mean?: unknown }).mean === 'number' &&
  typeof (v as { ci_low?: unknown }).ci_low === 'number';

function mean(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}

function reviewOf(tries: readonly Try[]): ViewCell['review'] {
  const verdicts = new Set(tries.flatMap((t) => (t.human === undefined ? [] : [t.human])));
  if (verdicts.size === 0) return null;
  if (verdicts.size > 1) return 'mixed';
  return verdicts.has(true) ? 'pass' : 'fail';
}

function cellOf(
  collected: CollectedRun,
  column: GroupData,
  questionId: string,
  figures: readonly ViewFigure[],
  answerChars: number,
  change: ViewChange | null,
): ViewCell | null {
  const byRepeat = collected.tries.get(groupKeyString(column))?.get(questionId);
  const data = column.questions.get(questionId);
  if (byRepeat === undefined || data === undefined) return null;
  const tries = [...byRepeat.entries()].sort(([a], [b]) => a - b).map(([, t]) => t);
  const state = cellState(tries.map((t) => ({ pass: t.passed, outcome: t.outcome })));
  const values = figures.map((f) =>
    compact(
      f.kind === 'latency'
        ? mean(tries.filter((t) => t.outcome === 'ok').map((t) => t.latency[f.base as LatencyFigure]))
        : questionValue(data, f.base),
    ),
  );
  const first = tries[0]?.answer ?? null;
  return {
    state: state === 'none' ? 'error' : state,
    outcomes: tries.map((t) => t.outcome),
    values,
    review: reviewOf(tries),
    change,
    text: first === null || answerChars === 0 ? '' : trimText(first, answerChars),
  };
}

/** Question id → change, for one column of a run compared with the baseline. */
function changesOf(comparison: Comparison | null, column: GroupData): Map<string, ViewChange> {
  const changes = new Map<string, ViewChange>();
  const group = comparison?.groups.find(
    (g) => g.set === column.set && g.mode === column.mode && g.model_index === column.model_index,
  );
  for (const q of group?.broken ?? []) changes.set(q.question_id, 'broken');
  for (const q of group?.fixed ?? []) changes.set(q.question_id, changes.has(q.question_id) ? 'both' : 'fixed');
  return changes;
}

function runOf(input: ViewRunInput): ViewRun {
  const s = input.collected.data.summary.run;
  return {
    name: input.name,
    source: input.source,
    requests: s.requests,
    questions: s.questions,
    sets: [...s.sets],
    started_at: s.started_at,
    torn_lines: input.collected.data.torn_lines,
    reviews: input.reviews,
    comparison: input.comparison,
    shown_figures: input.comparison?.groups.map((g) => shownFigures(input.comparison!, g).map((f) => f.figure)) ?? [],
    verdict: input.verdict ?? null,
  };
}

/** The ViewData of the runs (and baseline): columns with every figure, one row per question. */
export function buildViewData(options: ViewDataOptions): ViewData {
  const answerChars = options.answerChars ?? ANSWER_CHARS;
  const repeats = options.runs.some((r) => r.collected.data.repeats.some((g) => g.repeats > 1));
  const several = options.runs.length > 1;
  const bothModes = new Set(options.runs.flatMap((r) => r.collected.data.groups.map((g) => g.mode))).size > 1;
  const allFigures = overviewFigures(repeats);
  const allCellFigures = questionFigures(repeats);

  const columnSources: { run: ViewRunInput; group: GroupData; changes: Map<string, ViewChange> }[] = [];
  const rawColumns = options.runs.flatMap((run, runIndex) =>
    runColumns(run.collected.data).map((group) => {
      columnSources.push({ run, group, changes: changesOf(run.comparison, group) });
      const model = group.model_index === null ? '' : ` · ${group.model_name ?? `model ${group.model_index}`}`;
      const label = `${several ? `${run.name}: ` : ''}${group.set}${model}${bothModes ? ` (${group.mode})` : ''}`;
      const summaryGroup = run.collected.data.summary.groups.find(
        (g) => g.set === group.set && g.mode === group.mode && g.model_index === group.model_index,
      );
      return {
        run: runIndex,
        set: group.set,
        mode: group.mode,
        model_index: group.model_index,
        model_name: group.model_name,
        label,
        requests: summaryGroup?.requests ?? 0,
        unchecked_questions: summaryGroup?.unchecked_questions ?? 0,
        figures: allFigures.map((f) => estimate(run.collected.data, group, f)),
      };
    }),
  );
  // Only figures some column has: a run without reviews shows no human_pass_rate row. A pass rate
  // that is "not checked" (no question expects anything) is shown saying so.
  const keptFigures = allFigures.map(
    (f, i) =>
      rawColumns.some((c) => c.figures[i] !== null) ||
      (f.name === 'pass_rate' && rawColumns.some((c) => c.unchecked_questions > 0)),
  );
  const figures = allFigures.filter((_, i) => keptFigures[i]);
  const columns: ViewColumn[] = rawColumns.map((c, id) => ({
    ...c,
    id,
    figures: c.figures.filter((_, i) => keptFigures[i]),
  }));

  const ids = new Set<string>();
  for (const run of options.runs) for (const id of run.collected.questions.keys()) ids.add(id);
  const ordered = conversationOrder([...ids], (id) =>
    options.runs.map((r) => r.collected.questions.get(id)).find((m) => m !== undefined),
  );
  const rawRows = ordered.map((id) => {
    const meta = options.runs.map((r) => r.collected.questions.get(id)).find((m) => m !== undefined)!;
    const cells = columnSources.map(({ run, group, changes }) =>
      cellOf(run.collected, group, id, allCellFigures, answerChars, changes.get(id) ?? null),
    );
    return { id, meta, cells };
  });
  // A per-question figure is kept when it tells questions apart: some cell has it and not every cell the same.
  const keptCell = allCellFigures.map((_, i) => {
    const seen = new Set<number | null>();
    for (const r of rawRows) for (const c of r.cells) if (c !== null) seen.add(c.values[i] ?? null);
    seen.delete(null);
    return seen.size > 1;
  });
  const questions: ViewQuestion[] = rawRows.map(({ id, meta, cells }) => ({
    id,
    question: meta.question,
    category: meta.category,
    conversation: meta.conversation,
    turn: meta.turn,
    expected: meta.expected,
    cells: cells.map((c) => (c === null ? null : { ...c, values: c.values.filter((_, i) => keptCell[i]) })),
  }));

  return {
    version: VIEW_DATA_VERSION,
    generated_by: options.generatedBy,
    mode: options.mode,
    reviewer: options.reviewer ?? null,
    runs: options.runs.map(runOf),
    baseline: options.baseline ? runOf(options.baseline) : null,
    figures,
    cell_figures: allCellFigures.filter((_, i) => keptCell[i]),
    columns,
    questions,
    answer_chars: answerChars,
    known_fields: {
      record: Object.keys(RequestRecordSchema.shape).filter((k) => !SHOWN_AS_IS.has(k)),
      model: Object.keys(ModelFiguresSchema.shape).filter((k) => !SHOWN_AS_IS.has(k)),
    },
    details: options.details,
  };
}

/**
 * Question ids in natural order, except that a conversation's turns stay together, in turn order,
 * where its earliest id stands.
 */
export function conversationOrder(
  ids: readonly string[],
  metaOf: (id: string) => Pick<QuestionMeta, 'conversation' | 'turn'> | undefined,
): string[] {
  const sorted = [...ids].sort(naturalCompare);
  const lead = new Map<string, string>();
  for (const id of sorted) {
    const conversation = metaOf(id)?.conversation ?? null;
    if (conversation !== null && !lead.has(conversation)) lead.set(conversation, id);
  }
  const position = new Map(sorted.map((id, i) => [id, i]));
  const keyOf = (id: string) => {
    const meta = metaOf(id);
    const head = meta?.conversation == null ? id : lead.get(meta.conversation)!;
    return [position.get(head)!, meta?.conversation == null ? 0 : (meta.turn ?? 0)] as const;
  };
  return sorted.sort((a, b) => {
    const [ha, ta] = keyOf(a);
    const [hb, tb] = keyOf(b);
    return ha - hb || ta - tb || naturalCompare(a, b);
  });
}

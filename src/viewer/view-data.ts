/**
 * @module viewer/view-data
 * What the viewer's browser app reads: one ViewData for the runs (served as /api/data, or embedded
 * in viewer.html) and one ViewDetail per question (served as /api/question, or embedded). Types
 * only, so the browser bundle imports them without pulling in any code of the data layer.
 */
import type { Verdict as RunVerdict } from '../verdict/verdict.js';
import type { Comparison } from '../compare/schema.js';
import type { FigureKind } from '../figures/catalogue.js';
import type { Mode, Outcome } from '../records/record.js';
import type { Review, Verdict } from '../records/review.js';
import type { CellState } from '../reports/cell-state.js';
import type { DraftQuestion } from '../dataset/draft-expectations.js';
import type { DecisionKind } from '../dataset/expectation-decisions.js';

export const VIEW_DATA_VERSION = 1;

/** A figure of the catalogue as the viewer shows it. */
export interface ViewFigure {
  /** The name a gate uses: `citation_recall`, `pass_rate`, `ttfp_ms.p95`. */
  readonly name: string;
  /** Without the statistic: `ttfp_ms`. */
  readonly base: string;
  readonly kind: FigureKind;
  readonly higher_is_better: boolean;
  /** Shown before "all figures" is asked for (the comparison's headline figures). */
  readonly headline: boolean;
  /**
   * The fewest values it needs to be judged (figures/min-samples, the one rule of every report):
   * a mean 5, a p95 200; null when no number is enough (a max). Fewer: greyed, never best.
   */
  readonly min_n: number | null;
}

/** A group's figure: value, 95% interval where the figure has one, and how many values it rests on. */
export interface ViewEstimate {
  readonly value: number;
  readonly low: number | null;
  readonly high: number | null;
  readonly n: number | null;
}

/** One column: a set × mode of a run, or one model of a multi-model set × mode. */
export interface ViewColumn {
  readonly id: number;
  /** Index into ViewData.runs. */
  readonly run: number;
  readonly set: string;
  readonly mode: Mode;
  readonly model_index: number | null;
  readonly model_name: string | null;
  /** `fast (stream)`, `side-by-side · claude (stream)`; prefixed with the run's name when several runs are shown. */
  readonly label: string;
  readonly requests: number;
  /** Questions none of whose answers was checked (summary's unchecked_questions): pass_rate null means "not checked". */
  readonly unchecked_questions: number;
  /** Aligned with ViewData.figures; null where the figure does not exist. */
  readonly figures: readonly (ViewEstimate | null)[];
}

export interface ViewRun {
  /** Short name: the run directory's last path segment. */
  readonly name: string;
  /** The path as given on the command line. */
  readonly source: string;
  readonly requests: number;
  readonly questions: number;
  readonly sets: readonly string[];
  readonly started_at: string | null;
  readonly torn_lines: number;
  /** Reviews in its reviews.jsonl. */
  readonly reviews: number;
  /** Against --baseline, when one was given. */
  readonly comparison: Comparison | null;
  /** Per comparison group, the figures compare.md shows (compare/table shownFigures). */
  readonly shown_figures: readonly (readonly string[])[];
  /** The run's verdict (verdict.json, verdict/verdict): the overview opens with it; null when the run has none. */
  readonly verdict?: RunVerdict | null;
}

/** Whether the answer changed against the baseline (compare/question-changes). */
export type ViewChange = 'broken' | 'fixed' | 'both';

/** One question in one column, over its repeats. */
export interface ViewCell {
  readonly state: Exclude<CellState, 'none'>;
  /** Per try, in repeat order. */
  readonly outcomes: readonly Outcome[];
  /** Aligned with ViewData.cell_figures; null where the figure does not exist. */
  readonly values: readonly (number | null)[];
  /** The reviews' verdicts over the tries; 'mixed' when they differ; null when none was reviewed. */
  readonly review: Verdict | 'mixed' | null;
  readonly change: ViewChange | null;
  /** The first try's answer, cut to ViewData.answer_chars (viewer.html's search and preview); empty when served (the server searches). */
  readonly text: string;
}

/** One row of the questions list. */
export interface ViewQuestion {
  readonly id: string;
  readonly question: string;
  readonly category: string | null;
  /** The conversation this question is a turn of, and its turn number; null for a question on its own. The list keeps a conversation's turns together, in order. */
  readonly conversation: string | null;
  readonly turn: number | null;
  readonly expected: readonly string[];
  /** Aligned with ViewData.columns; null where the column has no record of the question. */
  readonly cells: readonly (ViewCell | null)[];
}

export interface ViewData {
  readonly version: typeof VIEW_DATA_VERSION;
  readonly generated_by: string;
  /** 'server': chatbench view (reviews can be saved); 'file': viewer.html, read-only. */
  readonly mode: 'server' | 'file';
  /** Who saves reviews (server mode). */
  readonly reviewer: string | null;
  readonly runs: readonly ViewRun[];
  readonly baseline: ViewRun | null;
  /** The overview's rows, in catalogue order; only figures some column has. */
  readonly figures: readonly ViewFigure[];
  /** The per-question figures (latency: the mean of the question's ok tries); only those that differ between cells. */
  readonly cell_figures: readonly ViewFigure[];
  readonly columns: readonly ViewColumn[];
  readonly questions: readonly ViewQuestion[];
  /** How many characters of each answer a cell's `text` keeps (0 when served: the server searches whole answers). */
  readonly answer_chars: number;
  /** The record fields this version knows (records/record); the question page shows any other field as it is (judge reasons, tools, turns). */
  readonly known_fields: { readonly record: readonly string[]; readonly model: readonly string[] };
  /** Where a question's full records come from: every question, only `detail_ids` (viewer.html of a large run), or the server. */
  readonly details: { readonly source: 'server' } | { readonly source: 'embedded'; readonly complete: boolean };
}

/** One record of a question, as results.jsonl has it (every field, also ones this version does not know). */
export interface ViewRecord {
  /** Index into ViewData.runs, or -1 for the baseline. */
  readonly run: number;
  readonly record: Readonly<Record<string, unknown>>;
  /**
   * The token figures and ITL of each answer (viewer/answer-figures), in pane order (models[] in
   * order, else the record); absent in a viewer.html from before them.
   */
  readonly figures?: readonly ViewAnswerFigures[];
}

/** One answer's token figures and its own ITL (viewer/answer-figures); null where it has none. */
export interface ViewAnswerFigures {
  readonly output_tokens: number | null;
  readonly output_tokens_per_s: number | null;
  readonly tpot_per_token_ms: number | null;
  /** Percentiles over this answer's own gaps between answer deltas (exact, not pooled). */
  readonly itl_p50_ms: number | null;
  readonly itl_p95_ms: number | null;
  /** How many gaps they rest on. */
  readonly itl_gaps: number;
}

/** Everything about one question: its records in every run (and the baseline), and their reviews. */
export interface ViewDetail {
  readonly question_id: string;
  readonly records: readonly ViewRecord[];
  /** Reviews of these records, per run index, oldest first. */
  readonly reviews: readonly { readonly run: number; readonly review: Review }[];
}

/** What the app posts to save a review; the server adds reviewer, time and the record's fields. */
export interface ReviewRequest {
  readonly run: number;
  readonly key: string;
  readonly model_index: number | null;
  readonly verdict: Verdict;
  readonly note: string;
}

/** A run's candidate expected documents of one question (chatbench draft-expectations) and the decisions on them. */
export interface ViewExpectations {
  readonly run: number;
  readonly question: DraftQuestion;
  /** Document id → its last decision; a candidate without one is undecided. */
  readonly decisions: Readonly<Record<string, DecisionKind>>;
}

/** What the app posts to accept or reject a candidate; the server adds reviewer and time. */
export interface DecisionRequest {
  readonly run: number;
  readonly question_id: string;
  readonly document_id: string;
  readonly decision: DecisionKind;
}

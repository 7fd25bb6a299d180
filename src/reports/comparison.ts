/**
 * @module reports/comparison
 * The side-by-side comparison report.md, report.html and the terminal show: which columns (set ×
 * mode, and each model of a multi-model set), which rows, and which cell of a row is best. Built
 * once here so the outputs can never disagree on a figure. "Best" is not decided here: a cell is
 * marked only where the verdict's marks (compare/pairwise bestMarks, the paired test behind the
 * pair lines) name its set, so a higher value that is not significantly higher is no winner.
 */
import { SCORE_NAMES } from '../figures/catalogue.js';
import { OUTCOMES, type Mode } from '../records/record.js';
import type { BestMark } from '../verdict/index.js';
import { isMarkedBest } from './best-mark.js';
import type { Group, GroupFigures, LatencyFigure, MeanEstimate, RepeatFigures, Summary } from '../records/summary.js';
import { hasEnoughSamples, type Statistic } from '../figures/min-samples.js';
import { formatFigureValue } from '../figures/units.js';
import { formatCount, formatMs, formatPct, formatPctWithCi, formatScore, naturalCompare } from './format.js';

/** One column of the comparison: a set × mode, or one model of a multi-model set × mode. */
export interface ReportColumn {
  readonly label: string;
  readonly set: string;
  readonly mode: Mode;
  readonly model_index: number | null;
  readonly model_name: string | null;
  readonly group: Group;
}

const MODE_ORDER: Record<Mode, number> = { stream: 0, full: 1 };

/**
 * The columns, in the run's set order, stream before full, models by index. A multi-model set
 * shows one column per model (the request-level group is left out: its latencies and scores
 * belong to no one model); if the summary has no per-model groups for it, the request-level one.
 * The mode is named in labels only when the run used both modes.
 */
export function reportColumns(summary: Summary): ReportColumn[] {
  const setOrder = [...summary.run.sets];
  for (const g of summary.groups) if (!setOrder.includes(g.set)) setOrder.push(g.set);
  const hasModels = (g: Group) => summary.groups.some((o) => o.set === g.set && o.mode === g.mode && o.model_index !== null);
  const shown = summary.groups
    .filter((g) => g.model_index !== null || !hasModels(g))
    .sort((a, b) => setOrder.indexOf(a.set) - setOrder.indexOf(b.set) || MODE_ORDER[a.mode] - MODE_ORDER[b.mode] || (a.model_index ?? -1) - (b.model_index ?? -1));
  const bothModes = new Set(shown.map((g) => g.mode)).size > 1;
  return shown.map((group) => {
    const model = group.model_index === null ? '' : ` · ${group.model_name ?? `model ${group.model_index}`}`;
    return {
      label: `${group.set}${model}${bothModes ? ` (${group.mode})` : ''}`,
      set: group.set,
      mode: group.mode,
      model_index: group.model_index,
      model_name: group.model_name,
      group,
    };
  });
}

/**
 * What a "best" mark means, said under every table that shows one (report.md, report.html, the
 * terminal); `marker` is how the table marks it.
 */
export const bestNote = (marker: string): string =>
  `${marker}: significantly better than every other set on that figure (the paired comparison of the sets, Benjamini–Hochberg over all its tests); no mark: no clear winner`;

/** The pass rate of a group none of whose questions expects anything (summary's pass_rate null, unchecked_questions > 0). */
export const NOT_CHECKED = 'not checked';

/** Which way is better for a row; null: no best (e.g. request counts). */
export type Better = 'higher' | 'lower' | null;

export interface ComparisonRow {
  readonly label: string;
  /** The compare figure the row shows (`pass_rate`, `ttft_ms.p50`); null for counts, which are never marked. */
  readonly figure: string | null;
  readonly better: Better;
  /** Raw value per column; null = N/A. */
  readonly values: ReadonlyArray<number | null>;
  /** Display text per column; N/A is "–"; a figure from too few samples carries its n: "0.912 (n=3)". */
  readonly cells: readonly string[];
  /** Per column: significantly best of the row by the paired comparison of the sets (the verdict's marks). */
  readonly best: readonly boolean[];
  /**
   * Per column: the figure rests on too few samples (figures/min-samples): shown greyed with its n,
   * never best. False for counts and for N/A cells.
   */
  readonly few: readonly boolean[];
}

interface RowSpec {
  label: string;
  better: Better;
  /** The compare figure the row shows (`pass_rate`, `ttft_ms.p50`), whose test decides its best mark; none: never marked. */
  figure?: string;
  value: (g: GroupFigures & Partial<Pick<Group, 'conversations' | 'repeats'>>) => number | null;
  text?: (g: GroupFigures & Partial<Pick<Group, 'conversations' | 'repeats'>>) => string;
  format: (v: number | null) => string;
  /** The statistic the row shows and how many samples it rests on; none for counts. */
  samples?: { stat: Statistic; n: (g: GroupFigures & Partial<Pick<Group, 'conversations' | 'repeats'>>) => number };
}

const score = (label: string, name: string): RowSpec => ({
  label,
  better: 'higher',
  figure: name,
  value: (g) => g.scores[name]?.mean ?? null,
  format: formatScore,
  samples: { stat: 'mean', n: (g) => g.scores[name]?.n ?? 0 },
});
const latency = (label: string, figure: LatencyFigure, p: 'p50' | 'p95'): RowSpec => ({
  label,
  better: 'lower',
  figure: `${figure}.${p}`,
  value: (g) => g.latency[figure]?.[p] ?? null,
  format: formatMs,
  samples: { stat: p, n: (g) => g.latency[figure]?.count ?? 0 },
});
const formatSeconds = (v: number | null) => (v === null ? formatMs(null) : `${v >= 10 ? v.toFixed(1) : v.toFixed(2)} s`);

/**
 * The milestones and rates of the answer (issue 10): shown only when some column has them, so a run
 * in full mode, or an old run, keeps its table as it was.
 */
const MILESTONE_ROWS: readonly RowSpec[] = [
  latency('first search documents p50', 'first_search_documents_ms', 'p50'),
  latency('message_start p50', 'message_start_ms', 'p50'),
  latency('first reasoning p50', 'first_reasoning_ms', 'p50'),
  latency('first citation p50', 'first_citation_ms', 'p50'),
  { label: 'pre-answer (service) p50', better: 'lower', figure: 'pre_answer_processing_seconds.p50', value: (g) => g.latency.pre_answer_processing_seconds?.p50 ?? null, format: formatSeconds, samples: { stat: 'p50', n: (g) => g.latency.pre_answer_processing_seconds?.count ?? 0 } },
  // Per token (vLLM's TPOT; tokens counted when the reports are built), then per stream delta.
  latency('TPOT per token p50', 'tpot_per_token_ms', 'p50'),
  latency('TPOT per token p95', 'tpot_per_token_ms', 'p95'),
  // ITL as vLLM defines it: every gap between successive answer chunks, all requests pooled.
  { label: 'ITL p50', better: 'lower', figure: 'answer_gap_ms.p50', value: (g) => g.answer_gap_ms?.p50 ?? null, format: formatMs, samples: { stat: 'p50', n: (g) => g.answer_gap_ms?.count ?? 0 } },
  { label: 'ITL p95', better: 'lower', figure: 'answer_gap_ms.p95', value: (g) => g.answer_gap_ms?.p95 ?? null, format: formatMs, samples: { stat: 'p95', n: (g) => g.answer_gap_ms?.count ?? 0 } },
  latency('time per delta p50', 'time_per_delta_ms', 'p50'),
  latency('time per delta p95', 'time_per_delta_ms', 'p95'),
  { label: 'output tokens p50', better: 'higher', figure: 'output_tokens.p50', value: (g) => g.latency.output_tokens?.p50 ?? null, format: (v) => (v === null ? formatMs(null) : formatFigureValue('output_tokens', v)), samples: { stat: 'p50', n: (g) => g.latency.output_tokens?.count ?? 0 } },
  { label: 'output tokens/s p50', better: 'higher', figure: 'output_tokens_per_s.p50', value: (g) => g.latency.output_tokens_per_s?.p50 ?? null, format: (v) => (v === null ? formatMs(null) : formatFigureValue('output_tokens_per_s', v)), samples: { stat: 'p50', n: (g) => g.latency.output_tokens_per_s?.count ?? 0 } },
  { label: 'output throughput (run)', better: 'higher', figure: 'output_throughput_tokens_per_s', value: (g) => g.output_throughput_tokens_per_s ?? null, format: (v) => (v === null ? formatMs(null) : formatFigureValue('output_tokens_per_s', v)) },
  // Every per-request figure obeys the one minimum-sample rule (figures/min-samples), as TTFT does.
  { label: 'output chars/s p50', better: 'higher', figure: 'output_chars_per_s.p50', value: (g) => g.latency.output_chars_per_s?.p50 ?? null, format: (v) => (v === null ? formatMs(null) : formatFigureValue('output_chars_per_s', v)), samples: { stat: 'p50', n: (g) => g.latency.output_chars_per_s?.count ?? 0 } },
];

/** Answer quality (docs/reference/metrics.md): shown only when some column has the figure (a reference answer, a judge). */
const QUALITY_ROWS: ReadonlyArray<[string, string]> = [
  ['answer F1', 'answer_f1'], ['ROUGE-L', 'rouge_l'], ['correctness', 'correctness'], ['groundedness', 'groundedness'],
  ['relevance', 'relevance'], ['rubric pass', 'rubric'],
];

const CATALOGUED: ReadonlySet<string> = new Set(SCORE_NAMES);

/** The user checks' figures (`--checks`) the columns have: the score keys that are not in the catalogue, sorted. */
export function checkNamesOf(columns: readonly ReportColumn[]): string[] {
  return [...new Set(columns.flatMap((c) => Object.keys(c.group.scores)))].filter((name) => !CATALOGUED.has(name)).sort();
}

const errorsOf = (g: GroupFigures): number => Object.values(g.figure_errors).reduce((a, b) => a + b, 0);

/** pass@N, pass^N and the flaky rate (shares of questions), when some column asked its questions more than once. */
function repeatRows(columns: readonly ReportColumn[]): RowSpec[] {
  const n = Math.max(0, ...columns.map((c) => c.group.repeats?.repeats ?? 0));
  if (n < 2) return [];
  const row = (label: string, better: Better, figure: string, pick: (r: RepeatFigures) => MeanEstimate | null): RowSpec => ({
    label, better, figure, value: (g) => (g.repeats ? pick(g.repeats)?.mean ?? null : null), format: formatPct,
    text: (g) => (g.repeats && pick(g.repeats) ? formatPctWithCi(pick(g.repeats)) : formatPct(null)),
    samples: { stat: 'mean', n: (g) => (g.repeats ? (pick(g.repeats)?.n ?? 0) : 0) },
  });
  return [
    row(`pass@${n} [95% CI]`, 'higher', 'pass_at_n', (r) => r.pass_at_n),
    row(`pass^${n} [95% CI]`, 'higher', 'pass_all_n', (r) => r.pass_all_n),
    row('flaky rate [95% CI]', 'lower', 'flaky_rate', (r) => r.flaky_rate),
  ];
}

/**
 * The rows of the comparison table, each with its best cells marked from `best` (the verdict's
 * marks; none given, e.g. before the verdict or for a merged run: no cell is marked). Outcome rows
 * appear only for classes that occurred.
 */
export function comparisonRows(columns: readonly ReportColumn[], best: readonly BestMark[] = []): ComparisonRow[] {
  const occurred = OUTCOMES.filter((o) => o !== 'ok' && columns.some((c) => (c.group.outcomes[o] ?? 0) > 0));
  const present = (spec: RowSpec) => columns.some((c) => spec.value(c.group) !== null);
  const quality = [
    ...QUALITY_ROWS.map(([label, name]) => score(label, name)),
    ...checkNamesOf(columns).map((name) => score(`check ${name}`, name)),
  ].filter(present);
  const errors: RowSpec[] = columns.some((c) => errorsOf(c.group) > 0)
    ? [{ label: 'judge/check errors', better: 'lower', value: errorsOf, format: formatCount }]
    : [];
  // Only with a judge: the share of its asks that ended without a verdict (judge_error_rate).
  const judgeErrors: RowSpec[] = columns.some((c) => c.group.judge_asks > 0)
    ? [{ label: 'judge error rate', better: 'lower', figure: 'judge_error_rate', value: (g) => g.judge_error_rate, text: (g) => (g.judge_error_rate === null ? formatPct(null) : `${formatPct(g.judge_error_rate)} of ${formatCount(g.judge_asks)} asks`), format: formatPct }]
    : [];
  const specs: RowSpec[] = [
    { label: 'requests', better: null, value: (g) => g.requests, format: formatCount },
    { label: 'ok %', better: 'higher', figure: 'ok_rate', value: (g) => (g.requests > 0 ? (g.outcomes.ok ?? 0) / g.requests : null), format: formatPct, samples: { stat: 'mean', n: (g) => g.requests } },
    ...occurred.map((o): RowSpec => ({ label: o, better: 'lower', value: (g) => g.outcomes[o] ?? 0, format: formatCount })),
    // With repeats the interval is clustered by question (metrics/clustered) and n is the questions: say so.
    // A group whose questions expect nothing has no pass rate: "not checked", never 100% (metrics/group-figures).
    { label: 'pass rate [95% CI]', better: 'higher', figure: 'pass_rate', value: (g) => g.pass_rate?.mean ?? null, text: (g) => (g.pass_rate === null && (g.unchecked_questions ?? 0) > 0 ? NOT_CHECKED : `${formatPctWithCi(g.pass_rate)}${g.repeats && g.pass_rate ? ` of ${formatCount(g.pass_rate.n)} questions` : ''}`), format: formatPct, samples: { stat: 'mean', n: (g) => g.pass_rate?.n ?? 0 } },
    ...(columns.some((c) => (c.group.unchecked_questions ?? 0) > 0)
      ? [{ label: 'questions not checked', better: null, value: (g) => g.unchecked_questions ?? 0, format: formatCount } satisfies RowSpec]
      : []),
    ...repeatRows(columns),
    // Only once someone reviewed answers (chatbench view): n is the number reviewed.
    ...(columns.some((c) => c.group.human_pass_rate)
      ? [{ label: 'human pass rate [95% CI]', better: 'higher', figure: 'human_pass_rate', value: (g) => g.human_pass_rate?.mean ?? null, text: (g) => (g.human_pass_rate ? `${formatPctWithCi(g.human_pass_rate)} of ${g.human_pass_rate.n}` : formatPct(null)), format: formatPct, samples: { stat: 'mean', n: (g) => g.human_pass_rate?.n ?? 0 } } satisfies RowSpec]
      : []),
    // Only for a run with conversations: n is the number of conversations (× repeats).
    ...(columns.some((c) => c.group.conversations)
      ? [{ label: 'conversations passed [95% CI]', better: 'higher', figure: 'conversation_pass_rate', value: (g) => g.conversations?.pass_rate?.mean ?? null, text: (g) => (g.conversations?.pass_rate ? `${formatPctWithCi(g.conversations.pass_rate)} of ${g.conversations.count}` : formatPct(null)), format: formatPct } satisfies RowSpec]
      : []),
    score('citation precision', 'citation_precision'),
    score('citation recall', 'citation_recall'),
    score('citation F1', 'citation_f1'),
    score('MRR', 'reciprocal_rank'),
    score('nDCG@5', 'ndcg_at_5'),
    score('hit@5', 'hit_at_5'),
    score('retrieval recall@5', 'retrieval_recall_at_5'),
    ...[score('tool assertion', 'tool_assertion'), score('tool precision', 'tool_precision')].filter((spec) => columns.some((c) => spec.value(c.group) !== null)),
    { label: 'invalid citations', better: 'lower', value: (g) => g.invalid_citations, format: formatCount },
    ...quality,
    ...errors,
    ...judgeErrors,
    // TTFT leads (issue 27: what LLM engineers read first); TTFP, the service's first part, second.
    latency('TTFT p50', 'ttft_ms', 'p50'),
    latency('TTFT p95', 'ttft_ms', 'p95'),
    latency('TTFP p50', 'ttfp_ms', 'p50'),
    latency('TTFP p95', 'ttfp_ms', 'p95'),
    latency('total p50', 'total_ms', 'p50'),
    latency('total p95', 'total_ms', 'p95'),
    ...MILESTONE_ROWS.filter((spec) => columns.some((c) => spec.value(c.group) !== null)),
    ...(columns.some((c) => (c.group.tool_errors ?? 0) > 0) ? [{ label: 'tool errors', better: 'lower' as const, value: (g: GroupFigures) => g.tool_errors ?? 0, format: formatCount }] : []),
  ];
  return specs.map((spec) => {
    const values = columns.map((c) => spec.value(c.group));
    const few = columns.map((c, i) => values[i] !== null && spec.samples !== undefined && !hasEnoughSamples(spec.samples.stat, spec.samples.n(c.group)));
    const cells = columns.map((c, i) => {
      const text = spec.text ? spec.text(c.group) : spec.format(values[i] ?? null);
      return few[i] ? `${text} (n=${spec.samples?.n(c.group) ?? 0})` : text;
    });
    const marked = columns.map((c, i) => values[i] !== null && !few[i] && isMarkedBest(best, spec.figure, c));
    return { label: spec.label, figure: spec.figure ?? null, better: spec.better, values, cells, best: marked, few };
  });
}

/** Per-category figures of each column: pass rate, citation recall and the judge's correctness, categories in natural order. */
export interface CategoryRow {
  readonly category: string;
  readonly pass: ReadonlyArray<MeanEstimate | null>;
  readonly recall: ReadonlyArray<number | null>;
  readonly correctness: ReadonlyArray<number | null>;
}

export function categoryRows(columns: readonly ReportColumn[]): CategoryRow[] {
  const categories = [...new Set(columns.flatMap((c) => Object.keys(c.group.by_category)))].sort(naturalCompare);
  return categories.map((category) => ({
    category,
    pass: columns.map((c) => c.group.by_category[category]?.pass_rate ?? null),
    recall: columns.map((c) => c.group.by_category[category]?.scores.citation_recall?.mean ?? null),
    correctness: columns.map((c) => c.group.by_category[category]?.scores.correctness?.mean ?? null),
  }));
}

/** Per-turn figures of each column (conversation runs): pass rate, citation recall, TTFT p50, by turn number. */
export interface TurnRow {
  readonly turn: string;
  readonly pass: ReadonlyArray<MeanEstimate | null>;
  readonly recall: ReadonlyArray<number | null>;
  readonly ttft: ReadonlyArray<number | null>;
}

/** One row per turn number any column has; empty without conversations. */
export function turnRows(columns: readonly ReportColumn[]): TurnRow[] {
  const turns = [...new Set(columns.flatMap((c) => Object.keys(c.group.by_turn ?? {})))].sort((a, b) => Number(a) - Number(b));
  return turns.map((turn) => ({
    turn,
    pass: columns.map((c) => c.group.by_turn?.[turn]?.pass_rate ?? null),
    recall: columns.map((c) => c.group.by_turn?.[turn]?.scores.citation_recall?.mean ?? null),
    ttft: columns.map((c) => c.group.by_turn?.[turn]?.latency.ttft_ms?.p50 ?? null),
  }));
}

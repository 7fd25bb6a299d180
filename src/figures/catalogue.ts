/**
 * @module figures/catalogue
 * The catalogue of figures a summary reports, a comparison shows and a gate can name: every
 * numeric score (a per-question mean; the answer-quality figures answer_f1, rouge_l and the judged
 * correctness, groundedness, relevance and rubric among them), the outcome and pass rates, the
 * repeat figures, the ITL (`answer_gap_ms`, pooled over answer gaps), the per-request figures summarised by their distribution (latencies and
 * milestones, time per delta, TPOT per token, output tokens and tokens per second, output characters per second, the service's own pre-answer time), which take a
 * statistic, the tool scores and the conversation pass rate (each of them also per turn number
 * of a conversation), and the user's own checks (`--checks`), scores named by the user. For each, its kind,
 * which way is good, and (for the per-request ones) how it is read from a record. One catalogue at
 * the bottom of the tree, so metrics, compare, gates and the reports never disagree on a name, a
 * definition or a direction.
 */
import type { AnswerFigures } from '../records/record.js';
import { ScoresSchema, type ScoreName, type Scores } from '../records/scores.js';
import { LATENCY_FIGURES, type LatencyFigure } from '../records/summary.js';

// The latency list lives with summary.json's schema, which is keyed by it (records stand below figures).
export { LATENCY_FIGURES, type LatencyFigure };

/** What a per-request figure is read from: one answer's figures, and the request's headers_ms. */
export type SampleSource = Pick<
  AnswerFigures,
  | 'ttfp_ms'
  | 'ttft_ms'
  | 'first_citation_ms'
  | 'total_ms'
  | 'time_per_delta_ms'
  | 'first_packet_ms'
  | 'pre_answer_processing_seconds'
  | 'output_chars_per_s'
  | 'output_tokens'
  | 'output_tokens_per_s'
  | 'tpot_per_token_ms'
>;

/** One per-request figure: its unit, which way is good, and how it is read. */
export interface SampleFigure {
  readonly unit: 'ms' | 's' | 'chars/s' | 'tokens' | 'tokens/s';
  readonly higherIsBetter: boolean;
  /** One line for reports and docs. */
  readonly label: string;
  /** The value of one answer; null when it does not exist (no such packet, full mode). */
  read(figures: SampleSource, headersMs: number | null): number | null;
}

/** The packet types whose first arrival a catalogue figure reads from `first_packet_ms`. */
export const MILESTONE_PACKET_TYPES: readonly string[] = [
  'search_tool_documents_delta',
  'message_start',
  'reasoning_start',
  'reasoning_delta',
];

const packetAt = (f: SampleSource, ...types: string[]): number | null => {
  for (const type of types) {
    const at = f.first_packet_ms?.[type];
    if (at !== undefined) return at;
  }
  return null;
};
const ms = (label: string, read: SampleFigure['read']): SampleFigure => ({
  unit: 'ms',
  higherIsBetter: false,
  label,
  read,
});

/** The definition of every per-request figure (docs/reference/metrics.md "Timing milestones"). */
export const SAMPLE_FIGURES: Readonly<Record<LatencyFigure, SampleFigure>> = {
  headers_ms: ms('status and headers received', (_f, headers) => headers),
  ttfp_ms: ms('first part (TTFP)', (f) => f.ttfp_ms),
  ttft_ms: ms('first answer token (TTFT)', (f) => f.ttft_ms),
  first_citation_ms: ms('first citation_info', (f) => f.first_citation_ms),
  total_ms: ms('end of the body (or of the model)', (f) => f.total_ms),
  time_per_delta_ms: ms(
    'time per answer delta after the first (a delta may hold several tokens; was tpot_ms)',
    (f) => f.time_per_delta_ms,
  ),
  first_search_documents_ms: ms('first search documents', (f) => packetAt(f, 'search_tool_documents_delta')),
  message_start_ms: ms('message_start (the answer begins)', (f) => packetAt(f, 'message_start')),
  first_reasoning_ms: ms('first reasoning', (f) => packetAt(f, 'reasoning_start', 'reasoning_delta')),
  pre_answer_processing_seconds: {
    unit: 's',
    higherIsBetter: false,
    label: "the service's own pre-answer time",
    read: (f) => f.pre_answer_processing_seconds ?? null,
  },
  output_chars_per_s: {
    unit: 'chars/s',
    higherIsBetter: true,
    label: 'answer characters per second after the first delta',
    read: (f) => f.output_chars_per_s ?? null,
  },
  // Token figures (tokens/figures.ts): counted when the reports are built; null for a cut answer.
  output_tokens: {
    unit: 'tokens',
    higherIsBetter: true,
    label: "output tokens of the answer (the set's encoding; an estimate for a model not OpenAI's)",
    read: (f) => f.output_tokens ?? null,
  },
  output_tokens_per_s: {
    unit: 'tokens/s',
    higherIsBetter: true,
    label: 'output tokens per second of the request (GuideLLM: tokens / latency)',
    read: (f) => f.output_tokens_per_s ?? null,
  },
  tpot_per_token_ms: ms(
    'time per output token after the first (TPOT, vLLM: (total - TTFT) / (tokens - 1))',
    (f) => f.tpot_per_token_ms ?? null,
  ),
};

/**
 * Old figure names still read in gates, SLOs and summaries, and where each went: `tpot_ms` was the
 * time per stream delta, not per token (issue 27 §6).
 */
export const FIGURE_ALIASES: Readonly<Record<string, LatencyFigure | PooledFigure>> = {
  tpot_ms: 'time_per_delta_ms',
  // ITL is what GuideLLM and `vllm bench serve` call it; summary.json keys it `answer_gap_ms`.
  itl_ms: 'answer_gap_ms',
};

/**
 * Latency figures pooled over gaps, not one sample per request: `answer_gap_ms` is the ITL (every
 * gap between successive answer deltas of the group's `ok` requests, one sample each, as `vllm
 * bench serve` defines it; summary.json's group `answer_gap_ms`, a load window's
 * `latency.answer_gap_ms`). Gated and shown with a statistic like the per-request latencies; a
 * comparison's delta has no per-request samples to test, so a gate on it names a value.
 */
export const POOLED_FIGURES = ['answer_gap_ms'] as const;
export type PooledFigure = (typeof POOLED_FIGURES)[number];
/** Whether `name` (without `.stat`) is a pooled latency figure. */
export const isPooledFigure = (name: string): name is PooledFigure =>
  (POOLED_FIGURES as readonly string[]).includes(name);

/** A figure name with an old base name replaced by its new one (`tpot_ms.p95` → `time_per_delta_ms.p95`). */
export function currentFigureName(name: string): string {
  const [base = name, ...rest] = name.split('.');
  const now = Object.hasOwn(FIGURE_ALIASES, base) ? FIGURE_ALIASES[base] : undefined;
  return now === undefined ? name : [now, ...rest].join('.');
}

/** A per-request figure's value of one answer; null when absent or not finite. */
export function sampleValue(figure: LatencyFigure, figures: SampleSource, headersMs: number | null): number | null {
  const value = SAMPLE_FIGURES[figure].read(figures, headersMs);
  return value !== null && Number.isFinite(value) ? value : null;
}

/** Every numeric score of ScoresSchema (the ones `scores` averages), in schema order. */
export const SCORE_NAMES: readonly ScoreName[] = (Object.keys(ScoresSchema.shape) as (keyof Scores)[]).filter(
  // A numeric score accepts 0; the booleans and phrase lists do not.
  (key): key is ScoreName => ScoresSchema.shape[key].safeParse(0).success,
);

/** The latency statistics a gate or a comparison can name (LatencyStats keys). */
export const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99', 'p99_9', 'mean', 'max'] as const;
export type LatencyStat = (typeof LATENCY_STATS)[number];

/** Shares of requests: of a group's requests, or of one question's tries. */
export const RATE_FIGURES = ['pass_rate', 'ok_rate', 'error_rate', 'rate_limited_rate'] as const;
/** Shares of questions across repeats (metrics/repeats). */
export const REPEAT_FIGURES = ['pass_at_n', 'pass_all_n', 'flaky_rate'] as const;
/** Shares of the answers a person reviewed (reviews.jsonl, records/review): N/A where nothing was reviewed. */
export const REVIEW_FIGURES = ['human_pass_rate'] as const;
/**
 * Shares of a group's conversations (metrics/conversations): a conversation passes when every
 * turn passed. N/A in a run without conversations. Paired between runs by conversation.
 */
export const CONVERSATION_FIGURES = ['conversation_pass_rate'] as const;
/**
 * The judge's asks that ended without a verdict, as a share of its asks (records/summary
 * JudgeAsksShape): N/A without a judge. `--max-judge-error-rate` gates on it.
 */
export const JUDGE_HEALTH_FIGURES = ['judge_error_rate'] as const;
export type RateFigure =
  | (typeof RATE_FIGURES)[number]
  | (typeof REPEAT_FIGURES)[number]
  | (typeof REVIEW_FIGURES)[number]
  | (typeof CONVERSATION_FIGURES)[number]
  | (typeof JUDGE_HEALTH_FIGURES)[number];

/**
 * Per-turn figures: every figure of this catalogue exists for each turn number of a run's
 * conversations (summary.json `by_turn`; the gate scope `turn:N`, figures/grammar.ts), so that
 * the quality and the time to the first token can be read, compared and gated by depth. The tool
 * figures (`tool_assertion`, `tool_precision`) are scores of records/scores.ts, so they are here
 * like every score.
 */
export const TURN_SCOPE = 'turn' as const;

export type { ScoreName };

/** A figure known per question (compared pairwise), or a per-request figure with a statistic ('latency': compared by its samples). */
export type FigureKind = 'score' | 'rate' | 'latency';

/** The scores and rates the table shows by default (compare.json carries every score). */
export const HEADLINE_FIGURES: readonly (ScoreName | RateFigure)[] = [
  'citation_precision',
  'citation_recall',
  'citation_f1',
  'reciprocal_rank',
  'ndcg_at_5',
  'retrieval_recall_at_5',
  'pass_rate',
  'ok_rate',
  'error_rate',
  'rate_limited_rate',
];
/**
 * The answer-quality scores a comparison shows when either run has them (docs/reference/metrics.md "Answer
 * quality"): without reference answers or a judge they do not exist, and a row of n/a says nothing.
 */
export const QUALITY_HEADLINE: readonly ScoreName[] = [
  'answer_f1',
  'correctness',
  'groundedness',
  'relevance',
  'rubric',
];

/** The latency rows the table shows by default (compare.json carries every figure × statistic). */
export const HEADLINE_LATENCY: readonly `${LatencyFigure}.${LatencyStat}`[] = [
  'ttfp_ms',
  'ttft_ms',
  'total_ms',
].flatMap((f) => ['p50', 'p95', 'p99'].map((s) => `${f}.${s}` as `${LatencyFigure}.${LatencyStat}`));

const SCORE_SET: ReadonlySet<string> = new Set(SCORE_NAMES);
const RATE_SET: ReadonlySet<string> = new Set<string>([
  ...RATE_FIGURES,
  ...REPEAT_FIGURES,
  ...REVIEW_FIGURES,
  ...CONVERSATION_FIGURES,
  ...JUDGE_HEALTH_FIGURES,
]);
const LATENCY_SET: ReadonlySet<string> = new Set<string>([...LATENCY_FIGURES, ...POOLED_FIGURES]);
/** Counts of bad things: a fall is an improvement. */
const LOWER_IS_BETTER: ReadonlySet<string> = new Set([
  'duplicate_citations',
  'invalid_citations',
  'error_rate',
  'rate_limited_rate',
  'flaky_rate',
  'judge_error_rate',
]);

/** The kind of a base figure name (without `.stat`); undefined for an unknown name. */
export function figureKind(name: string): FigureKind | undefined {
  if (SCORE_SET.has(name)) return 'score';
  if (RATE_SET.has(name)) return 'rate';
  if (LATENCY_SET.has(name)) return 'latency';
  return undefined;
}

/** Every base figure name a gate accepts, for "did you mean". */
export const FIGURE_NAMES: readonly string[] = [
  ...SCORE_NAMES,
  ...RATE_FIGURES,
  ...REPEAT_FIGURES,
  ...REVIEW_FIGURES,
  ...CONVERSATION_FIGURES,
  ...JUDGE_HEALTH_FIGURES,
  ...LATENCY_FIGURES,
  ...POOLED_FIGURES,
];

/** Which way is good: latencies and counts of bad things should fall, everything else (output characters per second too) rise. */
export function higherIsBetter(name: string): boolean {
  const base = name.split('.')[0] ?? name;
  if (isPooledFigure(base)) return false;
  if (LATENCY_SET.has(base)) return SAMPLE_FIGURES[base as LatencyFigure].higherIsBetter;
  return !LOWER_IS_BETTER.has(base);
}

/**
 * The figures of the user's checks (`--checks FILE.mjs`, one per named export): per-question
 * scores, higher is better (a check says what is good), compared pairwise and gated like any score.
 * In the shape the gate grammar takes its extra figures.
 */
export function checkFigures(names: readonly string[]): Readonly<Record<string, FigureKind>> {
  return Object.fromEntries(names.map((name) => [name, 'score' as const]));
}

/**
 * @module metrics/group-figures
 * The streaming accumulator behind one summary group (or one category of it). It keeps numbers
 * only — latency samples, score values as value → count multisets, counters — never answers, and
 * everything it reports is independent of the order the observations came in.
 */
import type { AnswerFigures, Outcome } from '../records/record.js';
import type { Judgement } from '../records/quality.js';
import { SCORE_NAMES, sampleValue, type SampleSource } from '../figures/catalogue.js';
import type { ScoreName, Scores } from '../records/scores.js';
import { emptyOutcomeCounts, LATENCY_FIGURES, type GroupFigures, type LatencyFigure } from '../records/summary.js';
import { createPooledLatency, type PooledLatency } from './pooled-latency.js';
import { clusteredMean, clusteredProportionOfCounts } from './clustered.js';
import type { QuestionIndex } from './question-index.js';
import { createQuestionStates, unionOfQuestionStates, type QuestionStates } from './question-states.js';
import {
  createNumberSample,
  latencyStatsOfSorted,
  meanEstimateOfCounts,
  proportionEstimate,
  SortedValues,
  type NumberSample,
} from './stats.js';

/** One answer as a group sees it: a whole request, or one model of a multi-model request. */
export interface Observation {
  figures: Pick<AnswerFigures, 'outcome' | 'answer_gaps_ms' | 'scores' | 'judge' | 'checks'> &
    SampleSource & { tool_errors?: number };
  /** The request's headers_ms (shared by every model of a stream). */
  headers_ms: number | null;
  expects_documents: boolean;
  passed: boolean;
  /** The pass tested something the question expects (metrics/pass recordChecked); unchecked answers are left out of pass_rate. */
  checked: boolean;
  /** A person's verdict on the answer (reviews.jsonl): true pass, false fail, undefined not reviewed. */
  human?: boolean | undefined;
  /**
   * The question the answer is to (its cluster), as the pass's integer (metrics/question-index):
   * the repeats of a question are one sample of the quality figures, not N (metrics/clustered).
   */
  question: number;
}

/** Accumulates observations; `figures()` may be called at any time, but no ok observation may follow it (its latencies are sorted then). */
export interface FigureAccumulator {
  add(observation: Observation): void;
  /** `durationS`: the run's duration, for output_throughput_tokens_per_s (absent: null). */
  figures(durationS?: number | null): GroupFigures;
  /**
   * The values of a figure over its ok answers, ascending, kept as they were pushed (4 bytes a
   * whole microsecond): the one copy the summary, the run's data (compare/run-data) and report.html's
   * CDFs read. The first call of a figure (or of `figures()`) sorts its sample into them; adding an
   * ok observation after it is an error.
   */
  sortedLatency(figure: LatencyFigure): SortedValues;
  /** Its questions' states (metrics/question-states): what an accumulator of parts reads of them. */
  readonly questions: QuestionStates;
}

/**
 * Creates an empty accumulator. `ids`: the pass's question ids, whose integers the observations
 * carry. `parts`: accumulators that together take every observation this one takes (a summary
 * group's categories); its latency figures and its questions' states are then those of their
 * samples together, and it keeps none of its own: a second copy of every latency value, ~20 MB of
 * a million-request run whose records are all of one category, and of every question's rows and
 * coded values (metrics/question-states).
 *
 * The samples are sorted once, in place, into the values `sortedLatency` gives: the statistics
 * read them by rank, never as a second array of doubles (8 bytes a value per figure, garbage
 * right after: some 40 MB at the end of a million-request run's pass).
 */
export function createFigureAccumulator(options: {
  ids: Pick<QuestionIndex, 'at' | 'size'>;
  parts?: () => readonly FigureAccumulator[];
}): FigureAccumulator {
  const { ids, parts } = options;
  let requests = 0;
  let passed = 0;
  let checkedRequests = 0;
  let noExpectation = 0;
  let invalid = 0;
  let duplicates = 0;
  let reviewed = 0;
  let good = 0;
  let toolErrors = 0;
  const outcomes: Record<Outcome, number> = emptyOutcomeCounts();
  const latency = Object.fromEntries(LATENCY_FIGURES.map((f) => [f, createNumberSample()])) as Record<
    LatencyFigure,
    NumberSample
  >;
  let sorted: Partial<Record<LatencyFigure, SortedValues>> | null = null;
  const sortedLatency = (figure: LatencyFigure): SortedValues => {
    sorted ??= {};
    return (sorted[figure] ??=
      parts === undefined
        ? latency[figure].sortedValues()
        : SortedValues.union(parts().map((part) => part.sortedLatency(figure))));
  };
  let gaps: PooledLatency | null = null;
  let outputTokens: number | null = null;
  const scores = new Map<ScoreName, Map<number, number>>(SCORE_NAMES.map((name) => [name, new Map()]));
  /** The user checks' figures by name (their means follow the catalogue's scores, names sorted). */
  const checks = new Map<string, Map<number, number>>();
  const errors = new Map<string, number>();
  const judgeAsks = createJudgeAskCounter();
  // Per question: its passes and its score values (the quality figures' clusters,
  // metrics/question-states); a group's are its categories' together (`parts`), not a copy.
  const own = parts === undefined ? createQuestionStates(ids) : null;
  const states: QuestionStates =
    own ??
    unionOfQuestionStates(
      () => parts!().map((p) => p.questions),
      () => ids.size,
    );
  const scoreMean = (name: string) => clusteredMean(states.clusters(name));
  const clusterScore = (name: string, question: number, value: number | null | undefined) => {
    if (value === null || value === undefined || !Number.isFinite(value)) return;
    own?.addValue(name, question, value);
  };

  const count = (counts: Map<number, number>, value: number | null) => {
    if (value !== null && Number.isFinite(value)) counts.set(value, (counts.get(value) ?? 0) + 1);
  };
  const addScores = (s: Scores, question: number) => {
    for (const name of SCORE_NAMES) {
      count(scores.get(name)!, s[name]);
      clusterScore(name, question, s[name]);
    }
  };
  const addQuality = (f: Observation['figures'], question: number) => {
    judgeAsks.add(f.judge);
    for (const [name, verdict] of Object.entries(f.judge?.verdicts ?? {})) {
      if (verdict?.status === 'judge_error') errors.set(name, (errors.get(name) ?? 0) + 1);
    }
    for (const [name, result] of Object.entries(f.checks)) {
      let counts = checks.get(name);
      if (counts === undefined) checks.set(name, (counts = new Map()));
      if (result.error !== null) errors.set(name, (errors.get(name) ?? 0) + 1);
      else {
        count(counts, result.score);
        clusterScore(name, question, result.score);
      }
    }
  };

  return {
    sortedLatency,
    questions: states,
    add({ figures, headers_ms, expects_documents, passed: didPass, checked, human, question }) {
      requests += 1;
      own?.add(question, checked, didPass);
      if (human !== undefined) {
        reviewed += 1;
        if (human) good += 1;
      }
      outcomes[figures.outcome] += 1;
      if (checked) {
        checkedRequests += 1;
        if (didPass) passed += 1;
      }
      if (!expects_documents) noExpectation += 1;
      toolErrors += figures.tool_errors ?? 0;
      if (figures.scores !== null) {
        invalid += figures.scores.invalid_citations;
        duplicates += figures.scores.duplicate_citations;
      }
      // Failed requests are counted by outcome only: never mixed into latencies or score means.
      if (figures.outcome !== 'ok') return;
      if (sorted !== null)
        throw new Error('metrics/group-figures: an observation added after its latencies were sorted');
      if (parts === undefined) {
        for (const figure of LATENCY_FIGURES) {
          const value = sampleValue(figure, figures, headers_ms);
          if (value !== null) latency[figure].push(value);
        }
      }
      for (const gap of figures.answer_gaps_ms) (gaps ??= createPooledLatency()).record(gap);
      if (typeof figures.output_tokens === 'number') outputTokens = (outputTokens ?? 0) + figures.output_tokens;
      if (figures.scores !== null) addScores(figures.scores, question);
      addQuality(figures, question);
    },
    figures(durationS = null) {
      // Read once: a group's is its categories' together (metrics/question-states), worked out when read.
      const repeated = states.repeated;
      return {
        requests,
        outcomes: { ...outcomes },
        latency: Object.fromEntries(
          LATENCY_FIGURES.map((f) => [f, latencyStatsOfSorted(sortedLatency(f))]),
        ) as GroupFigures['latency'],
        answer_gap_ms: gaps?.stats() ?? null,
        // Without repeats the multisets give the same intervals as the clusters, from less memory traffic.
        scores: Object.fromEntries([
          ...SCORE_NAMES.map(
            (name) => [name, repeated ? scoreMean(name) : meanEstimateOfCounts(scores.get(name) ?? new Map())] as const,
          ),
          ...[...checks]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([name, counts]) => [name, repeated ? scoreMean(name) : meanEstimateOfCounts(counts)] as const),
        ]),
        // Over the checked answers only: null ("not checked") when there is none, never 100%.
        pass_rate: repeated
          ? clusteredProportionOfCounts(states.passCounts())
          : proportionEstimate(passed, checkedRequests),
        // A question some of whose answers were checked (a --pass condition that applied to some) is checked.
        unchecked_questions: states.uncheckedQuestions(),
        ...(reviewed > 0 ? { human_pass_rate: proportionEstimate(good, reviewed) } : {}),
        no_expectation: noExpectation,
        invalid_citations: invalid,
        duplicate_citations: duplicates,
        tool_errors: toolErrors,
        figure_errors: Object.fromEntries([...errors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
        output_tokens_total: outputTokens,
        output_throughput_tokens_per_s:
          outputTokens !== null && durationS !== null && durationS > 0
            ? Math.round((outputTokens / durationS) * 100) / 100
            : null,
        ...judgeAsks.figures(),
      };
    },
  };
}

/** The judge's asks and those without a verdict (records/summary JudgeAsksShape), counted from the answers' judgements. */
export function createJudgeAskCounter() {
  let asks = 0;
  let failed = 0;
  return {
    add(judge: Judgement | null): void {
      for (const verdict of Object.values(judge?.verdicts ?? {})) {
        if (verdict === undefined) continue;
        asks += verdict.asks.length;
        failed += verdict.asks.filter((a) => a === null).length;
      }
    },
    figures: () => ({
      judge_asks: asks,
      judge_failed_asks: failed,
      judge_error_rate: asks === 0 ? null : failed / asks,
    }),
  };
}

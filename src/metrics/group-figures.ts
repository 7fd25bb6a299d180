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
import { createScoreClusters } from './score-clusters.js';
import { BLOCK_ROWS, createCodedValues } from './coded-values.js';
import type { QuestionIndex } from './question-index.js';
import { QuestionRows } from './question-rows.js';
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
}

/**
 * Creates an empty accumulator. `ids`: the pass's question ids, whose integers the observations
 * carry. `latencyFrom`: accumulators that together take every observation
 * this one takes (a summary group's categories); its latency figures are then those of their
 * samples together, and it keeps none of its own: a second copy of every latency value, ~20 MB
 * of a million-request run whose records are all of one category.
 *
 * The samples are sorted once, in place, into the values `sortedLatency` gives: the statistics
 * read them by rank, never as a second array of doubles (8 bytes a value per figure, garbage
 * right after: some 40 MB at the end of a million-request run's pass).
 */
export function createFigureAccumulator(options: {
  ids: Pick<QuestionIndex, 'at'>;
  latencyFrom?: () => readonly FigureAccumulator[];
}): FigureAccumulator {
  const { ids, latencyFrom } = options;
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
      latencyFrom === undefined
        ? latency[figure].sortedValues()
        : SortedValues.union(latencyFrom().map((part) => part.sortedLatency(figure))));
  };
  let gaps: PooledLatency | null = null;
  let outputTokens: number | null = null;
  const scores = new Map<ScoreName, Map<number, number>>(SCORE_NAMES.map((name) => [name, new Map()]));
  /** The user checks' figures by name (their means follow the catalogue's scores, names sorted). */
  const checks = new Map<string, Map<number, number>>();
  const errors = new Map<string, number>();
  const judgeAsks = createJudgeAskCounter();
  // Per question, at its row: its passes and its score values (the quality figures' clusters,
  // metrics/clustered). One index of rows a question for both (metrics/question-rows, by the
  // question's integer: 4 bytes a question where a map keyed by its id took ~35); passes as two
  // counts (not a value per try: exact, and a question's cost, not a request's) and whether an
  // answer of it was not checked, in columns (metrics/coded-values: a byte a question while the
  // counts are small). A map entry and an object a question, in every group and category, cost a
  // run of distinct questions some 150 bytes a question each.
  const rows = new QuestionRows();
  const triesOf = createCodedValues();
  const passesOf = createCodedValues();
  const uncheckedOf = createCodedValues();
  // Score values per question (metrics/score-clusters): a column per figure, a cluster only for a question asked again.
  const scoreClusters = createScoreClusters(BLOCK_ROWS, rows, ids);
  let repeated = false;
  const scoreMean = (name: string) => clusteredMean(scoreClusters.clusters(name));
  /** Per question with a checked answer, its passes and tries. */
  const passCounts = (): Map<string, { passed: number; tries: number }> => {
    const counts = new Map<string, { passed: number; tries: number }>();
    rows.forEach((question, row) => {
      const tries = triesOf.at(row);
      if (!Number.isNaN(tries)) counts.set(ids.at(question), { passed: passesOf.at(row), tries });
    });
    return counts;
  };
  const uncheckedQuestions = (): number => {
    let count = 0;
    for (let row = 0; row < rows.size; row += 1)
      if (!Number.isNaN(uncheckedOf.at(row)) && Number.isNaN(triesOf.at(row))) count += 1;
    return count;
  };
  const clusterScore = (name: string, question: number, value: number | null | undefined) => {
    if (value === null || value === undefined || !Number.isFinite(value)) return;
    if (scoreClusters.add(name, question, value)) repeated = true;
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
    add({ figures, headers_ms, expects_documents, passed: didPass, checked, human, question }) {
      requests += 1;
      if (rows.rowOf(question) !== -1) repeated = true;
      const row = rows.add(question);
      if (!checked) uncheckedOf.set(row, 1);
      else {
        const tries = triesOf.at(row);
        triesOf.set(row, Number.isNaN(tries) ? 1 : tries + 1);
        passesOf.set(row, (Number.isNaN(tries) ? 0 : passesOf.at(row)) + (didPass ? 1 : 0));
      }
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
      if (latencyFrom === undefined) {
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
        pass_rate: repeated ? clusteredProportionOfCounts(passCounts()) : proportionEstimate(passed, checkedRequests),
        // A question some of whose answers were checked (a --pass condition that applied to some) is checked.
        unchecked_questions: uncheckedQuestions(),
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

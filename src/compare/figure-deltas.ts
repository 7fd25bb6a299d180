/**
 * @module compare/figure-deltas
 * The rows of one group's comparison: every score, rate and repeat figure compared pairwise over
 * the questions both runs have, and every latency figure × statistic compared by resampling each
 * run's ok samples. Each row carries its own test (interval, p-value) when it has enough values
 * (figures/min-samples); whether it is in the list of significant changes is decided afterwards,
 * over every row of every group at once (compare.ts, fdr.ts).
 */
import { latencyIntervals, pairedMeanInterval, type Interval } from './bootstrap.js';
import {
  CONVERSATION_FIGURES,
  HEADLINE_FIGURES,
  JUDGE_HEALTH_FIGURES,
  HEADLINE_LATENCY,
  LATENCY_FIGURES,
  LATENCY_STATS,
  QUALITY_HEADLINE,
  RATE_FIGURES,
  REPEAT_FIGURES,
  REVIEW_FIGURES,
  SCORE_NAMES,
  higherIsBetter,
  type LatencyStat,
} from '../figures/catalogue.js';
import { MIN_MEAN_SAMPLES, minSamples, minSamplesJson } from '../figures/min-samples.js';
import { questionValue } from '../metrics/question-value.js';
import { normalTwoSidedP, pairedTTestP } from '../metrics/stats.js';
import { Sfc32 } from './prng.js';
import { groupKeyString, groupValue, type GroupData, type GroupKey, type RunData } from './run-data.js';
import type { Direction, FigureDelta } from './schema.js';

export interface DeltaOptions {
  seed: number;
  resamples: number;
  /** Either run had repeats: the repeat figures are headline figures. */
  repeats: boolean;
  /** The user checks' figures of either run: headline figures when a side has them. */
  checks?: readonly string[];
}

/** One side of the comparison of one group. */
export interface Side {
  run: RunData;
  key: GroupKey;
  data: GroupData;
}

function direction(delta: number | null, higherBetter: boolean): Direction {
  if (delta === null) return null;
  if (delta === 0) return 'same';
  return delta > 0 === higherBetter ? 'better' : 'worse';
}

const excludes = (ci: Interval | null, value: number) => ci !== null && (ci.low > value || ci.high < value);

const HEADLINE: ReadonlySet<string> = new Set<string>([...HEADLINE_FIGURES, ...HEADLINE_LATENCY]);
const REPEATS: ReadonlySet<string> = new Set<string>(REPEAT_FIGURES);
const REVIEWS: ReadonlySet<string> = new Set<string>(REVIEW_FIGURES);
const QUALITY: ReadonlySet<string> = new Set<string>(QUALITY_HEADLINE);
/** Figures that head the table once either run has them: conversations, tool assertions. */
const WHEN_PRESENT: ReadonlySet<string> = new Set<string>([...CONVERSATION_FIGURES, 'tool_assertion']);

function base(
  figure: string,
  kind: FigureDelta['kind'],
  baseline: number | null,
  current: number | null,
  options: DeltaOptions,
) {
  const delta = baseline === null || current === null ? null : current - baseline;
  const higher = higherIsBetter(figure);
  return {
    figure,
    kind,
    higher_is_better: higher,
    // human_pass_rate heads the table once either run has reviews; answer quality, the checks, conversations and tool assertions once either has them.
    headline:
      HEADLINE.has(figure) ||
      (options.repeats && REPEATS.has(figure)) ||
      ((REVIEWS.has(figure) ||
        QUALITY.has(figure) ||
        WHEN_PRESENT.has(figure) ||
        (options.checks ?? []).includes(figure)) &&
        (baseline !== null || current !== null)),
    baseline,
    current,
    delta,
    relative: delta === null || baseline === 0 || baseline === null ? null : delta / Math.abs(baseline),
    ratio: baseline === null || current === null || baseline === 0 ? null : current / baseline,
    direction: direction(delta, higher),
  };
}

/** A score or rate: paired over the questions where both runs have a value. */
function pairedDelta(b: Side, c: Side, figure: string, kind: 'score' | 'rate', options: DeltaOptions): FigureDelta {
  const diffs: number[] = [];
  let nBase = 0;
  let nCur = 0;
  for (const [id, cq] of c.data.questions) {
    const cv = questionValue(cq, figure);
    if (cv !== null) nCur += 1;
    const bq = b.data.questions.get(id);
    const bv = bq === undefined ? null : questionValue(bq, figure);
    if (cv !== null && bv !== null) diffs.push(cv - bv);
  }
  for (const bq of b.data.questions.values()) if (questionValue(bq, figure) !== null) nBase += 1;
  const random = new Sfc32(`${options.seed}|${groupKeyString(c.key)}|${figure}`);
  const ci = pairedMeanInterval(diffs, options.resamples, random);
  const enough = diffs.length >= MIN_MEAN_SAMPLES;
  return {
    ...base(figure, kind, groupValue(b.run, b.key, figure), groupValue(c.run, c.key, figure), options),
    ci,
    ratio_ci: null,
    n_baseline: nBase,
    n_current: nCur,
    n_paired: diffs.length,
    min_n: MIN_MEAN_SAMPLES,
    enough_samples: enough,
    p_value: enough ? pairedTTestP(diffs) : null,
    q_value: null,
    significant: false,
    significant_alone: enough && excludes(ci, 0),
    timing_uncertainty_ms: null,
  };
}

/**
 * The p-value of a latency statistic's change: the difference over its bootstrap standard error,
 * two-sided against the normal distribution. No spread at all (every resample gave the same
 * difference) → 1 for no difference, else 0.
 */
function latencyP(delta: number | null, se: number | undefined): number | null {
  if (delta === null || se === undefined) return null;
  if (!(se > 0)) return delta === 0 ? 1 : 0;
  return normalTwoSidedP(delta / se);
}

/**
 * How much of a latency change the generators' own lateness could explain: every timestamp of a
 * run is late by at most its event-loop delay's max (and never early), so a statistic moves by at
 * most that much. Slower: the current run's max; faster: the baseline's. null when not measured.
 */
function timingUncertainty(baseline: RunData, current: RunData, delta: number | null): number | null {
  const late = (delta ?? 0) >= 0 ? current.loop_delay_ms : baseline.loop_delay_ms;
  return late === null ? null : late.max;
}

/** Every latency statistic of every latency figure, resampling each side on its own. */
function latencyDeltas(b: Side, c: Side, options: DeltaOptions): FigureDelta[] {
  return LATENCY_FIGURES.flatMap((figure) => {
    const bs = b.data.latency[figure];
    const cs = c.data.latency[figure];
    const random = new Sfc32(`${options.seed}|${groupKeyString(c.key)}|${figure}`);
    const intervals = latencyIntervals(bs.toFloat64(), cs.toFloat64(), options.resamples, random);
    return LATENCY_STATS.map((stat: LatencyStat): FigureDelta => {
      const iv = intervals?.[stat] ?? null;
      const min = minSamples(stat);
      const enough = bs.length >= min && cs.length >= min;
      const row = base(
        `${figure}.${stat}`,
        'latency',
        groupValue(b.run, b.key, figure, stat),
        groupValue(c.run, c.key, figure, stat),
        options,
      );
      const uncertainty = timingUncertainty(b.run, c.run, row.delta);
      const beyond = uncertainty === null || row.delta === null || Math.abs(row.delta) > uncertainty;
      return {
        ...row,
        ci: iv?.delta ?? null,
        ratio_ci: iv?.ratio ?? null,
        n_baseline: bs.length,
        n_current: cs.length,
        n_paired: null,
        min_n: minSamplesJson(min),
        enough_samples: enough,
        p_value: enough ? latencyP(row.delta, iv?.se) : null,
        q_value: null,
        significant: false,
        significant_alone: enough && beyond && excludes(iv?.delta ?? null, 0),
        timing_uncertainty_ms: uncertainty,
      };
    });
  });
}

/** Every figure of the catalogue for one matched group: scores, rates, repeat figures, then latencies. */
export function figureDeltas(b: Side, c: Side, options: DeltaOptions): FigureDelta[] {
  return [
    ...[...SCORE_NAMES, ...(options.checks ?? [])].map((name) => pairedDelta(b, c, name, 'score', options)),
    ...[...RATE_FIGURES, ...REPEAT_FIGURES, ...REVIEW_FIGURES, ...CONVERSATION_FIGURES, ...JUDGE_HEALTH_FIGURES].map(
      (name) => pairedDelta(b, c, name, 'rate', options),
    ),
    ...latencyDeltas(b, c, options),
  ];
}

/**
 * @module history/figures
 * The headline figures of a run, read from what the run wrote (summary.json, capacity.json), never
 * recomputed: per set × mode for an eval, of the measured window for a load, per step for a
 * capacity search. Pure. Latency figures are `<figure>.<stat>` (`ttft_ms.p95`) as gates name them.
 */
import { LATENCY_FIGURES, LATENCY_STATS, REPEAT_FIGURES } from '../figures/catalogue.js';
import type { CapacityResult, LoadSummary } from '../records/load-summary.js';
import type { Group, LatencyStats, MeanEstimate, Summary } from '../records/summary.js';
import type { FigureRow } from './schema.js';

type Place = Pick<FigureRow, 'set_name' | 'mode' | 'step'>;

const estimate = (place: Place, figure: string, e: MeanEstimate | null | undefined): FigureRow[] =>
  e ? [{ ...place, figure, value: e.mean, ci_low: e.ci_low, ci_high: e.ci_high, n: e.n }] : [];

const plain = (place: Place, figure: string, value: number | null | undefined, n: number | null = null): FigureRow[] =>
  value === null || value === undefined ? [] : [{ ...place, figure, value, ci_low: null, ci_high: null, n }];

/** Every stat of one latency distribution; n is its count (percentiles carry no interval in summary.json). */
function latency(place: Place, name: string, stats: LatencyStats | null | undefined): FigureRow[] {
  if (!stats) return [];
  return LATENCY_STATS.flatMap((stat) => plain(place, `${name}.${stat}`, stats[stat], stats.count));
}

function groupFigures(group: Group): FigureRow[] {
  const place: Place = {
    set_name: group.model_name === null ? group.set : `${group.set}/${group.model_name}`,
    mode: group.mode,
    step: null,
  };
  return [
    ...Object.entries(group.scores).flatMap(([name, e]) => estimate(place, name, e)),
    ...estimate(place, 'pass_rate', group.pass_rate),
    ...estimate(place, 'human_pass_rate', group.human_pass_rate),
    ...estimate(place, 'conversation_pass_rate', group.conversations?.pass_rate),
    ...REPEAT_FIGURES.flatMap((name) => estimate(place, name, group.repeats?.[name])),
    ...LATENCY_FIGURES.flatMap((name) => latency(place, name, group.latency[name])),
    ...plain(place, 'requests', group.requests),
  ];
}

export const evalFigures = (summary: Summary): FigureRow[] => summary.groups.flatMap(groupFigures);

/** A load's measured window: its rates, shares and latencies. */
export function loadFigures(summary: LoadSummary): FigureRow[] {
  const place: Place = { set_name: summary.run.set, mode: summary.run.mode, step: null };
  const w = summary.windows.measured;
  return [
    ...Object.entries(w.rates).flatMap(([name, v]) => plain(place, `${name}_per_s`, v, w.sent)),
    ...Object.entries(w.shares).flatMap(([name, v]) => plain(place, name, v, w.sent)),
    ...Object.entries(w.latency).flatMap(([name, stats]) => latency(place, name, stats)),
    ...plain(place, 'requests', w.sent),
  ];
}

const STEP_FIGURES = [
  'offered_rate',
  'sent_rate',
  'ok_rate_per_s',
  'goodput',
  'rate_limited_rate',
  'error_rate',
  'ttft_p50_ms',
  'ttft_p95_ms',
  'tpot_per_token_p50_ms',
  'output_tokens_per_s',
  'ttfp_p50_ms',
  'ttfp_p95_ms',
  'total_p95_ms',
  'response_p95_ms',
] as const;

/** A capacity search: the sustainable target and knee, and each step's figures. */
export function capacityFigures(result: CapacityResult): FigureRow[] {
  const run: Place = { set_name: '', mode: '', step: null };
  return [
    ...plain(run, 'sustainable', result.sustainable),
    ...plain(run, 'knee', result.knee),
    ...result.steps.flatMap((s) =>
      STEP_FIGURES.flatMap((name) => plain({ set_name: '', mode: '', step: s.index }, name, s[name])),
    ),
  ];
}

/**
 * @module compare/format-delta
 * How a comparison prints a figure, its change and the change's interval. Depends on nothing but
 * reports/format, so the viewer's browser bundle prints deltas with the same code as compare.md.
 */
import { formatMs, formatPct, formatScore, NA } from '../reports/format.js';
import type { FigureDelta } from './schema.js';

const signed = (text: string, value: number) =>
  value > 0 ? `+${text}` : value < 0 && !text.startsWith('-') ? `-${text}` : text;

/**
 * The unit of a per-request figure by its name, as figures/catalogue's SAMPLE_FIGURES gives it
 * (this module stays dependency-free for the viewer's bundle): chars/s, seconds, else ms.
 */
const sampleUnit = (figure: string | undefined): 'chars/s' | 's' | 'ms' =>
  figure?.startsWith('output_chars_per_s')
    ? 'chars/s'
    : figure?.startsWith('pre_answer_processing_seconds')
      ? 's'
      : 'ms';

function formatSample(figure: string | undefined, value: number): string {
  const unit = sampleUnit(figure);
  if (unit === 'chars/s')
    return `${Math.abs(value) < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} chars/s`;
  if (unit === 's') return `${value.toFixed(2)} s`;
  return formatMs(value);
}

/** A figure's value: scores with 3 decimals, rates as percentages, per-request figures in their unit (ms, chars/s, s). */
export function formatValue(f: Pick<FigureDelta, 'kind'> & { figure?: string }, value: number | null): string {
  if (value === null) return NA;
  if (f.kind === 'latency') return formatSample(f.figure, value);
  if (f.kind === 'rate') return formatPct(value);
  return formatScore(value);
}

/** A change: scores ±0.081, rates in percentage points (±5.0 pts), latencies ±118 ms. */
export function formatDelta(f: Pick<FigureDelta, 'kind'> & { figure?: string }, value: number | null): string {
  if (value === null) return NA;
  if (f.kind === 'latency') return signed(formatSample(f.figure, Math.abs(value)), value);
  if (f.kind === 'rate') return `${signed(Math.abs(value * 100).toFixed(1), value)} pts`;
  return signed(Math.abs(value).toFixed(3), value);
}

/** The relative change as a signed percentage, one decimal. */
export const formatRelative = (value: number | null): string =>
  value === null ? NA : `${signed(Math.abs(value * 100).toFixed(1), value)}%`;

/** "n = 75 / 80" (latency: each side's ok samples) or "n = 4" (paired questions). */
export function formatSamples(f: Pick<FigureDelta, 'kind' | 'n_baseline' | 'n_current' | 'n_paired'>): string {
  return f.n_paired === null ? `n = ${f.n_baseline} / ${f.n_current}` : `n = ${f.n_paired}`;
}

/** Why a row was not tested: "too few: n = 75 / 80, a p95 needs 200 on each side"; undefined when it was. */
export function fewSamplesText(f: FigureDelta): string | undefined {
  if (f.enough_samples) return undefined;
  const stat = f.kind === 'latency' ? (f.figure.split('.')[1] ?? 'mean').replace('p99_9', 'p99.9') : 'mean';
  const need =
    f.min_n === null
      ? `no number of samples makes a ${stat} stable`
      : `a ${stat} needs ${f.min_n.toLocaleString('en-US')}${f.n_paired === null ? ' on each side' : ' paired questions'}`;
  return `too few: ${formatSamples(f)}, ${need}`;
}

/** The interval column: the delta's interval, or for latencies the ratio and its interval; a row with too few values says so. */
export function formatInterval(f: FigureDelta): string {
  const few = fewSamplesText(f);
  if (few !== undefined) return few;
  const within = withinTimingText(f);
  if (within !== undefined) return `${latencyInterval(f)}; ${within}`;
  if (f.kind === 'latency') return latencyInterval(f);
  if (f.ci === null) return NA;
  return `[${formatDelta(f, f.ci.low)}, ${formatDelta(f, f.ci.high)}]`;
}

/** An arrow for where the value went, and the judgement: `↓ worse`. */
export function formatDirection(f: FigureDelta): string {
  if (f.direction === null || f.delta === null) return NA;
  if (f.direction === 'same') return '= same';
  return `${f.delta > 0 ? '↑' : '↓'} ${f.direction}`;
}

function latencyInterval(f: FigureDelta): string {
  if (f.ratio === null) return NA;
  const ci = f.ratio_ci === null ? '' : ` [${f.ratio_ci.low.toFixed(2)}, ${f.ratio_ci.high.toFixed(2)}]`;
  return `×${f.ratio.toFixed(2)}${ci}`;
}

/** "within the timing uncertainty (12.0 ms)" when a latency change is no larger than the generator's lateness could explain. */
export function withinTimingText(f: FigureDelta): string | undefined {
  if (
    f.timing_uncertainty_ms === null ||
    f.delta === null ||
    f.delta === 0 ||
    Math.abs(f.delta) > f.timing_uncertainty_ms
  )
    return undefined;
  return `within the timing uncertainty (${formatMs(f.timing_uncertainty_ms)})`;
}

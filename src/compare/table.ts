/**
 * @module compare/table
 * What the human-readable comparison reports show of a group, and how each figure is printed:
 * the headline scores and rates, the repeat figures when a run had repeats, the headline latency
 * statistics, and any other figure whose change is significant. Shared by compare.md, compare.html
 * and the step summary so they never disagree.
 */
import { formatMs, formatPct, formatScore, NA } from '../reports/format.js';
import { HEADLINE_FIGURES, HEADLINE_LATENCY, REPEAT_FIGURES, REVIEW_FIGURES } from '../figures/catalogue.js';
import type { Comparison, FigureDelta, GroupComparison } from './schema.js';

/** Significant changes of other scores shown below the headline rows, at most. */
const OTHERS_SHOWN = 8;

/**
 * The rows shown for a group, in order: the headline scores and rates, human_pass_rate (when a
 * run has reviews), the repeat figures (when a run had repeats), the headline latencies, then up to 8 other scores whose change is
 * significant (every figure is in compare.json).
 */
export function shownFigures(_comparison: Comparison, group: GroupComparison): FigureDelta[] {
  const wanted: string[] = [...HEADLINE_FIGURES, ...REVIEW_FIGURES, ...REPEAT_FIGURES, ...HEADLINE_LATENCY];
  const byName = new Map(group.figures.map((f) => [f.figure, f]));
  const rows = wanted.flatMap((name) => byName.get(name) ?? []).filter((f) => f.headline);
  const others = group.figures.filter((f) => !f.headline && f.significant && f.kind === 'score').slice(0, OTHERS_SHOWN);
  return [...rows, ...others];
}

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : value < 0 && !text.startsWith('-') ? `-${text}` : text);

/** A figure's value: scores with 3 decimals, rates as percentages, latencies in ms. */
export function formatValue(f: Pick<FigureDelta, 'kind'>, value: number | null): string {
  if (value === null) return NA;
  if (f.kind === 'latency') return formatMs(value);
  if (f.kind === 'rate') return formatPct(value);
  return formatScore(value);
}

/** A change: scores ±0.081, rates in percentage points (±5.0 pp), latencies ±118 ms. */
export function formatDelta(f: Pick<FigureDelta, 'kind'>, value: number | null): string {
  if (value === null) return NA;
  if (f.kind === 'latency') return signed(formatMs(Math.abs(value)), value);
  if (f.kind === 'rate') return `${signed(Math.abs(value * 100).toFixed(1), value)} pp`;
  return signed(Math.abs(value).toFixed(3), value);
}

/** The relative change as a signed percentage, one decimal. */
export const formatRelative = (value: number | null): string => (value === null ? NA : `${signed(Math.abs(value * 100).toFixed(1), value)}%`);

/** The interval column: the delta's interval, or for latencies the ratio and its interval. */
export function formatInterval(f: FigureDelta): string {
  if (f.kind === 'latency') {
    if (f.ratio === null) return NA;
    const ci = f.ratio_ci === null ? '' : ` [${f.ratio_ci.low.toFixed(2)}, ${f.ratio_ci.high.toFixed(2)}]`;
    return `×${f.ratio.toFixed(2)}${ci}`;
  }
  if (f.ci === null) return NA;
  return `[${formatDelta(f, f.ci.low)}, ${formatDelta(f, f.ci.high)}]`;
}

/** An arrow for where the value went, and the judgement: `↓ worse`. */
export function formatDirection(f: FigureDelta): string {
  if (f.direction === null || f.delta === null) return NA;
  if (f.direction === 'same') return '= same';
  return `${f.delta > 0 ? '↑' : '↓'} ${f.direction}`;
}

/** "5 pass→fail, 1 fail→pass, 34 unchanged (sign test p = 0.22)". */
export function formatPassChanges(group: GroupComparison): string {
  const s = group.pass_changes;
  const p = s.p_value < 0.001 ? s.p_value.toExponential(1) : s.p_value.toFixed(3);
  return `${s.worse} questions passed less, ${s.better} passed more, ${s.unchanged} unchanged (exact sign test p = ${p})`;
}

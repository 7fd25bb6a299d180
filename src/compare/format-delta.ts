/**
 * @module compare/format-delta
 * How a comparison prints a figure, its change and the change's interval. Depends on nothing but
 * reports/format, so the viewer's browser bundle prints deltas with the same code as compare.md.
 */
import { formatMs, formatPct, formatScore, NA } from '../reports/format.js';
import type { FigureDelta } from './schema.js';

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

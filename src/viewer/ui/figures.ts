/**
 * @module viewer/ui/figures
 * How the app prints and colours a figure: values with the reports' formatters (reports/format),
 * colours from the colour-blind-safe palette of the reports, judged by which way is good.
 */
import { formatMs, formatPct, formatScore, NA } from '../../reports/format.js';
import type { ViewEstimate, ViewFigure } from '../view-data.js';

/** A value as the reports print it: scores 0.667, rates 83%, latencies 412 ms. */
export function formatFigure(figure: Pick<ViewFigure, 'kind'>, value: number | null | undefined): string {
  if (value === null || value === undefined) return NA;
  if (figure.kind === 'latency') return formatMs(value);
  if (figure.kind === 'rate') return formatPct(value);
  return formatScore(value);
}

/** A value with its interval: `0.817 [0.74, 0.89]`, `85% [76–92%]`. */
export function formatEstimate(
  figure: Pick<ViewFigure, 'kind'>,
  e: ViewEstimate | null,
): { value: string; interval: string } {
  if (e === null) return { value: NA, interval: '' };
  const interval =
    e.low === null || e.high === null
      ? ''
      : figure.kind === 'rate'
        ? `${formatPct(e.low).replace('%', '')}–${formatPct(e.high)}`
        : `${formatScore(e.low)}–${formatScore(e.high)}`;
  return { value: formatFigure(figure, e.value), interval };
}

/** The short name of a figure for a column header. */
export const figureLabel = (name: string): string => name.replace(/_/g, ' ');

const BAD = [230, 159, 0];
const MID = [247, 247, 247];
const GOOD = [0, 114, 178];

const mix = (a: number[], b: number[], t: number) =>
  `rgb(${a.map((v, i) => Math.round(v + ((b[i] ?? v) - v) * t)).join(',')})`;

/**
 * A cell's colour for a value: from orange (bad) through light grey to blue (good). Shares and
 * scores are placed on [0, 1]; other figures between `low` and `high` of the cells in view
 * (latencies on a log scale). `dark` says whether white text reads better on it.
 */
export function valueColour(
  figure: ViewFigure,
  value: number,
  low: number,
  high: number,
): { background: string; dark: boolean } {
  let t: number;
  if (figure.kind === 'latency') {
    const l = Math.log(Math.max(low, 0.001));
    const h = Math.log(Math.max(high, 0.001));
    t = h === l ? 0.5 : (Math.log(Math.max(value, 0.001)) - l) / (h - l);
  } else if (low >= 0 && high <= 1) {
    t = value;
  } else {
    t = high === low ? 0.5 : (value - low) / (high - low);
  }
  t = Math.min(1, Math.max(0, t));
  const good = figure.higher_is_better ? t : 1 - t;
  const background = good >= 0.5 ? mix(MID, GOOD, (good - 0.5) * 2) : mix(MID, BAD, (0.5 - good) * 2);
  return { background, dark: good > 0.8 };
}

/**
 * @module reports/html/cdf-chart
 * Latency CDFs (TTFP, total) with one line per column: the whole distribution at a glance, where
 * p50/p95 in the table are two points of it. Lines are step functions of the empirical CDF,
 * thinned to a fixed number of points so a 20,000-request run still makes a small page.
 */
import { scaleLinear } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import type { ReportColumn } from '../comparison.js';
import { CDF_POINTS, cdfPoints, columnKey, type CdfFigure, type CdfPoint, type Distributions } from '../distributions.js';
import { formatMs } from '../format.js';
import { axisBottom, axisLeft, emptyFigure, esc, figure, legend, seriesStyle, tickMargin } from './svg.js';

export { CDF_POINTS, cdfPoints };

const WIDTH = 720;
const HEIGHT = 300;
const M = { top: 12, right: 20, bottom: 48, left: 60 };

export interface CdfChartOptions {
  readonly chart: 'ttfp-cdf' | 'total-cdf' | 'tpot-cdf' | 'output-rate-cdf';
  readonly figure: CdfFigure;
  readonly title: string;
  /** Axis unit (default ms). */
  readonly unit?: 'ms' | 'chars/s';
}

type Point = CdfPoint;

/** The CDF figure of one latency over `ok` requests, one line per column; columns without data are left out of the plot and the legend, and named in a note. */
export function renderCdfChart(columns: readonly ReportColumn[], distributions: Distributions, o: CdfChartOptions): string {
  const series = columns.map((column, i) => {
    const cdf = distributions.get(columnKey(column))?.[o.figure];
    return { column, style: seriesStyle(i), points: cdf?.points ?? [], n: cdf?.n ?? 0 };
  });
  const drawn = series.filter((s) => s.points.length > 0);
  if (drawn.length === 0) return emptyFigure(o.chart, o.title, `No ok request has ${o.figure}.`);
  const max = Math.max(...drawn.flatMap((s) => s.points.map((p) => p[0])));
  const domain = scaleLinear().domain([0, max > 0 ? max : 1]).nice();
  const right = tickMargin(domain, M.right);
  const x = domain.range([M.left, WIDTH - right]);
  const y = scaleLinear().domain([0, 1]).range([HEIGHT - M.bottom, M.top]);
  const path = line<Point>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]))
    .curve(curveStepAfter)
    .digits(2);
  const lines = drawn.map((s) => {
    const format = o.unit === 'chars/s' ? (v: number | null | undefined) => (v == null ? formatMs(null) : `${Math.round(v)} chars/s`) : formatMs;
    const title = `${s.column.label}: ${s.n} ok requests, p50 ${format(s.column.group.latency[o.figure]?.p50)}, p95 ${format(s.column.group.latency[o.figure]?.p95)}`;
    return `<path class="cdf-line" d="${path(s.points) ?? ''}" fill="none" stroke="${s.style.colour}" stroke-width="2"${s.style.dash ? ` stroke-dasharray="${s.style.dash}"` : ''}><title>${esc(title)}</title></path>`;
  });
  const body = [
    axisBottom(x, { at: HEIGHT - M.bottom, label: `${o.figure} (${o.unit ?? 'ms'})`, grid: HEIGHT - M.bottom - M.top }),
    axisLeft(y, { at: M.left, label: 'share of requests', format: (d) => `${Math.round(d * 100)}%`, grid: WIDTH - M.left - right }),
    ...lines,
  ].join('');
  const missing = series.filter((s) => s.points.length === 0).map((s) => s.column.label);
  const note = missing.length === 0 ? '' : `<p class="note">Not drawn: no ok request of ${esc(missing.join(', '))} has ${esc(o.figure)}.</p>`;
  return figure({
    chart: o.chart,
    caption: o.title,
    label: `${o.title}: cumulative share of ok requests by ${o.figure}, one line per ${drawn.length === 1 ? 'set' : 'set or model'}: ${drawn.map((s) => s.column.label).join(', ')}.`,
    width: WIDTH,
    height: HEIGHT,
    body,
    after: `${legend(drawn.map((s) => ({ label: s.column.label, colour: s.style.colour, dash: s.style.dash, shape: 'line' })))}${note}`,
  });
}

/**
 * @module reports/load/load-cdf-chart
 * The latency CDFs of a load run: service time (total_ms, from `sent`) and response time
 * (response_ms, from `scheduled`) of the measured window's ok requests on one chart. Where the two
 * lines part, requests waited to be sent: the gap coordinated omission would have hidden.
 */
import { scaleLinear } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import { formatMs } from '../format.js';
import { cdfPoints } from '../html/cdf-chart.js';
import { axisBottom, axisLeft, emptyFigure, esc, figure, legend, seriesStyle } from '../html/svg.js';

const WIDTH = 720;
const HEIGHT = 300;
const M = { top: 12, right: 20, bottom: 48, left: 60 };

type Point = readonly [ms: number, share: number];

export interface CdfSeries {
  readonly key: string;
  readonly label: string;
  /** Ascending. */
  readonly values: readonly number[];
}

/** One CDF line per series (data-chart="latency-cdf"); series without values are left out of the legend and named in a note. */
export function renderLoadCdfChart(series: readonly CdfSeries[]): string {
  const title = 'Latency of ok requests, cumulative distribution: service time vs response time';
  const drawn = series.map((s, i) => ({ ...s, style: seriesStyle(i), points: cdfPoints(s.values) })).filter((s) => s.points.length > 0);
  if (drawn.length === 0) return emptyFigure('latency-cdf', title, 'No ok request in the measured window.');
  const max = Math.max(...drawn.flatMap((s) => s.points.map((p) => p[0])));
  const x = scaleLinear().domain([0, max > 0 ? max : 1]).nice().range([M.left, WIDTH - M.right]);
  const y = scaleLinear().domain([0, 1]).range([HEIGHT - M.bottom, M.top]);
  const path = line<Point>().x((p) => x(p[0])).y((p) => y(p[1])).curve(curveStepAfter).digits(2);
  const at = (values: readonly number[], q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
  const paths = drawn.map(
    (s) =>
      `<path class="cdf-line" data-series="${esc(s.key)}" d="${path(s.points) ?? ''}" fill="none" stroke="${s.style.colour}" stroke-width="2"${s.style.dash ? ` stroke-dasharray="${s.style.dash}"` : ''}><title>${esc(`${s.label}: ${s.values.length} requests, p50 ${formatMs(at(s.values, 0.5))}, p95 ${formatMs(at(s.values, 0.95))}`)}</title></path>`,
  );
  const body = [
    axisBottom(x, { at: HEIGHT - M.bottom, label: 'ms', grid: HEIGHT - M.bottom - M.top }),
    axisLeft(y, { at: M.left, label: 'share of requests', format: (d) => `${Math.round(d * 100)}%`, grid: WIDTH - M.left - M.right }),
    ...paths,
  ].join('');
  const missing = series.filter((s) => s.values.length === 0).map((s) => s.label);
  const note = missing.length === 0 ? '' : `<p class="note">Not drawn, no values: ${esc(missing.join(', '))}.</p>`;
  return figure({
    chart: 'latency-cdf',
    caption: title,
    label: `${title}: ${drawn.map((s) => s.label).join(', ')}.`,
    width: WIDTH,
    height: HEIGHT,
    body,
    after: `${legend(drawn.map((s) => ({ label: s.label, colour: s.style.colour, dash: s.style.dash, shape: 'line' as const })))}${note}`,
  });
}

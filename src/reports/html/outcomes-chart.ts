/**
 * @module reports/html/outcomes-chart
 * Outcome counts per column as stacked horizontal bars: how much of each set came back ok, and
 * what went wrong with the rest. Only classes that occurred get a colour and a legend entry.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { stack } from 'd3-shape';
import { OUTCOMES, type Outcome } from '../../records/record.js';
import type { ReportColumn } from '../comparison.js';
import { axisBottom, esc, figure, legend, px, rowLabelMargin, rowLabelText, tickMargin } from './svg.js';

/** One colour per outcome class, ok first; Okabe & Ito plus greys. */
export const OUTCOME_COLOURS: Record<Outcome, string> = {
  ok: '#0072B2',
  rate_limited: '#E69F00',
  http_error: '#D55E00',
  stream_error: '#CC79A7',
  truncated: '#56B4E9',
  empty_answer: '#882255',
  timeout: '#F0E442',
  network: '#000000',
  invalid_response: '#009E73',
  cancelled: '#999999',
  abandoned: '#BBBBBB',
  skipped: '#DDDDDD',
};

const WIDTH = 720;
const MARGIN = { top: 8, right: 20, bottom: 46, left: 170 };
const BAR = 26;

type Counts = Record<Outcome, number>;

/** The stacked outcome bars (data-chart="outcomes"). */
export function renderOutcomesChart(columns: readonly ReportColumn[]): string {
  const M = { ...MARGIN, left: rowLabelMargin(columns.map((c) => c.label), MARGIN.left) };
  const keys = OUTCOMES.filter((o) => columns.some((c) => (c.group.outcomes[o] ?? 0) > 0));
  const data: Counts[] = columns.map((c) => Object.fromEntries(OUTCOMES.map((o) => [o, c.group.outcomes[o] ?? 0])) as Counts);
  const height = M.top + columns.length * BAR + M.bottom;
  const max = Math.max(1, ...columns.map((c) => c.group.requests));
  const integerTicks = (d: number) => (Number.isInteger(d) ? String(d) : '');
  const domain = scaleLinear().domain([0, max]).nice();
  const x = domain.range([M.left, WIDTH - tickMargin(domain, M.right, Math.min(8, max), integerTicks)]);
  const y = scaleBand<number>()
    .domain(columns.map((_, i) => i))
    .range([M.top, M.top + columns.length * BAR])
    .padding(0.2);
  const layers = stack<Counts, Outcome>().keys(keys)(data);
  const bars = layers.flatMap((layer) =>
    layer.map((segment, i) => {
      const [from, to] = segment;
      if (to - from <= 0) return '';
      const column = columns[i]!;
      const title = `${column.label}: ${layer.key} ${to - from} of ${column.group.requests}`;
      return `<rect class="outcome-bar" data-outcome="${layer.key}" x="${px(x(from))}" y="${px(y(i) ?? 0)}" width="${px(x(to) - x(from))}" height="${px(y.bandwidth())}" fill="${OUTCOME_COLOURS[layer.key]}"><title>${esc(title)}</title></rect>`;
    }),
  );
  const labels = columns.map(
    (c, i) => `<text class="row-label" x="${M.left - 8}" y="${px((y(i) ?? 0) + y.bandwidth() / 2)}" dy="0.35em" text-anchor="end">${rowLabelText(c.label)}</text>`,
  );
  const body = [axisBottom(x, { at: M.top + columns.length * BAR, label: 'requests', format: integerTicks, ticks: Math.min(8, max) }), ...labels, ...bars].join('');
  return figure({
    chart: 'outcomes',
    caption: 'Outcome of every request per set',
    label: `Stacked bars of request outcomes per set: ${columns
      .map((c) => `${c.label} ${keys.map((k) => `${c.group.outcomes[k] ?? 0} ${k}`).join(', ')}`)
      .join('; ')}.`,
    width: WIDTH,
    height,
    body,
    after: legend(keys.map((k) => ({ label: k, colour: OUTCOME_COLOURS[k], shape: 'box' }))),
  });
}

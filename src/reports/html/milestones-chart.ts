/**
 * @module reports/html/milestones-chart
 * Where an answer's time goes, per column: the median (p50) of each milestone of docs/reference/metrics.md on one
 * time axis — first search documents, message_start, first reasoning, first answer token (TTFT),
 * first citation, end — so the search, the model's start and its streaming can be told apart at a
 * glance. A milestone no ok request had is left out of that column's row, never drawn at 0.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import type { LatencyFigure } from '../../records/summary.js';
import type { ReportColumn } from '../comparison.js';
import { formatMs } from '../format.js';
import { axisBottom, emptyFigure, esc, figure, legend, px, SERIES_COLOURS, rowLabelMargin, rowLabelText, tickMargin } from './svg.js';

/** The milestones drawn, in the order an answer reaches them. */
export const MILESTONES: ReadonlyArray<{ figure: LatencyFigure; label: string }> = [
  { figure: 'first_search_documents_ms', label: 'search documents' },
  { figure: 'first_reasoning_ms', label: 'first reasoning' },
  { figure: 'message_start_ms', label: 'message_start' },
  { figure: 'ttft_ms', label: 'first answer token' },
  { figure: 'first_citation_ms', label: 'first citation' },
  { figure: 'total_ms', label: 'end' },
];

const WIDTH = 720;
const MARGIN = { top: 8, right: 20, bottom: 46, left: 170 };
const ROW = 28;

/** The milestone chart (data-chart="milestones"); an empty figure when no column has a milestone. */
export function renderMilestonesChart(columns: readonly ReportColumn[]): string {
  const M = { ...MARGIN, left: rowLabelMargin(columns.map((c) => c.label), MARGIN.left) };
  const points = columns.map((column) =>
    MILESTONES.flatMap((m, k) => {
      const p50 = column.group.latency[m.figure]?.p50;
      return p50 === undefined || p50 === null ? [] : [{ k, label: m.label, p50 }];
    }),
  );
  const max = Math.max(0, ...points.flat().map((p) => p.p50));
  const caption = 'Milestones of an answer (p50 of ok requests)';
  if (max === 0) return emptyFigure('milestones', caption, 'No ok request has a milestone (full mode has only the end of the body).');
  const height = M.top + M.bottom + ROW * columns.length;
  const domain = scaleLinear().domain([0, max]).nice();
  const x = domain.range([M.left, WIDTH - tickMargin(domain, M.right)]);
  const y = scaleBand<number>().domain(columns.map((_, i) => i)).range([M.top, height - M.bottom]).padding(0.3);
  const rows = columns.map((column, i) => {
    const cy = px((y(i) ?? 0) + y.bandwidth() / 2);
    const own = points[i] ?? [];
    const span = own.length > 0 ? `<line class="milestone-span" x1="${px(x(0))}" x2="${px(x(Math.max(...own.map((p) => p.p50))))}" y1="${cy}" y2="${cy}" stroke="#bbb"/>` : '';
    const dots = own.map((p) => `<circle class="milestone" cx="${px(x(p.p50))}" cy="${cy}" r="5" fill="${SERIES_COLOURS[p.k % SERIES_COLOURS.length]}"><title>${esc(`${column.label}: ${p.label} p50 ${formatMs(p.p50)}`)}</title></circle>`);
    return `<text x="${M.left - 8}" y="${cy}" dy="0.32em" text-anchor="end">${rowLabelText(column.label)}</text>${span}${dots.join('')}`;
  });
  const body = [axisBottom(x, { at: height - M.bottom, label: 'ms after sent (p50)', grid: height - M.bottom - M.top }), ...rows].join('');
  const described = columns.map((c, i) => `${c.label}: ${(points[i] ?? []).map((p) => `${p.label} ${formatMs(p.p50)}`).join(', ') || 'none'}`);
  return figure({
    chart: 'milestones',
    caption,
    label: `${caption}. ${described.join('; ')}.`,
    width: WIDTH,
    height,
    body,
    after: legend(MILESTONES.map((m, k) => ({ label: m.label, colour: SERIES_COLOURS[k % SERIES_COLOURS.length]!, shape: 'box' as const }))),
  });
}

/**
 * @module compare/forest-plot
 * An inline SVG forest plot: one row per figure, its point estimate and 95% interval against a
 * reference line (0 for deltas, 1 for ratios). Significant worse changes in vermillion, better
 * ones in blue, the rest grey (Okabe & Ito colours). Strings only, scales from d3-scale.
 */
import { scaleLinear } from 'd3-scale';
import { esc } from '../reports/html/svg.js';

export interface ForestRow {
  label: string;
  estimate: number;
  low: number | null;
  high: number | null;
  significant: boolean;
  direction: 'better' | 'worse' | 'same' | null;
  /** The estimate and interval as printed beside the row. */
  text: string;
}

const WIDTH = 760;
const LEFT = 210;
const PLOT_RIGHT = 560;
const ROW = 22;
const TOP = 28;
const COLOURS = { worse: '#D55E00', better: '#0072B2', none: '#777777' } as const;
const px = (v: number) => Math.round(v * 100) / 100;

/** The plot as an accessible <figure>; no rows → an empty string. */
export function renderForestPlot(
  rows: readonly ForestRow[],
  options: { title: string; reference: number; axisLabel: string },
): string {
  if (rows.length === 0) return '';
  const values = rows
    .flatMap((r) => [r.estimate, r.low ?? r.estimate, r.high ?? r.estimate, options.reference])
    .filter(Number.isFinite);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  const pad = (hi - lo) * 0.05;
  const x = scaleLinear()
    .domain([lo - pad, hi + pad])
    .range([LEFT, PLOT_RIGHT])
    .nice();
  const height = TOP + rows.length * ROW + 34;
  const bottom = TOP + rows.length * ROW;
  const ticks = x.ticks(6);
  const format = x.tickFormat(6);
  const parts: string[] = [
    `<svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${esc(options.title)}">`,
    `<text x="${LEFT}" y="16" font-size="13" font-weight="bold">${esc(options.title)}</text>`,
    ...ticks.map(
      (t) =>
        `<line x1="${px(x(t))}" x2="${px(x(t))}" y1="${TOP - 4}" y2="${bottom}" stroke="#e5e5e5"/><text x="${px(x(t))}" y="${bottom + 14}" font-size="10" text-anchor="middle">${esc(format(t))}</text>`,
    ),
    `<line x1="${px(x(options.reference))}" x2="${px(x(options.reference))}" y1="${TOP - 4}" y2="${bottom}" stroke="#333" stroke-dasharray="4 3"/>`,
    `<text x="${(LEFT + PLOT_RIGHT) / 2}" y="${bottom + 28}" font-size="10" text-anchor="middle">${esc(options.axisLabel)}</text>`,
  ];
  rows.forEach((r, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const colour =
      r.significant && (r.direction === 'worse' || r.direction === 'better') ? COLOURS[r.direction] : COLOURS.none;
    parts.push(
      `<text x="${LEFT - 8}" y="${y + 4}" font-size="11" text-anchor="end"${r.significant ? ' font-weight="bold"' : ''}>${esc(r.label)}</text>`,
    );
    if (r.low !== null && r.high !== null) {
      parts.push(
        `<line x1="${px(x(r.low))}" x2="${px(x(r.high))}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2"/>`,
      );
    }
    parts.push(
      `<circle cx="${px(x(r.estimate))}" cy="${y}" r="4" fill="${colour}"><title>${esc(`${r.label}: ${r.text}`)}</title></circle>`,
    );
    parts.push(`<text x="${PLOT_RIGHT + 10}" y="${y + 4}" font-size="10">${esc(r.text)}</text>`);
  });
  parts.push('</svg>');
  return `<figure class="forest">${parts.join('')}<figcaption>${esc(options.title)}: points are the change, bars its 95% interval; coloured when significant.</figcaption></figure>`;
}

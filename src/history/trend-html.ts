/**
 * @module history/trend-html
 * `history trend`'s HTML chart: one figure across runs, a line per set × mode, each value with its
 * 95% interval as a bar, and a table linking every run's report. Pure: returns the page.
 */
import { scaleLinear } from 'd3-scale';
import { renderPage } from '../reports/html/page.js';
import { axisBottom, axisLeft, esc, legend, px, seriesStyle } from '../reports/html/svg.js';
import type { TrendPoint } from './queries.js';

const W = 760;
const H = 320;
const M = { top: 16, right: 16, bottom: 48, left: 64 };

const key = (p: TrendPoint): string => [p.set_name, p.mode].filter((s) => s !== '').join(' · ') || 'run';

/** `reportHref(run_dir)` gives each run's link (relative to where the page is written). */
export function renderTrendHtml(
  figure: string,
  points: readonly TrendPoint[],
  reportHref: (runDir: string) => string,
): string {
  const runs = [...new Map(points.map((p) => [p.run_dir, p])).values()];
  const index = new Map(runs.map((p, i) => [p.run_dir, i]));
  const series = [...new Set(points.map(key))];
  const values = points.flatMap((p) => [p.value, p.ci_low ?? p.value, p.ci_high ?? p.value]);
  const x = scaleLinear()
    .domain([0, Math.max(1, runs.length - 1)])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(...values, 1e-9)])
    .nice()
    .range([H - M.bottom, M.top]);
  const lines = series.map((name, i) => {
    const style = seriesStyle(i);
    const own = points.filter((p) => key(p) === name);
    const path = own.map((p, j) => `${j === 0 ? 'M' : 'L'}${px(x(index.get(p.run_dir)!))},${px(y(p.value))}`).join('');
    const bars = own
      .filter((p) => p.ci_low !== null && p.ci_high !== null)
      .map(
        (p) =>
          `<line x1="${px(x(index.get(p.run_dir)!))}" x2="${px(x(index.get(p.run_dir)!))}" y1="${px(y(p.ci_low!))}" y2="${px(y(p.ci_high!))}" stroke="${style.colour}" stroke-width="1.5"/>`,
      );
    const dots = own.map(
      (p) =>
        `<circle cx="${px(x(index.get(p.run_dir)!))}" cy="${px(y(p.value))}" r="3" fill="${style.colour}"><title>${esc(`${p.id} ${name}: ${p.value}`)}</title></circle>`,
    );
    return `<path d="${path}" fill="none" stroke="${style.colour}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>${bars.join('')}${dots.join('')}`;
  });
  const svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(figure)} across runs">${axisLeft(y, { at: M.left, label: figure, grid: W - M.left - M.right })}${axisBottom(x, { at: H - M.bottom, label: 'run (oldest first)', ticks: Math.min(runs.length, 10), format: (d) => (Number.isInteger(d) ? String(d + 1) : '') })}${lines.join('')}</svg>`;
  const rows = points.map((p) => {
    const ci = p.ci_low === null || p.ci_high === null ? '' : `[${p.ci_low}, ${p.ci_high}]`;
    return `<tr><td>${index.get(p.run_dir)! + 1}</td><td>${esc(p.ended_at)}</td><td><a href="${esc(reportHref(p.run_dir))}">${esc(p.id)}</a></td><td>${esc(key(p))}</td><td>${p.value}</td><td>${esc(ci)}</td><td>${p.n ?? ''}</td></tr>`;
  });
  return renderPage({
    title: `${figure} across runs`,
    main: [
      `<h1>${esc(figure)} across runs</h1>`,
      svg,
      legend(
        series.map((label, i) => ({
          label,
          colour: seriesStyle(i).colour,
          dash: seriesStyle(i).dash,
          shape: 'line' as const,
        })),
      ),
      `<table><thead><tr><th>#</th><th>ended</th><th>run</th><th>set · mode</th><th>value</th><th>95% interval</th><th>n</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    ],
    footer: "chatbench history trend: values from each run's summary.json, as registered in the run history",
  });
}

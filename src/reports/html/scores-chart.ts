/**
 * @module reports/html/scores-chart
 * Citation precision, recall and F1 per column as grouped bars with their 95% confidence
 * intervals, so a difference between sets can be told from noise. An N/A mean draws no bar and
 * says "–" where the bar would be: it is never drawn as 0.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import type { ReportColumn } from '../comparison.js';
import { NA, formatScore } from '../format.js';
import { axisLeft, esc, figure, legend, px, seriesStyle } from './svg.js';

interface Metric {
  readonly name: string;
  readonly label: string;
}

/** The citation chart's bars. */
const CITATION_METRICS: readonly Metric[] = [
  { name: 'citation_precision', label: 'citation precision' },
  { name: 'citation_recall', label: 'citation recall' },
  { name: 'citation_f1', label: 'citation F1' },
];

/** The judged answer-quality chart's bars (drawn when a judge scored something). */
const JUDGED_METRICS: readonly Metric[] = [
  { name: 'correctness', label: 'correctness' },
  { name: 'groundedness', label: 'groundedness' },
  { name: 'relevance', label: 'relevance' },
];

/** The grouped bars of the judge's correctness, groundedness and relevance (data-chart="judged-scores"); '' when nothing was judged. */
export function renderJudgedChart(columns: readonly ReportColumn[]): string {
  if (!columns.some((c) => JUDGED_METRICS.some((m) => (c.group.scores[m.name] ?? null) !== null))) return '';
  return barChart(columns, JUDGED_METRICS, {
    chart: 'judged-scores',
    caption: 'Correctness, groundedness and relevance (the judge\'s scores) with 95% confidence intervals',
    label: (c) => `${c.label} correctness ${formatScore(c.group.scores.correctness?.mean)}, groundedness ${formatScore(c.group.scores.groundedness?.mean)}`,
  });
}

const WIDTH = 720;
const HEIGHT = 300;
const M = { top: 12, right: 20, bottom: 40, left: 60 };

/** The grouped bar chart of citation scores (data-chart="citation-scores"). */
export function renderScoresChart(columns: readonly ReportColumn[]): string {
  return barChart(columns, CITATION_METRICS, {
    chart: 'citation-scores',
    caption: 'Citation precision, recall and F1 with 95% confidence intervals',
    label: (c) => `${c.label} F1 ${formatScore(c.group.scores.citation_f1?.mean)}`,
  });
}

function barChart(columns: readonly ReportColumn[], METRICS: readonly Metric[], text: { chart: string; caption: string; label: (c: ReportColumn) => string }): string {
  const outer = scaleBand<string>()
    .domain(METRICS.map((m) => m.label))
    .range([M.left, WIDTH - M.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const inner = scaleBand<number>()
    .domain(columns.map((_, i) => i))
    .range([0, outer.bandwidth()])
    .padding(0.12);
  const y = scaleLinear().domain([0, 1]).range([HEIGHT - M.bottom, M.top]);
  const marks = METRICS.flatMap((metric) =>
    columns.map((column, i) => {
      const estimate = column.group.scores[metric.name] ?? null;
      const x = px((outer(metric.label) ?? 0) + (inner(i) ?? 0));
      const w = px(inner.bandwidth());
      const { colour } = seriesStyle(i);
      if (!estimate) {
        return `<text class="na" x="${px(x + w / 2)}" y="${px(y(0) - 4)}" text-anchor="middle">${NA}<title>${esc(`${column.label}: ${metric.label} N/A`)}</title></text>`;
      }
      const title = `${column.label}: ${metric.label} ${formatScore(estimate.mean)} (95% CI ${formatScore(estimate.ci_low)}–${formatScore(estimate.ci_high)}, n=${estimate.n})`;
      const top = px(y(estimate.mean));
      const bar = `<rect class="score-bar" x="${x}" y="${top}" width="${w}" height="${px(y(0) - top)}" fill="${colour}"><title>${esc(title)}</title></rect>`;
      const cx = px(x + w / 2);
      const cap = px(Math.min(6, w / 3));
      const lo = px(y(estimate.ci_low));
      const hi = px(y(estimate.ci_high));
      const whisker = `<path class="ci-bar" d="M${cx},${lo}V${hi}M${px(cx - cap)},${lo}H${px(cx + cap)}M${px(cx - cap)},${hi}H${px(cx + cap)}"/>`;
      return bar + whisker;
    }),
  );
  const xLabels = METRICS.map(
    (m) => `<text x="${px((outer(m.label) ?? 0) + outer.bandwidth() / 2)}" y="${HEIGHT - M.bottom + 20}" text-anchor="middle">${esc(m.label)}</text>`,
  );
  const body = [
    axisLeft(y, { at: M.left, label: 'mean over questions', grid: WIDTH - M.left - M.right }),
    `<g class="axis axis-x"><line x1="${M.left}" x2="${WIDTH - M.right}" y1="${y(0)}" y2="${y(0)}"/>${xLabels.join('')}</g>`,
    ...marks,
  ].join('');
  return figure({
    chart: text.chart,
    caption: text.caption,
    label: `Grouped bars of ${METRICS.map((m) => m.label).join(', ')} per set with 95% confidence intervals: ${columns.map(text.label).join(', ')}.`,
    width: WIDTH,
    height: HEIGHT,
    body,
    after: legend(columns.map((c, i) => ({ label: c.label, colour: seriesStyle(i).colour, shape: 'box' }))),
  });
}

/**
 * @module reports/load/step-chart
 * The capacity search's step chart: every step's target against what the service accepted, good
 * steps and bad ones marked apart, the knee (first bad target above the sustainable one) drawn as
 * a vertical line, and the sustainable target as a dashed one.
 */
import { scaleLinear } from 'd3-scale';
import type { CapacityResult } from '../../records/load-summary.js';
import { axisBottom, axisLeft, emptyFigure, esc, figure, legend, px } from '../html/svg.js';

const WIDTH = 720;
const HEIGHT = 320;
const M = { top: 16, right: 24, bottom: 48, left: 64 };
const GOOD = '#009E73';
const BAD = '#D55E00';

/** data-chart="capacity-steps": one circle per step (class step-good / step-bad), the knee as `.knee`. */
export function renderStepChart(result: CapacityResult): string {
  const title = 'Capacity search: accepted vs target per step';
  const unit = result.unit === 'users' ? 'users' : 'requests per second';
  if (result.steps.length === 0) return emptyFigure('capacity-steps', title, 'No step ran.');
  const maxTarget = Math.max(...result.steps.map((s) => s.target), result.knee ?? 0);
  const maxY = Math.max(...result.steps.map((s) => Math.max(s.ok_rate_per_s ?? 0, result.unit === 'users' ? 0 : s.target)));
  const x = scaleLinear().domain([0, maxTarget * 1.05]).nice().range([M.left, WIDTH - M.right]);
  const y = scaleLinear().domain([0, maxY > 0 ? maxY * 1.05 : 1]).nice().range([HEIGHT - M.bottom, M.top]);
  const diagonal =
    result.unit === 'users' ? '' : `<line class="ideal" x1="${px(x(0))}" y1="${px(y(0))}" x2="${px(x(Math.min(maxTarget, y.domain()[1] ?? maxTarget)))}" y2="${px(y(Math.min(maxTarget, y.domain()[1] ?? maxTarget)))}" stroke="#999999" stroke-dasharray="4 4"/>`;
  const marks = result.steps.map((s) => {
    const why = s.good ? 'good' : `bad: ${s.reasons.join('; ')}`;
    const tip = `step ${s.index + 1} (${s.phase}): target ${s.target}, accepted ${s.ok_rate_per_s?.toFixed(1) ?? 'n/a'}/s, ${why}`;
    return `<circle class="step ${s.good ? 'step-good' : 'step-bad'}" data-target="${s.target}" cx="${px(x(s.target))}" cy="${px(y(s.ok_rate_per_s ?? 0))}" r="6" fill="${s.good ? GOOD : BAD}"><title>${esc(tip)}</title></circle>`;
  });
  // Labels on either side of their line: the two lines are close when the search converged.
  const vline = (value: number | null, cls: string, colour: string, dash: string, label: string, side: 'left' | 'right') =>
    value === null
      ? ''
      : `<g class="${cls}" data-value="${value}"><line x1="${px(x(value))}" x2="${px(x(value))}" y1="${M.top}" y2="${HEIGHT - M.bottom}" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/><text x="${px(x(value) + (side === 'left' ? -4 : 4))}" y="${M.top + 12}" text-anchor="${side === 'left' ? 'end' : 'start'}">${esc(label)}</text></g>`;
  const body = [
    axisBottom(x, { at: HEIGHT - M.bottom, label: `target (${unit})` }),
    axisLeft(y, { at: M.left, label: 'accepted (ok) per second', grid: WIDTH - M.left - M.right }),
    diagonal,
    vline(result.sustainable, 'sustainable', GOOD, '6 3', `sustainable ${result.sustainable}`, 'left'),
    vline(result.knee, 'knee', BAD, '', `knee ${result.knee}`, 'right'),
    ...marks,
  ].join('');
  return figure({
    chart: 'capacity-steps',
    caption: title,
    label: `${title}: ${result.steps.length} steps; sustainable ${result.sustainable ?? 'none'}, knee ${result.knee ?? 'not found'} (${unit}).`,
    width: WIDTH,
    height: HEIGHT,
    body,
    after: legend([
      { label: 'good step', colour: GOOD, shape: 'box' },
      { label: 'bad step (SLO broken or saturated)', colour: BAD, shape: 'box' },
      { label: 'knee', colour: BAD, shape: 'line' },
    ]),
  });
}

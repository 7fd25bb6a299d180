/**
 * @module reports/load/capacity-report
 * capacity.md and capacity.html of a capacity search: the highest sustainable target, the knee,
 * why the search stopped, and every step's figures; the HTML page adds the step chart. A step
 * whose generator fell behind carries its warning in the table, and the page's first line says
 * how many steps did.
 */
import { LOOP_DELAY_WARN_MS } from '../../records/generator-health.js';
import type { CapacityResult, CapacityStep } from '../../records/load-summary.js';
import { NA, formatMs, formatPct } from '../format.js';
import { formatFigureValue } from '../../figures/units.js';
import { esc } from '../html/svg.js';
import { htmlTable, page } from './load-html.js';
import { formatRate, type TextTable } from './load-tables.js';
import { mdTable } from './load-md.js';
import { renderStepChart } from './step-chart.js';

export interface CapacityMeta {
  readonly generated_by: string;
  readonly run_dir: string | null;
}

const STOPPED: Record<CapacityResult['stopped'], string> = {
  converged: 'the sustainable target and the knee are within the precision',
  max_steps: 'the step budget (--max-steps) ran out before the search converged',
  max_duration: 'the time budget (--max-duration) ran out before the search converged',
  no_knee: 'every step was good up to the step budget: the knee is above the last target',
  interrupted: 'interrupted',
  floor: 'even the smallest target failed',
  max_target: 'every step was good up to the highest target chatbench allows (docs/limits.md): the knee is above it',
  unhealthy: 'the health probe failed: the service reported itself unhealthy at the knee (its reasons say how)',
};

/** Why the search stopped; a failing health probe is named with the step's own reason. */
function stoppedBecause(r: CapacityResult): string {
  if (r.stopped !== 'unhealthy') return STOPPED[r.stopped];
  const reason = r.steps.at(-1)?.reasons.find((why) => why.startsWith('unhealthy'));
  return reason === undefined ? STOPPED.unhealthy : `the service reported itself unhealthy at ${r.steps.at(-1)!.target} ${unitOf(r)} (${reason})`;
}

const unitOf = (r: CapacityResult) => (r.unit === 'users' ? 'users' : 'requests/s');

/** The verdict in one sentence. */
export function capacityHeadline(r: CapacityResult): string {
  const sustainable = r.sustainable === null ? 'no sustainable target found' : `highest sustainable: ${r.sustainable} ${unitOf(r)}`;
  const knee = r.knee === null ? 'no knee found' : `knee at ${r.knee} ${unitOf(r)}`;
  return `${sustainable}; ${knee} (${r.steps.length} steps, ${r.duration_s.toFixed(0)} s; stopped: ${stoppedBecause(r)}).`;
}

/** The first-line warning when some steps' generator fell behind; null otherwise. */
export function capacityWarning(r: CapacityResult): string | null {
  const behind = r.steps.filter((s) => s.warning !== null);
  if (behind.length === 0) return null;
  return `Warning: the load generator fell behind in ${behind.length} of ${r.steps.length} steps (targets ${behind.map((s) => s.target).join(', ')}): those steps measure the generator as much as the service.`;
}

/** Every step's figures. */
export function stepsTable(r: CapacityResult): TextTable {
  const row = (s: CapacityStep) => [
    String(s.index + 1), s.phase, String(s.target), s.good ? 'good' : 'bad', formatRate(s.offered_rate), formatRate(s.ok_rate_per_s), formatRate(s.goodput),
    formatPct(s.rate_limited_rate), formatPct(s.error_rate), formatMs(s.ttft_p50_ms), formatMs(s.ttft_p95_ms), formatMs(s.ttfp_p50_ms), formatMs(s.ttfp_p95_ms), formatMs(s.response_p95_ms),
    formatMs(s.tpot_per_token_p50_ms), formatMs(s.itl_p95_ms), s.output_tokens_per_s === null ? formatMs(null) : formatFigureValue('output_tokens_per_s', s.output_tokens_per_s),
    s.reasons.length === 0 ? (s.warning === null ? '' : 'generator fell behind') : s.reasons.join('; '),
  ];
  return {
    header: ['step', 'phase', `target (${unitOf(r)})`, 'verdict', 'offered', 'accepted', 'goodput', '429 rate', 'error rate', 'TTFT p50', 'TTFT p95', 'TTFP p50', 'TTFP p95', 'response p95', 'TPOT/token p50', 'ITL p95', 'output tokens/s', 'why'],
    rows: r.steps.map(row),
  };
}

const slosLine = (r: CapacityResult) => `SLOs: ${r.slos.length === 0 ? 'none (saturation only)' : r.slos.join(', ')}. Precision ${formatPct(r.precision)}. Saturated: accepted under 95% of offered, or TTFP p50 rising within a step. ${timingLine(r)}`;

/** The timing uncertainty over the steps: the worst step's event-loop delay. */
function timingLine(r: CapacityResult): string {
  const measured = r.steps.filter((s) => s.loop_delay_ms !== null);
  if (measured.length === 0) return 'Timing uncertainty not measured.';
  const worst = measured.reduce((a, b) => (b.loop_delay_ms!.max > a.loop_delay_ms!.max ? b : a));
  return `Timing uncertainty: the generator's event-loop delay reached p99 ${formatMs(worst.loop_delay_ms!.p99)}, max ${formatMs(worst.loop_delay_ms!.max)} (step ${worst.index + 1})${worst.loop_delay_ms!.max > LOOP_DELAY_WARN_MS ? `: that step's timings may be late by up to ${formatMs(worst.loop_delay_ms!.max)}` : ''}.`;
}

export function renderCapacityMd(r: CapacityResult, meta: CapacityMeta): string {
  const warning = capacityWarning(r);
  return [
    ...(warning === null ? [] : [`> **${warning}**`, '']),
    '# chatbench capacity',
    '',
    `**${capacityHeadline(r)}**`,
    '',
    slosLine(r),
    '',
    '## Steps',
    '',
    ...mdTable(stepsTable(r)),
    '',
    `Each step's load reports are in its directory (\`steps/NN-…\`). Generated by ${meta.generated_by}${meta.run_dir ? ` from \`${meta.run_dir}\`` : ''}.`,
    '',
  ].join('\n');
}

export function renderCapacityHtml(r: CapacityResult, meta: CapacityMeta): string {
  return page({
    title: 'chatbench capacity',
    warning: capacityWarning(r),
    body: [
      `<p class="figures"><strong>${esc(capacityHeadline(r))}</strong></p>`,
      `<p class="provenance">${esc(slosLine(r))}</p>`,
      renderStepChart(r),
      '<h2>Steps</h2>',
      htmlTable(stepsTable(r), 'steps'),
      `<p class="note">${esc(`Each step's load reports (report.html, timeline.csv) are in its directory: ${r.steps.map((s) => s.dir).join(', ') || NA}.`)}</p>`,
    ],
    footer: `Generated by ${meta.generated_by}${meta.run_dir ? ` from ${meta.run_dir}` : ''}.`,
  });
}

/**
 * @module reports/load/terminal-summary
 * The end-of-run summary of `chatbench load` and `chatbench capacity` on the terminal, as k6 prints
 * its own: throughput (offered, sent, ok, 429 and errors per second), the latency percentiles of ok
 * requests from `sent` (TTFP, TTFT, total) with `response_ms` (from the schedule) beside them, every
 * SLO and gate with its verdict and figure, the generator's health in one line (a warning only when
 * it matters, metrics/generator-verdict). Pure: a string out, colour through the Paint handed in.
 */
import { generatorVerdict } from '../../metrics/generator-verdict.js';
import type { GateVerdict } from '../../figures/gate-verdict.js';
import type { CapacityResult, LoadSummary, SloResult } from '../../records/load-summary.js';
import { NA, formatMs, formatPct } from '../format.js';
import { formatFigureValue } from '../../figures/units.js';
import { PLAIN, type Paint } from '../paint.js';
import { capacityHeadline } from './capacity-report.js';
import { decideCapacity, verdictLine, type Verdict } from '../../verdict/index.js';
import { describeModel, formatRate } from './load-tables.js';
import { healthLines } from './health-lines.js';

const LATENCY_ROWS = [
  ['TTFT', 'ttft_ms', 'first answer token, from sent'],
  ['ITL', 'answer_gap_ms', 'gaps between answer deltas, pooled'],
  ['TTFP', 'ttfp_ms', 'first part, from sent'],
  ['total', 'total_ms', 'last byte, from sent'],
  ['response_ms', 'response_ms', 'last byte, from the schedule: waits included'],
] as const;

/** Columns padded to their widest cell (ANSI-free text: colour is added after padding). */
function columns(rows: readonly (readonly string[])[], align: readonly ('l' | 'r')[]): string[][] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (align[i] === 'r' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))));
}

/** A figure as the SLO or gate names it, in its unit (figures/units): `2,026 ms`, `1.2%`, `12.5/s`; n/a → "–". */
export function formatFigure(figure: string, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return NA;
  return formatFigureValue(figure, value);
}

function objectiveRows(slos: readonly SloResult[], gates: readonly GateVerdict[], paint: Paint): string[] {
  const rows = [
    ...slos.map((s) => ({ passed: s.passed, kind: s.goodput_only ? 'SLO (goodput only)' : 'SLO', text: s.text, value: formatFigure(s.figure, s.value) })),
    ...gates.map((g) => ({ passed: g.passed, kind: 'gate', text: g.gate.text, value: g.value === null ? NA : formatFigure(g.gate.stat === null ? g.gate.figure : `${g.gate.figure}.${g.gate.stat}`, g.value) })),
  ];
  if (rows.length === 0) return [];
  const table = columns(rows.map((r) => [r.passed ? '✓' : '✗', r.kind, r.text, r.value]), ['l', 'l', 'l', 'r']);
  return [
    'objectives',
    ...table.map(([mark, kind, text, value], i) => {
      const ok = rows[i]!.passed;
      return `  ${ok ? paint.good(mark!) : paint.bad(mark!)} ${kind} ${text}  ${ok ? value : paint.bad(value!)}`.trimEnd();
    }),
  ];
}

/** The summary of a load run; `files` are listed after it. */
export function renderLoadSummary(summary: LoadSummary, gates: readonly GateVerdict[], paint: Paint = PLAIN): string {
  const m = summary.windows.measured;
  const run = summary.run;
  const lines: string[] = [];
  // The banner first, as every report opens (failures by class, timing uncertainty); the generator's
  // warning (summary.warning, the reports' first line) is said once, at the end, with its figures.
  lines.push(...summary.banner.map((line) => paint.warn(`! ${line}`)));
  lines.push(
    paint.bold(`load: ${describeModel(run)} · ${run.operation} ${run.mode} · set ${run.set} · ${(run.duration_ms / 1000).toFixed(1)} s · ${run.requests} requests${run.interrupted ? ' · interrupted' : ''}`),
    '',
    `throughput (measured window, ${m.duration_s.toFixed(1)} s)`,
  );
  const rate = (label: string, value: number | null, bad = false) => `${label} ${bad && (value ?? 0) > 0 ? paint.bad(formatRate(value)) : formatRate(value)}`;
  lines.push(
    `  ${[rate('offered', m.rates.offered), rate('sent', m.rates.sent), rate('ok', m.rates.ok), rate('429', m.rates.rate_limited, true), rate('errors', m.rates.errors, true), rate('goodput', m.rates.goodput)].join(' · ')}`,
    `  ${m.sent} sent of ${m.offered} offered${m.dropped > 0 ? paint.bad(` · ${m.dropped} dropped at the in-flight cap`) : ''} · outcomes ${outcomeList(m.outcomes) || 'none'}`,
    '',
  );
  const latency = columns(
    [['latency of ok requests', 'p50', 'p95', 'p99', ''], ...LATENCY_ROWS.map(([label, key, note]) => {
      const stats = m.latency[key];
      return [`  ${label}`, formatMs(stats?.p50), formatMs(stats?.p95), formatMs(stats?.p99), note];
    })],
    ['l', 'r', 'r', 'r', 'l'],
  );
  lines.push(...latency.map((r, i) => (i === 0 ? r.join('  ').trimEnd() : `${r.slice(0, 4).join('  ')}  ${paint.dim(r[4]!)}`.trimEnd())));
  const health = healthLines(summary);
  if (health.length > 0) lines.push('', ...health.map((l, i) => (i === 0 && (summary.health?.failures ?? 0) > 0 ? paint.bad(l) : l)));
  const objectives = objectiveRows(summary.slos, gates, paint);
  if (objectives.length > 0) lines.push('', ...objectives);
  const verdict = generatorVerdict(summary.generator, m.latency.ttfp_ms?.p50 ?? m.latency.total_ms?.p50 ?? null);
  lines.push('', verdict.severity === 'warning' ? paint.warn(`warning: ${verdict.line}`) : `generator: ${verdict.line.replace(/^the load generator /, '')}`);
  return `${lines.join('\n')}\n`;
}

const outcomeList = (counts: Readonly<Record<string, number>>) => Object.entries(counts).filter(([, n]) => n > 0).map(([o, n]) => `${o} ${n}`).join(', ');

/** The summary of a capacity search: the verdict, every step's figures, why it stopped. */
export function renderCapacitySummary(r: CapacityResult, paint: Paint = PLAIN): string {
  const unit = r.unit === 'users' ? ' users' : '/s';
  const lines: string[] = [];
  const behind = r.steps.filter((s) => s.warning !== null);
  if (behind.length > 0) lines.push(paint.warn(`warning: the load generator fell behind in ${behind.length} of ${r.steps.length} steps (${behind.map((s) => `${s.target}${unit}`).join(', ')}): they measure the generator as much as the service`));
  const table = columns(
    [
      ['step', 'target', 'offered', 'ok', '429', 'errors', 'TTFT p50', 'TTFT p95', 'TTFP p95', 'total p95', 'response p95', 'verdict'],
      ...r.steps.map((s) => [
        String(s.index + 1), `${s.target}${unit}`, formatRate(s.offered_rate), formatRate(s.ok_rate_per_s), formatPct(s.rate_limited_rate), formatPct(s.error_rate),
        formatMs(s.ttft_p50_ms), formatMs(s.ttft_p95_ms), formatMs(s.ttfp_p95_ms), formatMs(s.total_p95_ms), formatMs(s.response_p95_ms), s.good ? 'good' : 'bad',
      ]),
    ],
    ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  lines.push(
    paint.bold(`capacity: ${r.unit === 'users' ? 'users' : 'arrival rate'}, ${r.steps.length} steps in ${r.duration_s.toFixed(0)} s`),
    '',
    ...table.map((row, i) => {
      const step = r.steps[i - 1];
      const text = `  ${row.join('  ')}`.trimEnd();
      if (step === undefined) return text;
      return `${step.good ? text : text.replace(/bad$/, paint.bad('bad'))}${step.reasons.length > 0 ? paint.dim(`  ${step.reasons.join('; ')}`) : ''}`;
    }),
    '',
    `SLOs: ${r.slos.length === 0 ? 'none (saturation only)' : r.slos.join(', ')}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The verdict line of a capacity search (verdict/verdict decideCapacity). */
export function capacityVerdict(r: CapacityResult, paint: Paint = PLAIN): string {
  return verdictLine(capacityRunVerdict(r), paint);
}

/** A capacity search's verdict: FOUND when some step held every SLO. */
export const capacityRunVerdict = (r: CapacityResult): Verdict => decideCapacity(r.sustainable !== null, capacityHeadline(r), r.stopped === 'interrupted');

/**
 * @module compare/render-html
 * compare.html: one self-contained page (inline CSS and SVG, no script, no external URL) with,
 * per group, the forest plots of the deltas and latency ratios, the delta table and the broken and
 * fixed questions with both answers side by side; then the gates. Pure.
 */
import { compareVerdict } from './verdict.js';
import { verdictHtml, type Verdict } from '../verdict/index.js';
import { renderPage } from '../reports/html/page.js';
import { esc } from '../reports/html/svg.js';
import type { GateVerdict } from '../figures/gate-verdict.js';
import { renderForestPlot, type ForestRow } from './forest-plot.js';
import type { Comparison, FigureDelta, GroupComparison, QuestionChange, QuestionSide } from './schema.js';
import {
  formatDelta,
  formatDirection,
  formatInterval,
  formatPassChanges,
  formatRelative,
  formatValue,
  methodNote,
  shownFigures,
  significanceLine,
} from './table.js';

// After the shared report style: no width cap (report/html/style); the answers of broken and fixed
// questions wrap, left-aligned, in columns of their own.
const STYLE = `th,td{vertical-align:top}td.n{text-align:right}tr.sig td{font-weight:600}tr.few td{color:#767676}.worse{color:#b34700}.better{color:#005a8c}
table.answers{table-layout:fixed;width:100%;min-width:640px}.answers th,.answers td{white-space:normal;text-align:left;overflow-wrap:anywhere;font-size:13px}
.answers th:first-child,.answers td:first-child{width:24%}.answers .answer{white-space:pre-wrap;margin-top:.25rem}
.fail{color:#b34700}.pass{color:#0072B2}figure{margin:.5rem 0}figcaption{font-size:12px;color:#555}ul.gates{list-style:none;padding-left:0}`;

/** A check or a cross drawn in SVG, so it shows without an emoji font. */
export const passMark = (passed: boolean): string =>
  passed
    ? '<svg class="mark pass" viewBox="0 0 16 16" width="14" height="14" role="img" aria-label="passed"><path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" stroke-width="2.2"/></svg>'
    : '<svg class="mark fail" viewBox="0 0 16 16" width="14" height="14" role="img" aria-label="failed"><path d="M4 4l8 8M12 4l-8 8" fill="none" stroke="currentColor" stroke-width="2.2"/></svg>';

function forestRows(figures: readonly FigureDelta[], latency: boolean): ForestRow[] {
  return figures
    .filter((f) => (f.kind === 'latency') === latency)
    .flatMap((f): ForestRow[] => {
      const estimate = latency ? f.ratio : f.delta;
      if (estimate === null) return [];
      const ci = latency ? f.ratio_ci : f.ci;
      const text = latency ? formatInterval(f) : `${formatDelta(f, f.delta)} ${formatInterval(f)}`;
      return [
        {
          label: f.figure,
          estimate,
          low: ci?.low ?? null,
          high: ci?.high ?? null,
          significant: f.significant,
          direction: f.direction,
          text,
        },
      ];
    });
}

function table(c: Comparison, g: GroupComparison): string {
  const rows = shownFigures(c, g).map((f) => {
    const cls = f.significant ? ` class="sig ${f.direction ?? ''}"` : f.enough_samples ? '' : ' class="few"';
    return `<tr${cls}><td>${esc(f.figure)}${f.significant ? ' ✱' : ''}</td><td class="n">${esc(formatValue(f, f.baseline))}</td><td class="n">${esc(formatValue(f, f.current))}</td><td class="n">${esc(formatDelta(f, f.delta))}</td><td class="n">${esc(formatRelative(f.relative))}</td><td>${esc(formatInterval(f))}</td><td>${esc(formatDirection(f))}</td></tr>`;
  });
  return `<div class="table-wrap"><table><thead><tr><th>figure</th><th>baseline</th><th>current</th><th>Δ</th><th>Δ%</th><th>95% CI (Δ; latency: ratio)</th><th>change</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

const side = (s: QuestionSide) =>
  `<div>${esc([...new Set(s.outcomes)].join('/') || 'no request')} · pass ${s.pass === null ? '–' : `${Math.round(s.pass * 100)}%`} · ${s.cited_document_ids.length > 0 ? `cited ${esc(s.cited_document_ids.join(', '))}` : 'cited nothing'}</div><div class="answer">${esc(s.answer ?? '(no answer)')}</div>`;

function changes(title: string, list: readonly QuestionChange[], cls: string): string {
  if (list.length === 0) return '';
  const rows = list.map(
    (q) =>
      `<tr><td><b>${esc(q.question_id)}</b><br>${esc(q.question)}<br><span class="${cls}">${esc(q.changes.join(', '))}</span></td><td>${side(q.baseline)}</td><td>${side(q.current)}</td></tr>`,
  );
  return `<h3>${esc(title)} (${list.length})</h3><div class="table-wrap"><table class="answers"><thead><tr><th>question</th><th>baseline</th><th>current</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function section(c: Comparison, g: GroupComparison): string {
  const shown = shownFigures(c, g);
  const q = g.questions;
  const oneSided = [
    q.baseline_only.length > 0 ? `baseline only: ${q.baseline_only.join(', ')}` : '',
    q.current_only.length > 0 ? `current only: ${q.current_only.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [
    `<section><h2>${esc(g.label)}</h2>`,
    `<p>${q.paired} questions paired${oneSided ? `; ${esc(oneSided)}` : ''}. ${esc(formatPassChanges(g))}.</p>`,
    renderForestPlot(forestRows(shown, false), {
      title: `${g.label}: score and rate changes`,
      reference: 0,
      axisLabel: 'current − baseline (95% paired bootstrap interval)',
    }),
    renderForestPlot(forestRows(shown, true), {
      title: `${g.label}: latency ratios`,
      reference: 1,
      axisLabel: 'current / baseline (95% bootstrap interval)',
    }),
    table(c, g),
    changes('Broken', g.broken, 'fail'),
    changes('Fixed', g.fixed, 'pass'),
    '</section>',
  ].join('\n');
}

function gatesSection(results: readonly GateVerdict[]): string {
  if (results.length === 0) return '';
  const failed = results.filter((r) => !r.passed).length;
  const items = [...results]
    .sort((a, b) => Number(a.passed) - Number(b.passed))
    .map((r) => `<li class="${r.passed ? 'pass' : 'fail'}">${passMark(r.passed)} ${esc(r.reason)}</li>`);
  return `<section><h2>Gates: ${failed === 0 ? `all ${results.length} passed` : `${failed} of ${results.length} failed`}</h2><ul class="gates">${items.join('')}</ul></section>`;
}

/** compare.html for a comparison and its gates. */
export function renderCompareHtml(
  comparison: Comparison,
  gates: readonly GateVerdict[] = [],
  verdict: Verdict = compareVerdict(comparison, gates),
): string {
  const c = comparison;
  const unmatched =
    c.unmatched.baseline.length + c.unmatched.current.length === 0
      ? ''
      : `<p>Not compared — baseline only: ${esc(c.unmatched.baseline.map((g) => g.label).join(', ') || 'none')}; current only: ${esc(c.unmatched.current.map((g) => g.label).join(', ') || 'none')}.</p>`;
  return renderPage({
    title: 'chatbench comparison',
    css: STYLE,
    footer: `Compared with a seeded bootstrap (seed ${c.seed}); chatbench compare.`,
    main: [
      '<h1>chatbench comparison</h1>',
      verdictHtml(verdict, esc),
      `<p>Baseline <code>${esc(c.baseline.source)}</code> (${c.baseline.requests} requests) → current <code>${esc(c.current.source)}</code> (${c.current.requests} requests).</p>`,
      `<p><b>${esc(significanceLine(c))}</b> ${esc(methodNote(c))} Greyed rows had too few values to be tested.</p>`,
      unmatched,
      gatesSection(gates),
      ...c.groups.map((g) => section(c, g)),
    ],
  });
}

/**
 * @module compare/render-md
 * compare.md and the GitHub step summary: per group a table of deltas with their intervals and
 * arrows (significant ones in bold with ✱), the pass changes with their sign test, and the broken
 * and fixed questions with both answers side by side; then the gates. Pure.
 */
import { compareVerdict } from './verdict.js';
import { verdictMarkdown, type Verdict } from '../verdict/index.js';
import { mdCode, replaceUnprintable, trimText } from '../reports/format.js';
import type { GateVerdict } from '../figures/gate-verdict.js';
import type { Comparison, GroupComparison, QuestionChange, QuestionSide } from './schema.js';
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

/** Text safe in a Markdown table cell: one line, pipes escaped. */
export const mdCell = (text: string): string =>
  replaceUnprintable(text)
    .replace(/\r?\n|\r/g, ' ')
    .replace(/\|/g, '\\|');

const ANSWER_SHOWN = 160;

function header(c: Comparison): string[] {
  const side = (s: Comparison['baseline']) =>
    `${mdCode(s.source)} (${s.requests} requests, ${s.questions} questions${s.repeats > 1 ? `, ${s.repeats} repeats` : ''}${s.torn_lines > 0 ? `, ${s.torn_lines} torn last line skipped` : ''})`;
  const sig = c.significant.better + c.significant.worse === 0 ? significanceLine(c) : `**${significanceLine(c)}**`;
  const lines = [
    `Baseline ${side(c.baseline)} → current ${side(c.current)}.`,
    '',
    `${sig} ${methodNote(c)} Rows in _italics_ had too few values to be tested.`,
  ];
  const maps = Object.entries(c.set_map);
  if (maps.length > 0) lines.push('', `Sets mapped: ${maps.map(([a, b]) => `${a} → ${b}`).join(', ')}.`);
  if (c.unmatched.baseline.length + c.unmatched.current.length > 0) {
    lines.push(
      '',
      `Not compared — baseline only: ${c.unmatched.baseline.map((g) => g.label).join(', ') || 'none'}; current only: ${c.unmatched.current.map((g) => g.label).join(', ') || 'none'}.`,
    );
  }
  return lines;
}

/** The delta table of one group. */
export function renderGroupTable(c: Comparison, g: GroupComparison): string[] {
  const rows = shownFigures(c, g).map((f) => {
    const mark = f.significant ? ' ✱' : '';
    // Greyed (italic) when too few values to test it: the value is shown, never judged.
    const grey = (text: string) => (f.enough_samples ? text : `_${text}_`);
    const name = f.significant ? `**${f.figure}**` : grey(f.figure);
    return `| ${name} | ${grey(formatValue(f, f.baseline))} | ${grey(formatValue(f, f.current))} | ${formatDelta(f, f.delta)} | ${formatRelative(f.relative)} | ${formatInterval(f)} | ${formatDirection(f)}${mark} |`;
  });
  return [
    '| figure | baseline | current | Δ | Δ% | 95% CI (Δ; latency: ratio) | change |',
    '|---|--:|--:|--:|--:|---|---|',
    ...rows,
  ];
}

const sideText = (s: QuestionSide) => {
  const outcomes = [...new Set(s.outcomes)].join('/') || 'no request';
  const cited = s.cited_document_ids.length > 0 ? `cited ${s.cited_document_ids.join(', ')}` : 'cited nothing';
  const answer = s.answer === null ? '' : ` · “${trimText(s.answer, ANSWER_SHOWN)}”`;
  return mdCell(`${outcomes} · ${cited}${answer}`);
};

function changeTable(title: string, changes: readonly QuestionChange[]): string[] {
  if (changes.length === 0) return [];
  return [
    '',
    `### ${title} (${changes.length})`,
    '',
    '| question | change | baseline | current |',
    '|---|---|---|---|',
    ...changes.map(
      (q) =>
        `| **${mdCell(q.question_id)}** ${mdCell(trimText(q.question, 80))} | ${mdCell(q.changes.join(', '))} | ${sideText(q.baseline)} | ${sideText(q.current)} |`,
    ),
  ];
}

function groupSection(c: Comparison, g: GroupComparison, details: boolean): string[] {
  const q = g.questions;
  const oneSided = [
    q.baseline_only.length > 0 ? `baseline only: ${q.baseline_only.join(', ')}` : '',
    q.current_only.length > 0 ? `current only: ${q.current_only.join(', ')}` : '',
  ].filter(Boolean);
  const lines = [
    '',
    `## ${mdCell(g.label)}`,
    '',
    `${q.paired} questions paired${oneSided.length > 0 ? `; ${oneSided.join('; ')}` : ''}. ${formatPassChanges(g)}.`,
    '',
    ...renderGroupTable(c, g),
  ];
  if (details) lines.push(...changeTable('Broken', g.broken), ...changeTable('Fixed', g.fixed));
  else if (g.broken.length > 0)
    lines.push('', `Broken: ${g.broken.map((b) => `${mdCell(b.question_id)} (${b.changes.join(', ')})`).join('; ')}`);
  return lines;
}

/** The gates section: failed ones with their reasons, then a count of the passed ones. */
export function renderGatesMd(results: readonly GateVerdict[]): string[] {
  if (results.length === 0) return [];
  const failed = results.filter((r) => !r.passed);
  return [
    '',
    `## Gates: ${failed.length === 0 ? `all ${results.length} passed` : `${failed.length} of ${results.length} failed`}`,
    '',
    ...failed.map((r) => `- ❌ ${mdCell(r.reason)}`),
    ...results.filter((r) => r.passed).map((r) => `- ✅ ${mdCell(r.reason)}`),
  ];
}

/** compare.md: the whole comparison, with broken and fixed questions and the gates. */
export function renderCompareMd(
  comparison: Comparison,
  gates: readonly GateVerdict[] = [],
  verdict: Verdict = compareVerdict(comparison, gates),
): string {
  return [
    '# chatbench comparison',
    '',
    ...verdictMarkdown(verdict),
    '',
    ...(comparison.model_changes.length === 0 ? [] : [...comparison.model_changes.map((line) => `> **${line}**`), '']),
    ...header(comparison),
    ...renderGatesMd(gates),
    ...comparison.groups.flatMap((g) => groupSection(comparison, g, true)),
    '',
  ].join('\n');
}

/** For $GITHUB_STEP_SUMMARY: the tables, the broken question ids and the gates, without the answers. */
export function renderStepSummary(
  comparison: Comparison | null,
  gates: readonly GateVerdict[],
  verdict: Verdict = compareVerdict(comparison, gates),
): string {
  const lines = ['## chatbench', '', ...verdictMarkdown(verdict), ''];
  if (comparison !== null) lines.push(...header(comparison));
  lines.push(...renderGatesMd(gates));
  if (comparison !== null) lines.push(...comparison.groups.flatMap((g) => groupSection(comparison, g, false)));
  return `${lines.join('\n')}\n`;
}

/** compare.json: the Comparison as it is, two-space indented. */
export const renderCompareJson = (comparison: Comparison): string => `${JSON.stringify(comparison, null, 2)}\n`;

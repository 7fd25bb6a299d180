/**
 * @module compare/table
 * What the human-readable comparison reports show of a group, and how each figure is printed:
 * the headline scores and rates, the repeat figures when a run had repeats, the headline latency
 * statistics, and any other figure whose change is significant. Shared by compare.md, compare.html
 * and the step summary so they never disagree.
 */
export {
  fewSamplesText,
  formatDelta,
  formatDirection,
  formatInterval,
  formatRelative,
  formatSamples,
  formatValue,
  withinTimingText,
} from './format-delta.js';
import {
  HEADLINE_FIGURES,
  HEADLINE_LATENCY,
  QUALITY_HEADLINE,
  REPEAT_FIGURES,
  REVIEW_FIGURES,
  figureKind,
} from '../figures/catalogue.js';
import type { Comparison, FigureDelta, GroupComparison } from './schema.js';

/** Significant changes of other scores shown below the headline rows, at most. */
const OTHERS_SHOWN = 8;

/**
 * The rows shown for a group, in order: the headline scores and rates, human_pass_rate (when a
 * run has reviews), the answer-quality scores and the user's checks (when a run has them), the
 * repeat figures (when a run had repeats), the headline latencies, then up to 8 other figures whose
 * change is significant (every figure is in compare.json).
 */
export function shownFigures(_comparison: Comparison, group: GroupComparison): FigureDelta[] {
  const checks = group.figures
    .filter((f) => f.kind === 'score' && figureKind(f.figure) === undefined)
    .map((f) => f.figure);
  const wanted: string[] = [
    ...HEADLINE_FIGURES,
    ...REVIEW_FIGURES,
    ...QUALITY_HEADLINE,
    ...checks,
    ...REPEAT_FIGURES,
    ...HEADLINE_LATENCY,
  ];
  const byName = new Map(group.figures.map((f) => [f.figure, f]));
  const rows = wanted.flatMap((name) => byName.get(name) ?? []).filter((f) => f.headline);
  const others = group.figures.filter((f) => !f.headline && f.significant).slice(0, OTHERS_SHOWN);
  return [...rows, ...others];
}

/** "Significant changes: 2 worse, 1 better, of 412 tests (…)" or "No significant change among 412 tests (…)". */
export function significanceLine(c: Comparison): string {
  const how = `false discovery rate held at ${Math.round(c.fdr.q * 100)}% by Benjamini–Hochberg`;
  const { better, worse } = c.significant;
  return better + worse === 0
    ? `No significant change among ${c.fdr.tests} tests (${how}).`
    : `Significant changes: ${worse} worse, ${better} better, of ${c.fdr.tests} tests (${how}).`;
}

/** How to read the marks and the greyed rows: the same words in compare.md, compare.html and the step summary. */
export function methodNote(c: Comparison): string {
  return `Intervals: 95% bootstrap, ${c.resamples} resamples, seed ${c.seed}; scores and rates paired by question. ✱ = in the list of significant changes: its own interval excludes 0 (a latency ratio: 1) and it stays significant after Benjamini–Hochberg over all ${c.fdr.tests} tests of this comparison. A figure with too few values is shown with its n and is never tested: a mean needs ${c.min_samples} paired questions, a latency p-quantile 10 / (1 − p) ok samples on each side (p50 20, p95 200, p99 1,000); a max, none suffice. A gate marked “significant” uses this same test: it fails only on a change in this list.`;
}

/** "5 pass→fail, 1 fail→pass, 34 unchanged (sign test p = 0.22)". */
export function formatPassChanges(group: GroupComparison): string {
  const s = group.pass_changes;
  const p = s.p_value < 0.001 ? s.p_value.toExponential(1) : s.p_value.toFixed(3);
  // Supporting detail: it counts questions whose pass flipped, ignoring the rest, so it may differ
  // from pass_rate's row (which decides) and says so.
  return `Supporting detail, not the verdict: ${s.worse} questions passed less, ${s.better} passed more, ${s.unchanged} unchanged (exact sign test on the flips only, p = ${p}; pass_rate's row above decides)`;
}

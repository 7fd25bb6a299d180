/**
 * @module compare/table
 * What the human-readable comparison reports show of a group, and how each figure is printed:
 * the headline scores and rates, the repeat figures when a run had repeats, the headline latency
 * statistics, and any other figure whose change is significant. Shared by compare.md, compare.html
 * and the step summary so they never disagree.
 */
export { formatDelta, formatDirection, formatInterval, formatRelative, formatValue } from './format-delta.js';
import { HEADLINE_FIGURES, HEADLINE_LATENCY, REPEAT_FIGURES, REVIEW_FIGURES } from '../figures/catalogue.js';
import type { Comparison, FigureDelta, GroupComparison } from './schema.js';

/** Significant changes of other scores shown below the headline rows, at most. */
const OTHERS_SHOWN = 8;

/**
 * The rows shown for a group, in order: the headline scores and rates, human_pass_rate (when a
 * run has reviews), the repeat figures (when a run had repeats), the headline latencies, then up to 8 other scores whose change is
 * significant (every figure is in compare.json).
 */
export function shownFigures(_comparison: Comparison, group: GroupComparison): FigureDelta[] {
  const wanted: string[] = [...HEADLINE_FIGURES, ...REVIEW_FIGURES, ...REPEAT_FIGURES, ...HEADLINE_LATENCY];
  const byName = new Map(group.figures.map((f) => [f.figure, f]));
  const rows = wanted.flatMap((name) => byName.get(name) ?? []).filter((f) => f.headline);
  const others = group.figures.filter((f) => !f.headline && f.significant && f.kind === 'score').slice(0, OTHERS_SHOWN);
  return [...rows, ...others];
}

/** "5 pass→fail, 1 fail→pass, 34 unchanged (sign test p = 0.22)". */
export function formatPassChanges(group: GroupComparison): string {
  const s = group.pass_changes;
  const p = s.p_value < 0.001 ? s.p_value.toExponential(1) : s.p_value.toFixed(3);
  return `${s.worse} questions passed less, ${s.better} passed more, ${s.unchanged} unchanged (exact sign test p = ${p})`;
}

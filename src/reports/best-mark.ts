/**
 * @module reports/best-mark
 * Whether a column of a side-by-side table holds a row's "best" mark: only where the verdict's
 * marks (compare/pairwise bestMarks: significant by the paired comparison of the sets, after
 * Benjamini–Hochberg) name its set, in its mode and, for a multi-model set, its model. Shared by
 * the reports' tables (reports/comparison) and the viewer's overview (viewer/ui/best), so they mark
 * the same cells. Dependency-free (types only), so the browser bundle can import it.
 */
import type { BestMark } from '../verdict/verdict.js';

export function isMarkedBest(
  best: readonly BestMark[],
  figure: string | undefined,
  column: { readonly set: string; readonly mode: string; readonly model_index: number | null },
): boolean {
  if (figure === undefined) return false;
  return best.some((m) => m.figure === figure && m.set === column.set && m.mode === column.mode && m.model_index === column.model_index);
}

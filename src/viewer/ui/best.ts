/**
 * @module viewer/ui/best
 * Which cells of the overview are judged and which hold a row's best: the viewer's side of the one
 * minimum-sample rule (figures/min-samples gives each figure its `min_n`, viewer/model) and of the
 * one "best" rule (a run's verdict.json carries its marks, decided by the paired comparison of its
 * sets; reports/best-mark reads them for the reports' tables and here alike). Plain TypeScript, no
 * JSX, so the reports' agreement test can import it.
 */
import { isMarkedBest } from '../../reports/best-mark.js';
import type { ViewColumn, ViewEstimate, ViewFigure, ViewRun } from '../view-data.js';

/**
 * Whether a cell rests on enough values to be judged: the figure's `min_n` (figures/min-samples,
 * the rule every report applies: a mean 5, a p95 200; a max never). Older data without `min_n`: 5.
 */
export function enoughValues(figure: Pick<ViewFigure, 'min_n'>, cell: ViewEstimate): boolean {
  const min = figure.min_n === undefined ? 5 : figure.min_n;
  return cell.n === null ? min !== null : min !== null && cell.n >= min;
}

/**
 * Which cells of a row hold its best: those whose run's verdict marks the column's set best on the
 * figure (significant by the paired comparison of the run's sets), with enough values. A run
 * without a verdict (or one set) marks nothing: a higher value alone is no winner. With several
 * runs shown, each mark is best among the sets of its own run.
 */
export function bestOf(
  figure: ViewFigure,
  columns: readonly Pick<ViewColumn, 'run' | 'set' | 'mode' | 'model_index'>[],
  cells: readonly (ViewEstimate | null)[],
  runs: readonly Pick<ViewRun, 'verdict'>[],
): boolean[] {
  return columns.map((c, i) => {
    const cell = cells[i] ?? null;
    return (
      cell !== null && enoughValues(figure, cell) && isMarkedBest(runs[c.run]?.verdict?.best ?? [], figure.name, c)
    );
  });
}

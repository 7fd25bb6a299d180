/**
 * @module viewer/ui/best
 * Which cells of the overview are judged and which hold a row's best: the viewer's side of the one
 * minimum-sample rule (figures/min-samples gives each figure its `min_n`, viewer/model). Plain
 * TypeScript, no JSX, so the reports' agreement test can import it.
 */
import type { ViewEstimate, ViewFigure } from '../view-data.js';
import { formatFigure } from './figures.js';

/**
 * Whether a cell rests on enough values to be judged: the figure's `min_n` (figures/min-samples,
 * the rule every report applies: a mean 5, a p95 200; a max never). Older data without `min_n`: 5.
 */
export function enoughValues(figure: Pick<ViewFigure, 'min_n'>, cell: ViewEstimate): boolean {
  const min = figure.min_n === undefined ? 5 : figure.min_n;
  return cell.n === null ? min !== null : min !== null && cell.n >= min;
}

/** Which cells of a row hold its best value, judged on the value as printed; only cells with enough values compete. */
export function bestOf(figure: ViewFigure, cells: readonly (ViewEstimate | null)[]): boolean[] {
  const present = cells.filter((c): c is ViewEstimate => c !== null && enoughValues(figure, c));
  if (present.length < 2) return cells.map(() => false);
  const best = figure.higher_is_better ? Math.max(...present.map((c) => c.value)) : Math.min(...present.map((c) => c.value));
  const text = formatFigure(figure, best);
  const marked = cells.map((c) => c !== null && enoughValues(figure, c) && formatFigure(figure, c.value) === text);
  return present.every((c) => formatFigure(figure, c.value) === text) ? cells.map(() => false) : marked;
}


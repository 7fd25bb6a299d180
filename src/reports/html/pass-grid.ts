/**
 * @module reports/html/pass-grid
 * Questions × columns, one cell each: which questions fail everywhere (a dataset or corpus
 * problem) and which fail only for one set (a model problem). Colour plus a glyph, so the states
 * never rest on colour alone; each cell's <title> says why.
 */
import { scaleBand } from 'd3-scale';
import type { ReportColumn } from '../comparison.js';
import { trimText } from '../format.js';
import { CELL_STATES, cellState, cellStateOfCounts, type CellState } from '../cell-state.js';
import { columnKey } from '../distributions.js';
import { MAX_GRID_QUESTIONS, type PassGridData } from '../pass-grid-data.js';
import { esc, figure, legend, px } from './svg.js';

export { MAX_GRID_QUESTIONS };

export { CELL_STATES, cellState, cellStateOfCounts, type CellState };

const CELL_W = 56;
const CELL_H = 22;
const M = { top: 10, right: 10, bottom: 10, left: 150 };
/** Column labels are written at 45° above their column; their length sets the header's height. */
const LABEL_CHARS = 40;
const CHAR_W = 6.6;
const SIN45 = Math.SQRT1_2;

/** The pass/fail grid (data-chart="pass-grid"). */
export function renderPassGrid(columns: readonly ReportColumn[], grid: PassGridData): string {
  const shown = grid.questions.slice(0, MAX_GRID_QUESTIONS);
  const questions = shown.map((q) => q.id);
  const labels = columns.map((c) => trimText(c.label, LABEL_CHARS));
  // A 45° label rises and runs right by the same amount: room above the grid and after its last column.
  const reach = Math.ceil(Math.max(0, ...labels.map((l) => Array.from(l).length)) * CHAR_W * SIN45) + 12;
  const header = reach;
  const width = M.left + columns.length * CELL_W + Math.max(M.right, reach - CELL_W / 2);
  const height = M.top + header + questions.length * CELL_H + M.bottom;
  const x = scaleBand<number>()
    .domain(columns.map((_, i) => i))
    .range([M.left, M.left + columns.length * CELL_W])
    .padding(0.08);
  const y = scaleBand<string>()
    .domain(questions)
    .range([M.top + header, M.top + header + questions.length * CELL_H])
    .padding(0.08);
  const keys = columns.map(columnKey);
  const questionText = new Map(shown.map((q) => [q.id, q.text]));
  const counts: Record<CellState, number> = { pass: 0, partial: 0, fail: 0, error: 0, none: 0 };
  const cells = shown.flatMap(({ id: q, cells: byColumn }) =>
    columns.map((column, i) => {
      const cell = byColumn.get(keys[i]!) ?? { tries: 0, passed: 0, anyOk: false, reasons: [] };
      const state = cellStateOfCounts(cell);
      counts[state] += 1;
      const s = CELL_STATES[state];
      const cx = px(x(i) ?? 0);
      const cy = px(y(q) ?? 0);
      const title = [`${q} · ${column.label}: ${s.label}`, ...(cell.tries > 1 ? [`${cell.passed}/${cell.tries} repeats passed`] : []), ...cell.reasons, trimText(questionText.get(q) ?? '', 120)].join('\n');
      const glyph = s.glyph ? `<text class="glyph${s.dark ? ' on-dark' : ''}" x="${px(cx + x.bandwidth() / 2)}" y="${px(cy + y.bandwidth() / 2)}" dy="0.35em" text-anchor="middle">${s.glyph}</text>` : '';
      return `<g class="grid-cell" data-state="${state}"><rect class="grid-cell-box" x="${cx}" y="${cy}" width="${px(x.bandwidth())}" height="${px(y.bandwidth())}" rx="2" fill="${s.colour}"/>${glyph}<title>${esc(title)}</title></g>`;
    }),
  );
  const rowLabels = questions.map(
    (q) => `<text class="row-label" x="${M.left - 8}" y="${px((y(q) ?? 0) + y.bandwidth() / 2)}" dy="0.35em" text-anchor="end">${esc(trimText(q, 22))}<title>${esc(trimText(questionText.get(q) ?? q, 200))}</title></text>`,
  );
  const columnLabels = columns.map(
    (c, i) =>
      `<text class="col-label" transform="translate(${px((x(i) ?? 0) + x.bandwidth() / 2)},${M.top + header - 6}) rotate(-45)" text-anchor="start">${esc(labels[i]!)}<title>${esc(c.label)}</title></text>`,
  );
  const left = grid.questionCount - questions.length;
  return figure({
    chart: 'pass-grid',
    caption: 'Pass or fail of every question in every set',
    label: `Grid of ${questions.length} questions by ${columns.length} sets: ${(Object.keys(counts) as CellState[]).map((k) => `${counts[k]} ${CELL_STATES[k].label}`).join(', ')}.`,
    width,
    natural: true,
    height,
    body: [...columnLabels, ...rowLabels, ...cells].join(''),
    after: [
      legend((Object.keys(CELL_STATES) as CellState[]).map((k) => ({ label: `${CELL_STATES[k].glyph ? `${CELL_STATES[k].glyph} ` : ''}${CELL_STATES[k].label}`, colour: CELL_STATES[k].colour, shape: 'box' }))),
      left > 0 ? `<p class="note">${left} more questions are not shown; results.csv has every one.</p>` : '',
    ].join('\n'),
  });
}

/**
 * @module reports/cell-state
 * The state of one question in one column over its repeats, and how it is drawn (colour-blind-safe
 * colour plus a glyph, so no state rests on colour alone). Shared by report.html's pass/fail grid
 * and the viewer, so both say "partial" of the same cell. Pure, no dependency.
 */

/** A cell's state over the repeats of one question in one column. */
export const CELL_STATES = {
  pass: { label: 'passed', colour: '#0072B2', glyph: '', dark: true },
  partial: { label: 'passed in some repeats', colour: '#56B4E9', glyph: '½', dark: false },
  fail: { label: 'failed', colour: '#E69F00', glyph: '×', dark: false },
  error: { label: 'request not ok', colour: '#3b3b3b', glyph: '!', dark: true },
  none: { label: 'not run', colour: '#eeeeee', glyph: '', dark: false },
} as const;
export type CellState = keyof typeof CELL_STATES;

/** pass: every repeat passed; fail: none passed and at least one came back ok; error: none came back ok. */
export function cellState(tries: readonly { readonly pass: boolean; readonly outcome: string }[]): CellState {
  return cellStateOfCounts({ tries: tries.length, passed: tries.filter((r) => r.pass).length, anyOk: tries.some((r) => r.outcome === 'ok') });
}

/** cellState from counts alone (what report.html's grid keeps per cell). */
export function cellStateOfCounts(c: { readonly tries: number; readonly passed: number; readonly anyOk: boolean }): CellState {
  if (c.tries === 0) return 'none';
  if (c.passed === c.tries) return 'pass';
  if (c.passed > 0) return 'partial';
  return c.anyOk ? 'fail' : 'error';
}

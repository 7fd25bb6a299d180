/**
 * @module reports/distributions
 * The latency CDFs of report.html, per column (set × mode, or one model) and figure: the values of
 * ok requests kept as numbers only (metrics/stats NumberSample) while the records stream past, or
 * read from the summary's own sorted values when the caller has them (`valuesOf`), then thinned to
 * CDF_POINTS step points each. The report keeps the points, never rows.
 */
import { createNumberSample, type Ascending, type NumberSample } from '../metrics/stats.js';
import type { ReportRow } from './report-row.js';

/** At most this many points per line (the extremes always kept). */
export const CDF_POINTS = 200;

/** The figures report.html draws as CDFs. */
export const CDF_FIGURES = ['ttfp_ms', 'total_ms', 'time_per_delta_ms', 'output_chars_per_s'] as const;
export type CdfFigure = (typeof CDF_FIGURES)[number];

export type CdfPoint = readonly [value: number, share: number];

/** One line: its step points and how many values it was drawn from. */
export interface CdfLine {
  readonly points: readonly CdfPoint[];
  readonly n: number;
}

/** A column's key, as its rows and its summary group name it. */
export const columnKey = (c: { readonly set: string; readonly mode: string; readonly model_index: number | null }): string =>
  JSON.stringify([c.set, c.mode, c.model_index]);

/** The lines by column key and figure; a column or figure without values is absent. */
export type Distributions = ReadonlyMap<string, Partial<Record<CdfFigure, CdfLine>>>;

/**
 * The empirical CDF of `values` as step points: (v0, 0) then (v_i, (i+1)/n), thinned to
 * CDF_POINTS by keeping evenly spaced ranks. Empty input gives no points.
 */
export function cdfPoints(values: ArrayLike<number>, maxPoints = CDF_POINTS): CdfPoint[] {
  return cdfPointsOfSorted(Float64Array.from(values).sort(), maxPoints);
}

/** cdfPoints of values already ascending. */
export function cdfPointsOfSorted(sorted: Ascending, maxPoints = CDF_POINTS): CdfPoint[] {
  const n = sorted.length;
  if (n === 0) return [];
  const keep = Math.max(2, maxPoints - 1);
  const ranks = n <= keep ? Array.from({ length: n }, (_, i) => i) : Array.from({ length: keep }, (_, j) => Math.round((j * (n - 1)) / (keep - 1)));
  return [[sorted.at(0)!, 0], ...[...new Set(ranks)].map((i): CdfPoint => [sorted.at(i)!, (i + 1) / n])];
}

export interface DistributionsBuilder {
  add(row: ReportRow): void;
  finish(): Distributions;
}

/** A column as its rows and its summary group name it. */
export interface Column {
  readonly set: string;
  readonly mode: ReportRow['mode'];
  readonly model_index: number | null;
}

/**
 * The values of a column's figure over its ok rows, ascending (a summary group's sorted latencies,
 * metrics/summarize `latency`): read once the rows are all in.
 */
export type ColumnValues = (column: Column, figure: CdfFigure) => Ascending;

/**
 * `valuesOf`: where the columns' values are kept already (the reports' pass: the summary's), so
 * that the builder notes only which columns have ok rows; without it, it keeps a sample of each.
 */
export function createDistributionsBuilder(valuesOf?: ColumnValues): DistributionsBuilder {
  return valuesOf === undefined ? createSampledDistributions() : createColumnDistributions(valuesOf);
}

function createColumnDistributions(valuesOf: ColumnValues): DistributionsBuilder {
  const columns = new Map<string, Column>();
  return {
    add(row) {
      if (row.outcome !== 'ok') return;
      const key = columnKey(row);
      if (!columns.has(key)) columns.set(key, { set: row.set, mode: row.mode, model_index: row.model_index });
    },
    finish() {
      const lines = new Map<string, Partial<Record<CdfFigure, CdfLine>>>();
      for (const [key, column] of columns) {
        const figures: Partial<Record<CdfFigure, CdfLine>> = {};
        for (const figure of CDF_FIGURES) {
          const values = valuesOf(column, figure);
          if (values.length > 0) figures[figure] = { points: cdfPointsOfSorted(values), n: values.length };
        }
        lines.set(key, figures);
      }
      return lines;
    },
  };
}

function createSampledDistributions(): DistributionsBuilder {
  const samples = new Map<string, Record<CdfFigure, NumberSample>>();
  return {
    add(row) {
      if (row.outcome !== 'ok') return;
      const key = columnKey(row);
      let mine = samples.get(key);
      if (mine === undefined) {
        mine = Object.fromEntries(CDF_FIGURES.map((f) => [f, createNumberSample()])) as Record<CdfFigure, NumberSample>;
        samples.set(key, mine);
      }
      for (const figure of CDF_FIGURES) {
        const value = row[figure];
        if (value !== null && Number.isFinite(value)) mine[figure].push(value);
      }
    },
    finish() {
      const lines = new Map<string, Partial<Record<CdfFigure, CdfLine>>>();
      for (const [key, mine] of samples) {
        const figures: Partial<Record<CdfFigure, CdfLine>> = {};
        for (const figure of CDF_FIGURES) {
          if (mine[figure].length > 0) figures[figure] = { points: cdfPointsOfSorted(mine[figure].sorted()), n: mine[figure].length };
        }
        lines.set(key, figures);
      }
      return lines;
    },
  };
}

/**
 * @module reports/distributions
 * The latency CDFs of report.html, per column (set × mode, or one model) and figure: the values of
 * ok requests kept as numbers only (8 bytes a value, metrics/stats NumberSample) while the records
 * stream past, then thinned to CDF_POINTS step points each. The report keeps the points, never rows.
 */
import { createNumberSample, type NumberSample } from '../metrics/stats.js';
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
export function cdfPointsOfSorted(sorted: ArrayLike<number>, maxPoints = CDF_POINTS): CdfPoint[] {
  const n = sorted.length;
  if (n === 0) return [];
  const keep = Math.max(2, maxPoints - 1);
  const ranks = n <= keep ? Array.from({ length: n }, (_, i) => i) : Array.from({ length: keep }, (_, j) => Math.round((j * (n - 1)) / (keep - 1)));
  return [[sorted[0]!, 0], ...[...new Set(ranks)].map((i): CdfPoint => [sorted[i]!, (i + 1) / n])];
}

export interface DistributionsBuilder {
  add(row: ReportRow): void;
  finish(): Distributions;
}

export function createDistributionsBuilder(): DistributionsBuilder {
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

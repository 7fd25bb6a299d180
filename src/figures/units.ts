/**
 * @module figures/units
 * The unit of every figure a gate, an SLO, a comparison or a report names, and how its value and
 * its change print: milliseconds `2,026 ms`, seconds `1.25 s`, characters per second
 * `534 chars/s`, per-second rates `12.5/s`, shares `73.3%` (changes in percentage points,
 * `+10 pts`), scores `0.812`, counts `3`. From the catalogue (figures/catalogue), with the load
 * run's own figures (`goodput`, `*_per_s`, `response_ms`, `late_sends`) by their names. Pure, no
 * dependency but the catalogue, so the terminal, every report and the verdict print alike.
 */
import { figureKind, SAMPLE_FIGURES, type LatencyFigure } from './catalogue.js';

export type FigureUnit = 'ms' | 's' | 'chars/s' | 'tokens' | 'tokens/s' | '/s' | '%' | 'score' | 'count';

const COUNTS: ReadonlySet<string> = new Set([
  'late_sends',
  'dropped',
  'invalid_citations',
  'duplicate_citations',
  'requests',
]);

/** The unit of a figure name, with or without its statistic (`ttft_ms.p95` → ms, `pass_rate` → %). */
export function figureUnit(name: string): FigureUnit {
  const base = name.split('.')[0] ?? name;
  if (base in SAMPLE_FIGURES) return SAMPLE_FIGURES[base as LatencyFigure].unit;
  const kind = figureKind(base);
  if (kind === 'rate') return '%';
  if (kind === 'score') return COUNTS.has(base) ? 'count' : 'score';
  if (COUNTS.has(base)) return 'count';
  if (/_ms$/.test(base)) return 'ms';
  if (/_per_s$/.test(base) || base === 'goodput') return '/s';
  if (/_rate$/.test(base)) return '%';
  return 'score';
}

const grouped = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: digits });

/** A magnitude in a unit, without sign handling: `2,026 ms`, `73.3%`, `0.812`. */
function magnitude(unit: FigureUnit, value: number): string {
  const abs = Math.abs(value);
  switch (unit) {
    case 'ms':
      return `${grouped(value, abs < 100 ? 1 : 0)} ms`;
    case 's':
      return `${grouped(value, abs < 10 ? 2 : 1)} s`;
    case 'chars/s':
      return `${grouped(value, abs < 100 ? 1 : 0)} chars/s`;
    case 'tokens':
      return `${grouped(value, abs < 100 ? 1 : 0)} tokens`;
    case 'tokens/s':
      return `${grouped(value, abs < 100 ? 1 : 0)} tokens/s`;
    case '/s':
      return `${grouped(value, abs < 100 ? 1 : 0)}/s`;
    case '%':
      return `${grouped(value * 100, 1)}%`;
    case 'count':
      return grouped(value, 0);
    case 'score':
      return grouped(value, 3);
  }
}

/** A figure's value in its unit; null or not finite → `n/a`. `formatFigureValue('ttft_ms.p95', 2025.8)` → `2,026 ms`. */
export function formatFigureValue(name: string, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return magnitude(figureUnit(name), value);
}

/**
 * A change of a figure, signed: shares in percentage points (`+10 pts`), everything else in its
 * own unit (`-0.081`, `+118 ms`). null → `n/a`.
 */
export function formatFigureDelta(name: string, delta: number | null | undefined): string {
  if (delta === null || delta === undefined || !Number.isFinite(delta)) return 'n/a';
  const unit = figureUnit(name);
  const sign = delta > 0 ? '+' : delta < 0 ? '-' : '±';
  if (unit === '%') return `${sign}${grouped(Math.abs(delta) * 100, 1)} pts`;
  return `${sign}${magnitude(unit, Math.abs(delta))}`;
}

/** A ratio current ÷ baseline: `×1.75`. */
export const formatRatio = (ratio: number | null | undefined): string =>
  ratio === null || ratio === undefined || !Number.isFinite(ratio) ? 'n/a' : `×${ratio.toFixed(2)}`;

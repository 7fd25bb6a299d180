/**
 * @module reports/terminal-table
 * The side-by-side comparison for a terminal: the same rows and best marks as report.md
 * (comparison.ts), laid out in aligned plain-text columns; `*` marks the verdict's best (significant
 * by the paired comparison of the sets; none given: no mark), and a figure from too few samples
 * carries its n ("(n=3)") and is never marked. The banner lines (failures, late timings) come
 * first, each after a `!`.
 *
 * Given a width (the terminal's, or $COLUMNS) the table fits it: the whole table when it does,
 * else the headline figures only, sets as rows, as many as fit in priority order (pass rate, TTFT,
 * total, ok %, TTFT p95), with a pointer to the report that has every figure; the notes wrap.
 */
import { timingNote } from '../metrics/banner.js';
import type { Summary } from '../records/summary.js';
import type { BestMark } from '../verdict/index.js';
import { bestNote, comparisonRows, NOT_CHECKED, reportColumns, type ComparisonRow } from './comparison.js';
import { wrapLines } from './fit-width.js';

export interface TerminalTableOptions {
  /** Columns to fit; undefined: no limit (a pipe or a file). */
  readonly width?: number | undefined;
  /** Where every figure is (report.md's path), named when the table shows the headline figures only. */
  readonly fullReport?: string | undefined;
}

/** `best`: the verdict's marks (Verdict.best); without them no cell is marked. */
export function renderTerminalTable(summary: Summary, best: readonly BestMark[] = [], options: TerminalTableOptions = {}): string {
  const banner = summary.banner.map((line) => `! ${line}\n`).join('');
  const timing = summary.timing === null ? '' : `${timingNote(summary.timing.loop_delay_ms)}\n`;
  const text = `${banner}${table(summary, best, options)}${timing}`;
  return options.width === undefined ? text : wrapLines(text, options.width);
}

/** The headline figures, most wanted first: what a compact table keeps while they fit. */
const HEADLINE_FIGURES = ['pass_rate', 'ttft_ms.p50', 'total_ms.p50', 'ok_rate', 'ttft_ms.p95'] as const;

const GAP = '  ';
const cellWidth = (text: string) => [...text].length;
const NOTE = (marker: string) => `(${bestNote(marker)}; (n=…): too few samples to judge, never best)`;

function table(summary: Summary, best: readonly BestMark[], options: TerminalTableOptions): string {
  const columns = reportColumns(summary);
  if (columns.length === 0) return 'no requests were recorded\n';
  const rows = comparisonRows(columns, best);
  const marked = (row: ComparisonRow, i: number) => (row.best[i] ? `${row.cells[i]!} *` : row.cells[i]!);
  const full = layout(['', ...columns.map((c) => c.label)], rows.map((row) => [row.label, ...row.cells.map((_, i) => marked(row, i))]));
  if (options.width === undefined || full.width <= options.width) return `${full.text}${NOTE('*')}\n`;
  // Sets as rows, figures as columns: the headline figures that fit, in the table's own order.
  const headline = rows.filter((row) => (row.values.some((v) => v !== null) || row.cells.includes(NOT_CHECKED)) && (HEADLINE_FIGURES as readonly string[]).includes(row.figure ?? ''));
  const byPriority = [...headline].sort((a, b) => HEADLINE_FIGURES.indexOf(a.figure as never) - HEADLINE_FIGURES.indexOf(b.figure as never));
  let kept: ComparisonRow[] = [];
  let compact = transposed(columns.map((c) => c.label), kept, marked);
  for (const row of byPriority) {
    const tried = headline.filter((r) => kept.includes(r) || r === row);
    const next = transposed(columns.map((c) => c.label), tried, marked);
    if (next.width > options.width) break;
    kept = tried;
    compact = next;
  }
  const where = options.fullReport === undefined ? 'report.md' : options.fullReport;
  return `${compact.text}${NOTE('*')}\nthe headline figures only (to fit ${options.width} columns); all ${rows.length} in ${where}\n`;
}

function transposed(labels: readonly string[], rows: readonly ComparisonRow[], marked: (row: ComparisonRow, i: number) => string) {
  return layout(['', ...rows.map((r) => r.label)], labels.map((label, i) => [label, ...rows.map((row) => marked(row, i))]));
}

/** Aligned columns: the first left-aligned, the rest right-aligned; `width` is the widest line. */
function layout(header: readonly string[], body: readonly (readonly string[])[]): { text: string; width: number } {
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((line) => cellWidth(line[i] ?? ''))));
  const format = (line: readonly string[]) =>
    line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(GAP).trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join(GAP);
  const lines = [format(header), rule, ...body.map(format)];
  return { text: `${lines.join('\n')}\n`, width: Math.max(...lines.map(cellWidth)) };
}

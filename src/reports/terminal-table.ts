/**
 * @module reports/terminal-table
 * The side-by-side comparison for a terminal: the same rows and best marks as report.md
 * (comparison.ts), laid out in aligned plain-text columns; `*` marks the verdict's best (significant
 * by the paired comparison of the sets; none given: no mark), and a figure from too few samples
 * carries its n ("(n=3)") and is never marked. The banner lines (failures, late timings) come
 * first, each after a `!`.
 */
import { timingNote } from '../metrics/banner.js';
import type { Summary } from '../records/summary.js';
import type { BestMark } from '../verdict/index.js';
import { bestNote, comparisonRows, reportColumns } from './comparison.js';

/** `best`: the verdict's marks (Verdict.best); without them no cell is marked. */
export function renderTerminalTable(summary: Summary, best: readonly BestMark[] = []): string {
  const banner = summary.banner.map((line) => `! ${line}\n`).join('');
  const timing = summary.timing === null ? '' : `${timingNote(summary.timing.loop_delay_ms)}\n`;
  return `${banner}${table(summary, best)}${timing}`;
}

function table(summary: Summary, best: readonly BestMark[]): string {
  const columns = reportColumns(summary);
  if (columns.length === 0) return 'no requests were recorded\n';
  const rows = comparisonRows(columns, best);
  const header = ['', ...columns.map((c) => c.label)];
  const body = rows.map((row) => [row.label, ...row.cells.map((cell, i) => (row.best[i] ? `${cell} *` : cell))]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((line) => [...(line[i] ?? '')].length)));
  const format = (line: readonly string[]) =>
    line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  return `${[format(header), rule, ...body.map(format)].join('\n')}\n(${bestNote('*')}; (n=…): too few samples to judge, never best)\n`;
}

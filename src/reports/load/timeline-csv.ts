/**
 * @module reports/load/timeline-csv
 * timeline.csv: one row per second (issue 5 §4): offered, sent, ok, 429, errors, in flight, TTFT, TTFP
 * and total p50/p95, with the window each second belongs to and the dropped arrivals. A
 * percentile with no completion in that second is an empty cell.
 */
import { stringify } from 'csv-stringify/sync';
import { TimelineRowSchema, type TimelineRow } from '../../records/load-summary.js';

export const TIMELINE_COLUMNS = Object.keys(TimelineRowSchema.shape) as (keyof TimelineRow)[];

/** The CSV text, header first; no rows → the header alone. */
export function renderTimelineCsv(rows: readonly TimelineRow[]): string {
  const cells = rows.map((r) => TIMELINE_COLUMNS.map((c) => {
    const v = r[c];
    return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(3)) : v;
  }));
  return stringify([TIMELINE_COLUMNS, ...cells], { cast: { number: String } });
}

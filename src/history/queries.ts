/**
 * @module history/queries
 * What the history answers: runs by filter, one figure's trend, the last passing run, any SQL.
 * Each takes an open store (history/store withStore).
 */
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { plainRows, rows, type Row } from './store.js';

export interface RunFilter {
  command?: string | undefined;
  set?: string | undefined;
  branch?: string | undefined;
  verdict?: string | undefined;
  /** ISO date or date-time: runs that ended at or after it. */
  since?: string | undefined;
  until?: string | undefined;
}

function where(filter: RunFilter): { sql: string; values: DuckDBValue[] } {
  const parts: string[] = [];
  const values: DuckDBValue[] = [];
  const add = (clause: string, value: string) => {
    values.push(value);
    parts.push(clause.replace('?', `$${values.length}`));
  };
  if (filter.command !== undefined) add('r.command = ?', filter.command);
  if (filter.branch !== undefined) add('r.git_branch = ?', filter.branch);
  if (filter.verdict !== undefined) add('r.verdict = ?', filter.verdict);
  if (filter.since !== undefined) add('r.ended_at >= ?', filter.since);
  if (filter.until !== undefined) add('r.ended_at <= ?', filter.until);
  if (filter.set !== undefined)
    add('exists (select 1 from figures f where f.run_dir = r.run_dir and f.set_name = ?)', filter.set);
  return { sql: parts.length === 0 ? '' : `where ${parts.join(' and ')}`, values };
}

/** Runs, oldest first, each with its figures when `withFigures`. */
export async function listRuns(db: DuckDBConnection, filter: RunFilter, withFigures: boolean): Promise<Row[]> {
  const w = where(filter);
  const runs = await rows(db, `select r.* from runs r ${w.sql} order by r.ended_at, r.run_dir`, w.values);
  if (!withFigures) return runs;
  for (const run of runs) {
    run.figures = await rows(
      db,
      `select set_name, mode, step, figure, value, ci_low, ci_high, n from figures where run_dir = $1 order by set_name, mode, step, figure`,
      [String(run.run_dir)],
    );
  }
  return runs;
}

export interface TrendPoint {
  run_dir: string;
  id: string;
  ended_at: string;
  set_name: string;
  mode: string;
  value: number;
  ci_low: number | null;
  ci_high: number | null;
  n: number | null;
}

/** One figure across runs, in the order the runs ended (capacity steps left out: a step is not a run). */
export async function trend(db: DuckDBConnection, figure: string, filter: RunFilter): Promise<TrendPoint[]> {
  const w = where(filter);
  const values: DuckDBValue[] = [...w.values, figure];
  let sql = `select r.run_dir, r.id, r.ended_at, f.set_name, f.mode, f.value, f.ci_low, f.ci_high, f.n
    from runs r join figures f on f.run_dir = r.run_dir ${w.sql === '' ? 'where' : `${w.sql} and`} f.figure = $${values.length} and f.step is null and f.value is not null`;
  if (filter.set !== undefined) {
    values.push(filter.set);
    sql += ` and f.set_name = $${values.length}`;
  }
  return (await rows(
    db,
    `${sql} order by r.ended_at, r.run_dir, f.set_name, f.mode`,
    values,
  )) as unknown as TrendPoint[];
}

/** The run directory of the latest passing run of `command` (on `branch` when given); undefined when none. */
export async function lastPassing(
  db: DuckDBConnection,
  command: string,
  branch: string | undefined,
  excluding: string | undefined,
): Promise<string | undefined> {
  const w = where({ command, branch });
  const values: DuckDBValue[] = [...w.values, excluding ?? ''];
  const found = await rows(
    db,
    `select r.run_dir from runs r ${w.sql} and r.verdict in ('passed', 'no-gate') and r.exit_code = 0 and r.run_dir <> $${values.length} order by r.ended_at desc, r.run_dir desc limit 1`,
    values,
  );
  return found[0] === undefined ? undefined : String(found[0].run_dir);
}

/** Any SQL; the rows as JSON values (history/store plainRows). */
export async function query(db: DuckDBConnection, sql: string): Promise<{ columns: string[]; rows: Row[] }> {
  const reader = await db.runAndReadAll(sql);
  return { columns: reader.columnNames(), rows: plainRows(reader.getRowObjectsJS()) };
}

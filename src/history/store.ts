/**
 * @module history/store
 * The history store: one DuckDB file (docs/history.md says why DuckDB). The I/O edge of the history:
 * everything else in src/history is pure. DuckDB lets one process at a time open a file for
 * writing, so each use opens the file, does its work in a transaction and closes it; a process
 * that finds the file locked by another retries for a bounded time. Two runs ending at once both
 * register, one after the other.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { InputError } from '../errors.js';
import { MIGRATIONS, SCHEMA_VERSION, type RunEntry } from './schema.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Row = Record<string, Json>;

/** How long a process waits for another's lock on the store before giving up. */
const LOCK_WAIT_MS = 15_000;
const LOCK_RETRY_MS = 50;

/** The way to rebuild a store the run directories can always rebuild. */
export const rebuildHint = (file: string): string =>
  `move ${file} away, then rebuild it from the run directories: chatbench history import reports/*`;

// One process opens the file once at a time: DuckDB refuses a second instance of one file in a process.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` with the store open (created and migrated forward as needed), then closes it.
 * `readOnly`: `work` cannot change the store (`chatbench query` runs the user's SQL so).
 */
export function withStore<T>(
  file: string,
  work: (db: DuckDBConnection) => Promise<T>,
  options: { readOnly?: boolean } = {},
): Promise<T> {
  const next = queue.then(async () => {
    if (!options.readOnly) return openAndRun(file, work, false);
    await openAndRun(file, async () => undefined, false);
    return openAndRun(file, work, true);
  });
  queue = next.catch(() => undefined);
  return next;
}

async function openAndRun<T>(file: string, work: (db: DuckDBConnection) => Promise<T>, readOnly: boolean): Promise<T> {
  await mkdir(dirname(file), { recursive: true });
  if (!readOnly && (await stat(file).catch(() => undefined)) === undefined) await createStore(file);
  const instance = await openInstance(file, readOnly);
  try {
    const db = await instance.connect();
    try {
      if (!readOnly) await migrate(db, file);
      return await work(db);
    } finally {
      db.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/**
 * Creates the store under its name in one step: built and migrated in a file of this process, then
 * linked into place, which fails (EEXIST) when another process got there first, whose store is then
 * used. DuckDB creating the file in place left a moment when a second process could open it empty,
 * refuse it as "not a valid DuckDB database", and its runs were skipped.
 */
export async function createStore(file: string): Promise<void> {
  const own = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  try {
    const instance = await DuckDBInstance.create(own, { autoinstall_known_extensions: 'false' });
    try {
      const db = await instance.connect();
      try {
        await migrate(db, file);
      } finally {
        db.closeSync();
      }
    } finally {
      instance.closeSync();
    }
    // EEXIST: another process's store is in place. A file system without hard links (EPERM, ENOTSUP)
    // falls back to DuckDB creating the file in place, as before.
    await link(own, file).catch(() => undefined);
  } finally {
    await Promise.all([rm(own, { force: true }), rm(`${own}.wal`, { force: true })]);
  }
}

async function openInstance(file: string, readOnly: boolean): Promise<DuckDBInstance> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      // No extension is ever fetched: json (read_json_auto) is linked into the package.
      return await DuckDBInstance.create(file, {
        autoinstall_known_extensions: 'false',
        ...(readOnly ? { access_mode: 'READ_ONLY' } : {}),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/lock/i.test(message) && Date.now() < deadline) {
        await sleep(LOCK_RETRY_MS + Math.floor(Math.random() * LOCK_RETRY_MS));
        continue;
      }
      if (/lock/i.test(message))
        throw new InputError(
          [`${file}: the history store stayed locked by another process for ${LOCK_WAIT_MS / 1000} s`],
          { cause: error },
        );
      throw new InputError([`${file}: not a history store this chatbench can read (${message.split('\n')[0]})`], {
        cause: error,
        hint: rebuildHint(file),
      });
    }
  }
}

/** Brings the store to SCHEMA_VERSION; refuses a newer one and a file that is some other database. */
async function migrate(db: DuckDBConnection, file: string): Promise<void> {
  const tables = (await rows(db, `select table_name from information_schema.tables where table_schema = 'main'`)).map(
    (r) => String(r.table_name),
  );
  let version = 0;
  if (tables.includes('history_meta')) {
    const found = await rows(db, `select value from history_meta where key = 'schema_version'`);
    version = Number(found[0]?.value);
    if (!Number.isInteger(version))
      throw new InputError([`${file}: history_meta.schema_version is missing or not a number`], {
        hint: rebuildHint(file),
      });
  } else if (tables.length > 0) {
    throw new InputError(
      [`${file}: a DuckDB file that is not a chatbench history store (tables: ${tables.join(', ')})`],
      { hint: rebuildHint(file) },
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new InputError(
      [`${file}: history schema version ${version} is newer than this chatbench reads (${SCHEMA_VERSION})`],
      { hint: `upgrade chatbench, or ${rebuildHint(file)}` },
    );
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    await transaction(db, async () => {
      if (v === 0) await db.run(`create table history_meta (key varchar primary key, value varchar)`);
      await db.run(MIGRATIONS[v]!);
      await db.run(`insert or replace into history_meta values ('schema_version', $1)`, [String(v + 1)]);
    });
  }
}

export async function transaction<T>(db: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await db.run('begin transaction');
  try {
    const result = await work();
    await db.run('commit');
    return result;
  } catch (error) {
    await db.run('rollback').catch(() => undefined);
    throw error;
  }
}

export async function rows(db: DuckDBConnection, sql: string, values: DuckDBValue[] = []): Promise<Row[]> {
  return plainRows((await db.runAndReadAll(sql, values)).getRowObjectsJS());
}

/** JS values as JSON: a BIGINT (count(*), n) as a number when it is exact, else its digits; a date as ISO text. */
function plain(value: unknown): Json {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value as Json;
}

export const plainRows = (objects: readonly Record<string, unknown>[]): Row[] => objects.map((o) => plain(o) as Row);

/** Registers one run: its row and figures replace any earlier registration of the same directory. */
export async function putRun(db: DuckDBConnection, entry: RunEntry): Promise<void> {
  const r = entry.run;
  await transaction(db, async () => {
    await db.run('delete from figures where run_dir = $1', [r.run_dir]);
    await db.run('delete from runs where run_dir = $1', [r.run_dir]);
    await db.run(`insert into runs values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`, [
      r.run_dir,
      r.id,
      r.command,
      r.started_at,
      r.ended_at,
      r.base_url,
      r.release,
      r.backend_version,
      r.git_commit,
      r.git_branch,
      r.dataset_sha256,
      r.sets_sha256,
      r.verdict,
      r.exit_code,
      r.headline,
      r.baseline_run,
    ]);
    // Many rows a statement: one statement a figure cost ~0.7 ms each, most of registering a run.
    for (let i = 0; i < entry.figures.length; i += FIGURES_PER_INSERT) {
      const chunk = entry.figures.slice(i, i + FIGURES_PER_INSERT);
      await db.run(
        `insert into figures values ${chunk.map((_, k) => figureTuple(k * 9)).join(', ')}`,
        chunk.flatMap((f) => [r.run_dir, f.set_name, f.mode, f.step, f.figure, f.value, f.ci_low, f.ci_high, f.n]),
      );
    }
  });
}

/** Rows of the figures table inserted by one statement (9 parameters each). */
const FIGURES_PER_INSERT = 500;

/** The placeholders of one row of the figures table, its parameters numbered from `at + 1`. */
const figureTuple = (at: number): string => {
  const p = (k: number, type = '') => `$${at + k}${type}`;
  return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4, '::integer')}, ${p(5)}, ${p(6, '::double')}, ${p(7, '::double')}, ${p(8, '::double')}, ${p(9, '::bigint')})`;
};

import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { lastPassing, listRuns } from './queries.js';
import { SCHEMA_VERSION, type RunEntry } from './schema.js';
import { createStore, putRun, rows, withStore } from './store.js';

const entry = (id: string, ended_at: string, verdict: string, branch: string | null): RunEntry => ({
  run: {
    run_dir: `/runs/${id}`,
    id,
    command: 'eval',
    started_at: null,
    ended_at,
    base_url: null,
    release: null,
    backend_version: null,
    git_commit: null,
    git_branch: branch,
    dataset_sha256: null,
    sets_sha256: null,
    verdict,
    exit_code: verdict === 'failed' ? 1 : 0,
    headline: null,
    baseline_run: null,
  },
  figures: [
    { set_name: 'fast', mode: 'stream', step: null, figure: 'pass_rate', value: 0.5, ci_low: 0.4, ci_high: 0.6, n: 10 },
  ],
});

const tmpStore = () => join(mkdtempSync(join(tmpdir(), 'chatbench-store-')), 'history.duckdb');

describe('history store', () => {
  it('creates a new store in one step: two creations at once leave one store, migrated, and no file of their own', async () => {
    const file = tmpStore();
    await Promise.all([createStore(file), createStore(file)]);
    expect(readdirSync(join(file, '..'))).toEqual(['history.duckdb']);
    await withStore(file, (db) => putRun(db, entry('a', '2026-01-01T00:00:00Z', 'passed', 'main')));
    expect(await withStore(file, (db) => listRuns(db, {}, true))).toHaveLength(1);
  });

  it('creates the schema at its version, and registering a run again replaces it', async () => {
    const file = tmpStore();
    await withStore(file, (db) => putRun(db, entry('a', '2026-01-01T00:00:00Z', 'passed', 'main')));
    await withStore(file, (db) => putRun(db, entry('a', '2026-01-02T00:00:00Z', 'passed', 'main')));
    const [version, runs, figures] = await withStore(file, async (db) => [
      await rows(db, `select value from history_meta where key = 'schema_version'`),
      await listRuns(db, {}, true),
      await rows(db, 'select count(*) as n from figures'),
    ]);
    expect(version).toEqual([{ value: String(SCHEMA_VERSION) }]);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: 'a',
      ended_at: '2026-01-02T00:00:00Z',
      figures: [{ figure: 'pass_rate', n: 10, ci_high: 0.6 }],
    });
    expect(figures).toEqual([{ n: 1 }]);
  });

  it('finds the last passing run, on a branch when asked, leaving out the run being compared', async () => {
    const file = tmpStore();
    for (const e of [
      entry('p1', '2026-01-01', 'passed', 'main'),
      entry('p2', '2026-01-02', 'no-gate', 'feature'),
      entry('f3', '2026-01-03', 'failed', 'main'),
      entry('p4', '2026-01-04', 'passed', 'main'),
    ]) {
      await withStore(file, (db) => putRun(db, e));
    }
    await withStore(file, async (db) => {
      expect(await lastPassing(db, 'eval', undefined, undefined)).toBe('/runs/p4');
      expect(await lastPassing(db, 'eval', undefined, '/runs/p4')).toBe('/runs/p2');
      expect(await lastPassing(db, 'eval', 'main', '/runs/p4')).toBe('/runs/p1');
      expect(await lastPassing(db, 'eval', 'none', undefined)).toBeUndefined();
      expect(await lastPassing(db, 'load', undefined, undefined)).toBeUndefined();
    });
  });

  it('refuses a file that is not a store, and a store of a newer schema, with the hint to rebuild', async () => {
    const corrupt = tmpStore();
    writeFileSync(corrupt, 'not a database at all, just some bytes that are long enough to have a header....');
    const refused = await withStore(corrupt, async () => 'opened').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).message).toContain(corrupt);
    expect((refused as InputError).hint).toContain('chatbench history import');

    const newer = tmpStore();
    await withStore(newer, (db) =>
      db.run(`update history_meta set value = '${SCHEMA_VERSION + 1}' where key = 'schema_version'`),
    );
    const refusedNewer = await withStore(newer, async () => 'opened').catch((e: unknown) => e);
    expect(refusedNewer).toBeInstanceOf(InputError);
    expect((refusedNewer as InputError).message).toMatch(/schema version 2 is newer/);
  });
});

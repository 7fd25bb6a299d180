/**
 * @module history/schema
 * The history store's tables and their versions. The store is an index, never the truth: every row
 * comes from a run directory, so a store that cannot be read is rebuilt with `history import`.
 * A schema change appends a migration; a store is migrated forward when opened, never backward.
 */
import { z } from 'zod';

/** The schema this build writes; a store with a higher version was written by a newer chatbench. */
export const SCHEMA_VERSION = 1;

/**
 * Migrations by the version they lead to: MIGRATIONS[0] creates version 1. Each runs in the
 * transaction that also records the new version, so a crash leaves the store at the old one.
 */
export const MIGRATIONS: readonly string[] = [
  `create table runs (
     run_dir varchar primary key, id varchar not null, command varchar not null,
     started_at varchar, ended_at varchar not null, base_url varchar, release varchar, backend_version varchar,
     git_commit varchar, git_branch varchar, dataset_sha256 varchar, sets_sha256 varchar,
     verdict varchar, exit_code integer not null, headline varchar, baseline_run varchar);
   create table figures (
     run_dir varchar not null, set_name varchar not null, mode varchar not null, step integer,
     figure varchar not null, value double, ci_low double, ci_high double, n bigint);`,
];

/** One run as the store keeps it. */
export const RunRowSchema = z.object({
  /** Absolute path of the run directory: the key, and where the truth is. */
  run_dir: z.string(),
  /** The directory's name (`2026-11-26T12-00-00-eval`). */
  id: z.string(),
  command: z.enum(['eval', 'load', 'capacity', 'merge', 'compare']),
  started_at: z.string().nullable(),
  ended_at: z.string(),
  /** Scheme, host and path: credentials never reach the store (manifest.json drops them already). */
  base_url: z.string().nullable(),
  release: z.string().nullable(),
  backend_version: z.string().nullable(),
  git_commit: z.string().nullable(),
  git_branch: z.string().nullable(),
  dataset_sha256: z.string().nullable(),
  /** Digest of the sets file (`--sets-file`), null without one. */
  sets_sha256: z.string().nullable(),
  /** The verdict layer's status (src/verdict), null when the run left none. */
  verdict: z.string().nullable(),
  exit_code: z.number().int(),
  headline: z.string().nullable(),
  /** The run directory a comparison was made against (`--baseline`), when there was one. */
  baseline_run: z.string().nullable(),
});
export type RunRow = z.infer<typeof RunRowSchema>;

/** One headline figure of a run: per set × mode, and per step of a capacity search. */
export const FigureRowSchema = z.object({
  set_name: z.string(),
  mode: z.string(),
  step: z.number().int().nullable(),
  figure: z.string(),
  value: z.number().nullable(),
  ci_low: z.number().nullable(),
  ci_high: z.number().nullable(),
  n: z.number().int().nullable(),
});
export type FigureRow = z.infer<typeof FigureRowSchema>;

export interface RunEntry {
  run: RunRow;
  figures: FigureRow[];
}

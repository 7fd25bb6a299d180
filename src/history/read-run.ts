/**
 * @module history/read-run
 * A run directory read into a history entry: manifest.json for what was run against what,
 * summary.json or capacity.json for the figures (history/figures), the verdict as the verdict layer
 * gave it. Files a run lacks leave their fields null; a directory with none of them is refused.
 */
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { readManifestPart } from '../app/store/manifest.js';
import { CapacityResultSchema, LoadSummarySchema } from '../records/load-summary.js';
import { SummarySchema } from '../records/summary.js';
import { VerdictSchema, decideCapacity, loadRunVerdict, type Verdict } from '../verdict/index.js';
import { capacityFigures, evalFigures, loadFigures } from './figures.js';
import type { FigureRow, RunEntry, RunRow } from './schema.js';

const ManifestPartSchema = z.object({
  command: z.string().optional(),
  started_at: z.string().optional(),
  base_url: z.string().optional(),
  service: z.object({ backend_version: z.string().nullable(), release: z.string().nullable() }).nullish(),
  dataset: z.object({ sha256: z.string() }).optional(),
  models: z.object({ sha256: z.string() }).nullish(),
});

/** What the command that just ended knows and the directory does not. */
export interface RunContext {
  command?: RunRow['command'];
  /** The verdict the command gave (src/verdict), in place of the one its files hold. */
  verdict?: { status: string; exit_code: number; headline: string };
  /** The command's exit code, when it gave no verdict. */
  exit_code?: number;
  git?: { commit: string | null; branch: string | null };
  baseline_run?: string | null;
  ended_at?: string;
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError([`${file}: not JSON`]);
  }
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, file: string): z.infer<S> | undefined {
  if (value === undefined) return undefined;
  const result = schema.safeParse(value);
  if (!result.success)
    throw new InputError([
      `${file}: ${result.error.issues[0]?.path.join('.') ?? ''}: ${result.error.issues[0]?.message ?? 'invalid'}`,
    ]);
  return result.data;
}

/** Figures and the verdict the directory holds, by what kind of run wrote it. */
async function figuresOf(dir: string): Promise<{
  command: RunRow['command'] | undefined;
  figures: FigureRow[];
  verdict: Verdict | undefined;
  startedAt: string | null;
}> {
  const capacityFile = join(dir, 'capacity.json');
  const capacity = parsed(CapacityResultSchema, await readJson(capacityFile), capacityFile);
  if (capacity) {
    const line = capacity.sustainable === null ? 'no step held the SLOs' : `sustainable ${capacity.sustainable}`;
    return {
      command: 'capacity',
      figures: capacityFigures(capacity),
      verdict: decideCapacity(capacity.sustainable !== null, line, capacity.stopped === 'interrupted'),
      startedAt: null,
    };
  }
  const summaryFile = join(dir, 'summary.json');
  const summary = await readJson(summaryFile);
  const verdictFile = join(dir, 'verdict.json');
  const written = parsed(VerdictSchema, await readJson(verdictFile), verdictFile);
  if (summary !== undefined && typeof summary === 'object' && summary !== null && 'load_summary_version' in summary) {
    const load = parsed(LoadSummarySchema, summary, summaryFile)!;
    // A load keeps its verdict in no file: the verdict layer decides it again from the SLOs summary.json holds (the gates were the command line's).
    return {
      command: 'load',
      figures: loadFigures(load),
      verdict: written ?? loadRunVerdict(load, []),
      startedAt: load.run.started_at,
    };
  }
  const evalSummary = parsed(SummarySchema, summary, summaryFile);
  if (evalSummary)
    return {
      command: 'eval',
      figures: evalFigures(evalSummary),
      verdict: written,
      startedAt: evalSummary.run.started_at,
    };
  if ((await readJson(join(dir, 'compare.json'))) !== undefined)
    return { command: 'compare', figures: [], verdict: written, startedAt: null };
  throw new InputError([`${dir}: not a run directory (no summary.json, capacity.json or compare.json)`]);
}

const KNOWN = ['eval', 'load', 'capacity', 'merge', 'compare'] as const;

/** Reads a run directory into the entry the store keeps. */
export async function readRunEntry(dirPath: string, context: RunContext = {}): Promise<RunEntry> {
  const dir = resolve(dirPath);
  const found = await figuresOf(dir);
  // Without its question lists: a million-row run's ids are ~47 MB of strings this entry never reads.
  const manifest = (await readManifestPart(dir, ManifestPartSchema).catch(() => undefined)) ?? {};
  const fromManifest = KNOWN.find((c) => c === manifest.command);
  const verdict = context.verdict ?? found.verdict;
  const run: RunRow = {
    run_dir: dir,
    id: basename(dir),
    command: context.command ?? fromManifest ?? found.command ?? 'eval',
    started_at: manifest.started_at ?? found.startedAt,
    ended_at: context.ended_at ?? new Date().toISOString(),
    base_url: manifest.base_url ?? null,
    release: manifest.service?.release ?? null,
    backend_version: manifest.service?.backend_version ?? null,
    git_commit: context.git?.commit ?? null,
    git_branch: context.git?.branch ?? null,
    dataset_sha256: manifest.dataset?.sha256 ?? null,
    sets_sha256: manifest.models?.sha256 ?? null,
    verdict: verdict?.status ?? null,
    exit_code: verdict?.exit_code ?? context.exit_code ?? 0,
    headline: verdict?.headline ?? null,
    baseline_run: context.baseline_run ?? null,
  };
  return { run, figures: found.figures };
}

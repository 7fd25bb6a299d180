/**
 * @module app/load/merge-load
 * The load part of a merge: one generator.json for the merged run. Counts add up (planned,
 * sent, dropped, unsent, queued, late sends, CPU); the peak in flight is the busiest generator's.
 * The schedule lag percentiles are recomputed from every record's `queue_ms` (send − scheduled),
 * the raw figure each shard's p50/p99 came from, since percentiles of percentiles mean nothing —
 * except when some arrival waited for a connection: its queue_ms holds that wait, which the
 * generator's own lag leaves out, so the records cannot say; the worst shard's p50/p99 are then
 * given (an upper bound of the exact figure).
 */
import { parseJsonText } from '../../util/parse-json.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError, UsageError } from '../../errors.js';
import type { Gate } from '../../figures/index.js';
import type { GateVerdict } from '../../gates/index.js';
import { parseLoadGateFlag } from '../../gates/load.js';
import { parseSlo } from '../../metrics/load-slo.js';
import { percentile } from '../../metrics/stats.js';
import { roundMs } from '../../records/round-ms.js';
import type { LoadSummary } from '../../records/load-summary.js';
import { GeneratorHealthSchema, type GeneratorHealth } from '../../records/generator-health.js';
import type { ShardRun } from '../store/merge-checks.js';
import { readRecords } from '../store/read-records.js';
import { renderLoadReports } from './render-load-reports.js';
import { writeFileAtomic } from '../store/output-files.js';

/** Shards whose schedules began further apart than this are flagged: their timelines overlay imperfectly. */
export const START_SPREAD_WARN_MS = 1000;

/** A shard's generator.json, validated; InputError `DIR/generator.json: ...` when missing or wrong. */
export async function readGeneratorHealth(run: ShardRun): Promise<GeneratorHealth> {
  const file = `${run.label}generator.json`;
  let text: string;
  try {
    text = await readFile(join(run.path, 'generator.json'), 'utf8');
  } catch (error) {
    throw new InputError(
      [`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`],
      {
        hint: 'a load run writes generator.json when it ends; a shard that crashed has none',
      },
    );
  }
  return parseJsonText(text, file, GeneratorHealthSchema);
}

const sumOrNull = (values: ReadonlyArray<number | null>): number | null =>
  values.some((v) => v === null) ? null : roundMs(values.reduce<number>((s, v) => s + (v ?? 0), 0));

/**
 * The merged run's generator health. `lagsMs` are the records' queue_ms of scheduled sends,
 * ascending (used when no arrival waited for a connection); when no shard had a schedule (closed
 * model) the lag stays null. `started_at` is the
 * earliest schedule zero and `duration_ms` runs from it to the latest shard's end.
 */
export function mergeGeneratorHealth(shards: readonly GeneratorHealth[], lagsMs: readonly number[]): GeneratorHealth {
  const starts = shards.map((g) => Date.parse(g.started_at));
  const zero = Math.min(...starts);
  const scheduled = shards.some((g) => g.schedule_lag_ms.max !== null);
  const queued = shards.some((g) => (g.queued ?? 0) > 0);
  const worst = (pick: (g: GeneratorHealth) => number | null) => Math.max(...shards.map((g) => pick(g) ?? 0));
  const lag = (p: number, pick: (g: GeneratorHealth) => number | null) =>
    !scheduled ? null : queued ? worst(pick) : lagsMs.length > 0 ? roundMs(percentile(lagsMs, p)!) : null;
  const maxes = shards.flatMap((g) => (g.schedule_lag_ms.max === null ? [] : [g.schedule_lag_ms.max]));
  const sum = (pick: (g: GeneratorHealth) => number) => shards.reduce((s, g) => s + pick(g), 0);
  return {
    planned_arrivals: sum((g) => g.planned_arrivals),
    sent: sum((g) => g.sent),
    dropped: shards.flatMap((g) => g.dropped).sort((a, b) => a.scheduled_offset_ms - b.scheduled_offset_ms),
    unsent: sum((g) => g.unsent),
    late_sends: sum((g) => g.late_sends),
    queued: sum((g) => g.queued ?? 0),
    schedule_lag_ms: {
      p50: lag(0.5, (g) => g.schedule_lag_ms.p50),
      p99: lag(0.99, (g) => g.schedule_lag_ms.p99),
      max: maxes.length > 0 ? Math.max(...maxes) : null,
    },
    peak_in_flight: Math.max(...shards.map((g) => g.peak_in_flight)),
    cpu_user_ms: sumOrNull(shards.map((g) => g.cpu_user_ms)),
    cpu_system_ms: sumOrNull(shards.map((g) => g.cpu_system_ms)),
    interrupted: shards.some((g) => g.interrupted),
    started_at: new Date(zero).toISOString(),
    start_delay_ms: Math.max(...shards.map((g) => g.start_delay_ms)),
    schedule_ms: shards.some((g) => g.schedule_ms === null) ? null : Math.max(...shards.map((g) => g.schedule_ms ?? 0)),
    duration_ms: roundMs(Math.max(...shards.map((g, i) => starts[i]! + g.duration_ms)) - zero),
    ...(shards.some((g) => g.conversations != null)
      ? {
          conversations: {
            started: sum((g) => g.conversations?.started ?? 0),
            skipped_turns: sum((g) => g.conversations?.skipped_turns ?? 0),
          },
        }
      : {}),
  };
}

/** Warnings about shards that did not start together (their records' offsets count from each one's zero). */
export function startWarnings(runs: readonly ShardRun[], shards: readonly GeneratorHealth[]): string[] {
  const starts = shards.map((g) => Date.parse(g.started_at));
  const spread = Math.max(...starts) - Math.min(...starts);
  const late = shards.flatMap((g, i) =>
    g.start_delay_ms > START_SPREAD_WARN_MS
      ? [`${runs[i]!.label} started its schedule ${Math.round(g.start_delay_ms)} ms after --start-at`]
      : [],
  );
  if (late.length > 0 || spread <= START_SPREAD_WARN_MS) return late;
  return [
    `the shards started their schedules up to ${Math.round(spread)} ms apart (no --start-at?): the merged timeline overlays them from each one's start`,
  ];
}

/** Writes the merged generator.json from the shards' (in shard order) and the merged records; returns its path and the warnings. */
export async function writeMergedGenerator(
  outDir: string,
  runs: readonly ShardRun[],
  shards: readonly GeneratorHealth[],
): Promise<{ file: string; warnings: string[] }> {
  const lags: number[] = [];
  for await (const record of readRecords(outDir))
    if (record.scheduled_offset_ms !== null && record.queue_ms !== null) lags.push(record.queue_ms);
  lags.sort((a, b) => a - b);
  const file = join(outDir, 'generator.json');
  await writeFileAtomic(file, `${JSON.stringify(mergeGeneratorHealth(shards, lags), null, 2)}\n`);
  return { file, warnings: startWarnings(runs, shards) };
}

/** A load merge's `--gate`s (the load figures known) and `--slo`s; a gates file holds eval gates only. */
export function parseLoadChecks(options: {
  gates: readonly string[];
  gatesFile: string | undefined;
  slos: readonly string[];
}) {
  if (options.gatesFile !== undefined)
    throw new UsageError('--gates-file holds the gates of eval runs; give those of a load run with --gate');
  return {
    gates: options.gates.map((text) => parseLoadGateFlag(text)),
    slos: options.slos.map((text) => parseSlo(text)),
  };
}

export interface MergedLoad {
  readonly summary: LoadSummary;
  readonly gateResults: GateVerdict[];
  /** generator.json, then the load reports. */
  readonly files: string[];
  readonly warnings: string[];
}

/**
 * The load part of a merge, once the merged results.jsonl and manifest.json are written: the
 * merged generator.json, then the load reports from those three files (render-load-reports), the
 * gates and SLOs evaluated on the measured window of the whole.
 */
export async function finishLoadMerge(
  outDir: string,
  runs: readonly ShardRun[],
  generators: readonly GeneratorHealth[],
  options: { version: string; gates: readonly Gate[]; slos: ReturnType<typeof parseLoadChecks>['slos'] },
): Promise<MergedLoad> {
  const generator = await writeMergedGenerator(outDir, runs, generators);
  const reports = await renderLoadReports(outDir, {
    version: options.version,
    gates: options.gates,
    slos: options.slos,
  });
  return {
    summary: reports.summary,
    gateResults: [...reports.gates],
    files: [generator.file, ...reports.files],
    warnings: generator.warnings,
  };
}

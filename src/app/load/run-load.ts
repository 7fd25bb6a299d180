/**
 * @module app/load/run-load
 * The load use-case (`chatbench load`): check every input before anything is sent (prepareLoad),
 * wait for `--start-at`, run the open or the closed model on the schedule computed before the run,
 * score each record like eval and append it to results.jsonl as it ends, then write generator.json
 * (the generator's own health) and the final manifest, and render the load reports when
 * app/load/render-load-reports.ts is present.
 *
 * Warm-up and cool-down are windows INSIDE the schedule: the measured window is
 * [warmup_ms, schedule_ms − cooldown_ms) (generator.json carries schedule_ms).
 */
import { join, resolve } from 'node:path';
import type { RowSource } from '../../dataset/index.js';
import { interruptedExitCode, type RunError } from '../../errors.js';
import type { Verdict } from '../../verdict/index.js';
import { percentile } from '../../metrics/stats.js';
import { loadSchedule, type LoadSpec } from '../../plan/load-plan.js';
import type { GeneratorHealth } from '../../records/generator-health.js';
import type { HealthProbeRun } from '../../records/health-probe.js';
import type { LoadSummary } from '../../records/load-summary.js';
import { roundMs } from '../../records/round-ms.js';
import { warmValidRecord } from '../../records/valid-record.js';
import type { GateVerdict } from '../../gates/index.js';
import { healthUrl, startHealthProbe, type RunningHealthProbe } from '../../runner/health-probe.js';
import { createLoadCounters } from '../../runner/load-run.js';
import { createLoadTicker, type LoadTick } from '../../runner/load-ticker.js';
import { watchLoopDelayFromStart } from '../../runner/loop-delay.js';
import { collectGarbage } from '../shared/heap.js';
import { openLoadShard, type LoadShardHealth } from '../../runner/run-load-shard.js';
import { abortableSleep } from '../../runner/sleep.js';
import { ensureFreshRunDir } from '../store/fresh-run-dir.js';
import { displayUrl, PLAN_VERSION, redactDefaults, type Manifest } from '../store/manifest.js';
import { writeFileAtomic } from '../store/output-files.js';
import { CONVERSATION_UNITS_MARK, manifestChunks, QUESTION_IDS_MARK } from '../store/manifest-text.js';
import { openResultsFile } from '../store/results-file.js';
import { loadSecrets, measuredRecord, planInput } from './load-record.js';
import { scoreResults } from './score-results.js';
import type { LoadOptions } from './load-options.js';
import { renderLoadReports } from './render-load-reports.js';
import { runLoadWorkers } from './workers/run-load-workers.js';

export { prepareLoad, type LoadInputs, type PreparedLoad } from './prepare-load.js';
export type { LoadOptions } from './load-options.js';
export { LoadSpecSchema, type LoadSpec } from '../../plan/load-plan.js';
export { GeneratorHealthSchema, type GeneratorHealth } from '../../records/generator-health.js';
export type { LoadTick } from '../../runner/load-ticker.js';

export interface LoadResult {
  readonly outDir: string;
  /** Records written (= sent arrivals). */
  readonly records: number;
  readonly generator: GeneratorHealth;
  readonly interrupted: boolean;
  /** Files the load reports wrote. */
  readonly reports: readonly string[];
  /** The `--gate`s, evaluated on the measured window. */
  readonly gates: readonly GateVerdict[];
  /** What the reports open with (summary.json `banner`): failures by class, late timings. */
  readonly banner: readonly string[];
  /** summary.json: every figure of the run, its SLOs' verdicts, the generator's health; null when no report was written. */
  readonly summary: LoadSummary | null;
  /** The run's one decision (verdict/load): a broken SLO or a failed gate fails it, an interrupt wins; null without a summary. */
  readonly verdict: Verdict | null;
}

/** Runs the load; after writing everything, rejects with the RunError (exit 3) when the target was unreachable or refused every request. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { spec } = options;
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? Date.now;
  const outDir = resolve(options.cwd, options.outDir);
  await ensureFreshRunDir(outDir);
  const schedule = loadSchedule(spec);
  const manifest = manifestOf(options, schedule.planned(spec.shard));
  await writeManifest(outDir, options, manifest);
  const startAt = spec.start_at === null ? null : Date.parse(spec.start_at);
  options.onStart?.({
    outDir,
    planned: schedule.planned(spec.shard),
    startsInMs: startAt === null ? null : startAt - wallClock(),
  });
  let probe: RunningHealthProbe | null = null;
  const startProbe = (zero: number) => {
    if (options.healthProbe)
      probe = startHealthProbe(
        { ...options.healthProbe, url: healthUrl(options.baseUrl, options.healthProbe.path), now },
        zero,
      );
  };
  const onTick = (tick: LoadTick) => {
    if (probe === null) return options.onTick?.(tick);
    const { probes, failures } = probe.counts();
    options.onTick?.({ ...tick, health: probe.latest(), health_probes: probes, health_failures: failures });
  };
  if ((options.workers ?? 1) > 1) {
    let run: Awaited<ReturnType<typeof runLoadWorkers>>;
    try {
      run = await runLoadWorkers({
        ...options,
        onTick,
        outDir,
        schedule,
        startAt,
        workers: options.workers!,
        onZero: startProbe,
      });
    } finally {
      await stopProbe(probe);
    }
    return finishLoad(options, outDir, manifest, { ...run.generator, ...(await probeRunOf(probe)) }, run.runFailed);
  }
  // Before --start-at's wait, so that warming never delays the start every shard shares.
  const shard = await openLoadShard({
    spec,
    planInput: planInput(options.prepared, spec),
    baseUrl: options.baseUrl,
    tokens: options.tokens,
    timeoutMs: options.timeoutMs,
    maxDurationMs: options.maxDurationMs,
    maxAnswerBytes: options.maxAnswerBytes,
    maxBodyBytes: options.maxBodyBytes,
    maxLineBytes: options.maxLineBytes,
    maxErrorBodyBytes: options.maxErrorBodyBytes,
    retries: options.retries,
    retry429: options.retry429,
    graceMs: options.graceMs,
    now,
    wallClock,
    rehearse: (record) => void JSON.stringify(warmValidRecord(measuredRecord(record))),
  });
  // The warm-up's garbage, collected before the first send: left to V8, its old space filled and a
  // major collection came 13–23 s into a 20-user streamed run, holding the loop 8–18 ms among the
  // timed requests (docs/benchmarks-log.md, "Session 58").
  collectGarbage();
  if (startAt !== null) await abortableSleep(startAt - wallClock(), options.signal);
  const zero = now();
  startProbe(zero);
  const wallZero = wallClock();
  const cpuBefore = options.cpuUsage?.();
  // From the first send to the last byte: the run's setup before it (each function's first call
  // compiled then) held the loop some 10 ms before any request was out (docs/benchmarks-log.md, session 39).
  const loop = watchLoopDelayFromStart();

  // Corked and flushed ten times a second: one write per flush instead of one per record keeps the
  // generator's own CPU and syscalls low at high rates (a record still lands within ~120 ms: its
  // batch, runner/record-queue.ts, then the flush).
  const sink = openResultsFile(join(outDir, 'results.jsonl'), {
    hint: 'every record written so far is intact; `chatbench report` rebuilds the reports from them',
    secrets: loadSecrets(options),
  });
  sink.cork();
  const flusher = setInterval(() => {
    sink.uncork();
    sink.cork();
  }, 100);
  const counters = createLoadCounters();
  const ticker = createLoadTicker({ counters, now, zero, onTick });
  let run: LoadShardHealth;
  try {
    run = await shard.run({
      zero,
      signal: options.signal,
      counters,
      onEnded: () => sink.assertWritable(), // a failed write stops the run at the next record
      onFirstSend: loop.start,
      onLastByte: () => void loop.stop(),
      onRecord: (unscored) => {
        const record = measuredRecord(unscored);
        sink.write(record);
        ticker.observe(record.ttfp_ms, record.ttft_ms, record.outcome === 'ok' ? record.answer_chars : 0);
        options.onRecord?.(record);
      },
    });
  } finally {
    ticker.stop();
    clearInterval(flusher);
    sink.uncork();
    try {
      await sink.close(); // rejects with the OutputError of a failed write
    } finally {
      await stopProbe(probe);
    }
  }
  // Stopped at the last byte (onLastByte), or here when the run ended before it (a bug).
  const loopDelay = loop.stop();
  const cpuAfter = options.cpuUsage?.();
  const lags = [...run.lags_ms].sort((x, y) => x - y);
  const lag = (p: number) => (lags.length === 0 ? null : roundMs(percentile(lags, p)!));
  const generator: GeneratorHealth = {
    planned_arrivals: run.planned_arrivals,
    sent: run.sent,
    dropped: run.dropped,
    unsent: run.unsent,
    queued: run.queued,
    late_sends: run.late_sends,
    schedule_lag_ms:
      spec.model === 'open' ? { p50: lag(0.5), p99: lag(0.99), max: lag(1) } : { p50: null, p99: null, max: null },
    peak_in_flight: run.peak_in_flight,
    interrupted: run.interrupted,
    duration_ms: roundMs(run.duration_ms),
    cpu_user_ms: cpuBefore && cpuAfter ? roundMs((cpuAfter.user - cpuBefore.user) / 1000) : null,
    cpu_system_ms: cpuBefore && cpuAfter ? roundMs((cpuAfter.system - cpuBefore.system) / 1000) : null,
    started_at: new Date(wallZero).toISOString(),
    start_delay_ms: startAt === null ? 0 : roundMs(Math.max(0, wallZero - startAt)),
    schedule_ms: schedule.lengthMs,
    loop_delay_ms: loopDelay,
    connections_opened: shard.warm.connections_opened,
    warm_up_ms: shard.warm.warm_up_ms,
    ...(spec.conversations ? { conversations: { started: run.started, skipped_turns: counters.skipped } } : {}),
    ...(await probeRunOf(probe)),
  };
  return finishLoad(options, outDir, manifest, generator, run.run_failed);
}

/** Writes generator.json and the final manifest, renders the reports; rethrows the run's RunError after. */
async function finishLoad(
  options: LoadOptions,
  outDir: string,
  manifest: Manifest & { load: LoadSpec },
  generator: GeneratorHealth,
  runFailed: RunError | undefined,
): Promise<LoadResult> {
  const { spec } = options;
  const schedule = loadSchedule(spec);
  // Before generator.json: until the records are scored the run reads as unfinished.
  await scoreResults(outDir, { prepared: options.prepared, spec, secrets: loadSecrets(options) });
  await writeJson(join(outDir, 'generator.json'), generator);
  const plannedTotal = spec.model === 'open' ? schedule.planned(null) : null;
  await writeManifest(outDir, options, {
    ...manifest,
    planned_requests: generator.planned_arrivals,
    planned_total: plannedTotal ?? generator.planned_arrivals,
  });
  // A run that could not be carried out still leaves its reports (each opening with what failed).
  const rendered =
    generator.sent > 0 || runFailed === undefined
      ? await renderLoadReports(outDir, {
          version: options.version,
          slos: options.slos ?? [],
          gates: options.gates ?? [],
          interruptedExit: interruptedExitCode(options.signal),
        })
      : undefined;
  if (runFailed) throw runFailed;
  const summary = rendered?.summary ?? null;
  const gates = rendered?.gates ?? [];
  const verdict = rendered?.verdict ?? null;
  return {
    outDir,
    records: generator.sent,
    generator,
    interrupted: generator.interrupted,
    reports: rendered?.files ?? [],
    gates,
    banner: summary?.banner ?? [],
    summary,
    verdict,
  };
}

/** Stopped once (a second call returns the same samples): the probe ends with the run's last byte. */
const stopped = new WeakMap<RunningHealthProbe, Promise<HealthProbeRun>>();
function stopProbe(probe: RunningHealthProbe | null): Promise<HealthProbeRun | null> {
  if (probe === null) return Promise.resolve(null);
  let run = stopped.get(probe);
  if (run === undefined) stopped.set(probe, (run = probe.stop()));
  return run;
}
const probeRunOf = async (probe: RunningHealthProbe | null): Promise<{ health_probe?: HealthProbeRun }> => {
  const run = await stopProbe(probe);
  return run === null ? {} : { health_probe: run };
};

const writeJson = (path: string, value: unknown) => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);

function manifestOf(options: LoadOptions, planned: number | null): Manifest & { load: LoadSpec } {
  const { prepared, spec } = options;
  return {
    manifest_version: 1,
    chatbench_version: options.version,
    command: 'load',
    started_at: new Date().toISOString(),
    base_url: displayUrl(options.baseUrl),
    target: options.target,
    plan_version: PLAN_VERSION,
    planned_requests: planned ?? 0,
    planned_total: planned ?? 0,
    shard: spec.shard,
    dataset: prepared.dataset,
    models: prepared.models,
    sets: prepared.sets,
    defaults: redactDefaults(prepared.defaults),
    // Marks: the lists are written from the rows each time the manifest is (writeManifest), never held.
    question_ids: QUESTION_IDS_MARK,
    ...(prepared.source.operation === 'chat' && spec.conversations
      ? { conversation_units: CONVERSATION_UNITS_MARK }
      : {}),
    options: {
      timeout_ms: options.timeoutMs ?? null,
      max_duration_ms: options.maxDurationMs ?? null,
      retries: options.retries,
      retry_429: options.retry429,
      grace_ms: options.graceMs,
      // As given, so `chatbench report DIR` computes goodput and the gates again identically.
      slos: (options.slos ?? []).map((s) => s.gate.text),
      gates: (options.gates ?? []).map((g) => g.text),
    },
    load: spec,
    ...(options.invocation ? { invocation: options.invocation } : {}),
  };
}

/** manifest.json, its question lists written from the dataset's rows as the file is (app/store/manifest-text). */
function writeManifest(outDir: string, options: LoadOptions, manifest: Manifest): Promise<void> {
  const { source } = options.prepared;
  return writeFileAtomic(
    join(outDir, 'manifest.json'),
    manifestChunks(
      manifest,
      source.operation === 'chat'
        ? { question_ids: () => idsOf(source.rows), conversation_units: () => unitIdsOf(source.rows) }
        : { question_ids: () => source.urls.map((u) => u.id) },
    ),
  );
}

function* idsOf(rows: RowSource): Generator<string> {
  for (let at = 0; at < rows.length; at += 1) yield rows.id(at);
}
function* unitIdsOf(rows: RowSource): Generator<string[]> {
  for (let u = 0; u < rows.unitCount; u += 1) yield rows.unit(u).map((at) => rows.id(at));
}

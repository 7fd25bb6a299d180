/**
 * @module app/run-load
 * The load use-case (`chatbench load`): check every input before anything is sent (prepareLoad),
 * wait for `--start-at`, run the open or the closed model on the schedule computed before the run,
 * score each record like eval and append it to results.jsonl as it ends, then write generator.json
 * (the generator's own health) and the final manifest, and render the load reports when
 * src/app/render-load-reports.ts is present.
 *
 * Warm-up and cool-down are windows INSIDE the schedule: the measured window is
 * [warmup_ms, schedule_ms − cooldown_ms) (generator.json carries schedule_ms).
 */
import { createProblemCollector } from './collect-problems.js';
import { abortableSleep } from '../runner/sleep.js';
import type { Gate } from '../figures/index.js';
import type { GateResult } from '../gates/index.js';
import type { Slo } from '../metrics/load-slo.js';
import { renderLoadReports } from './render-load-reports.js';
import { access, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { conversationUnits, readDataset } from '../dataset/index.js';
import { readUtf8File } from '../dataset/read-text.js';
import { InputError, UsageError, type RunError } from '../errors.js';
import { percentile } from '../metrics/stats.js';
import { arrivals, shardUsers } from '../plan/arrivals.js';
import { createLoadPlan, loadSchedule, parseUrlCsv, parseUrlList, type LoadPlanInput, type LoadSpec, type UrlEntry } from '../plan/load-plan.js';
import { toolIdsOf, type ToolIds } from '../plan/tools.js';
import type { Mode, RequestRecord } from '../records/record.js';
import { runClosedUsers } from '../runner/closed-users.js';
import type { GeneratorHealth } from '../records/generator-health.js';
import type { UnscoredRecord } from '../runner/index.js';
import { createLoadCounters } from '../runner/load-run.js';
import { createLoadTarget } from '../runner/load-target.js';
import { createLoadTicker, type LoadTick } from '../runner/load-ticker.js';
import { createRecordQueue } from '../runner/record-queue.js';
import { runOpenLoop } from '../runner/open-loop.js';
import { createTokenPool } from '../runner/token-pool.js';
import { runSecrets } from '../client/redact.js';
import { watchLoopDelay } from '../runner/loop-delay.js';
import { warmUp } from '../runner/warm-up.js';
import { checkSetsForMode, resolveSets, type SetDefinition, type SetsDefaults } from '../sets/index.js';
import { displayUrl, PLAN_VERSION, redactDefaults, sha256File, type Invocation, type Manifest } from './manifest.js';
import { writeFileAtomic } from './output-files.js';
import { openResultsFile } from './results-file.js';
import type { LoadSummary } from '../records/load-summary.js';
import { toValidRecord } from '../records/valid-record.js';
import { expectationsOf, finishedRecord, planInput } from './load-record.js';
import { runLoadWorkers } from './workers/run-load-workers.js';
import { healthUrl, startHealthProbe, type RunningHealthProbe } from '../runner/health-probe.js';
import type { HealthProbeRun } from '../records/health-probe.js';

export { LoadSpecSchema, type LoadSpec } from '../plan/load-plan.js';
export { GeneratorHealthSchema, type GeneratorHealth } from '../records/generator-health.js';
export type { LoadTick } from '../runner/load-ticker.js';

export interface LoadInputs {
  readonly operation: LoadSpec['operation'];
  readonly mode: Mode;
  /** Chat: the questions; open-urls: a CSV with a `url` column (or use urlsFile). */
  readonly datasetPath?: string | undefined;
  readonly urlsFile?: string | undefined;
  readonly modelsPath?: string | undefined;
  readonly setFlags: readonly string[];
  /** Which set of the sets file; needed when it has more than one. */
  readonly setName?: string | undefined;
  readonly cwd: string;
  /** The target's tools when known (the embedded simulator's), name → id; the models file's defaults.tool_ids wins. */
  readonly toolIds?: ToolIds | null | undefined;
}

/** Checked inputs: what the plan draws from, and what the manifest says about it. */
export interface PreparedLoad {
  readonly source:
    | { operation: 'chat'; rows: Extract<LoadPlanInput, { operation: 'chat' }>['rows']; set: SetDefinition; defaults: SetsDefaults; toolIds: ToolIds | null }
    | { operation: 'open-urls'; urls: UrlEntry[] };
  readonly dataset: Manifest['dataset'];
  readonly models: Manifest['models'];
  readonly sets: Manifest['sets'];
  readonly defaults: SetsDefaults;
}

/** Reads and checks every input; lists the problems of all of them in one InputError. */
export async function prepareLoad(inputs: LoadInputs): Promise<PreparedLoad> {
  if (inputs.operation === 'open-urls') return prepareUrls(inputs);
  if (inputs.datasetPath === undefined) throw new UsageError('--dataset is required for the chat operation');
  const setsRead = createProblemCollector();
  const set = await setsRead.collect(async () => {
    const resolved = await resolveSets({ modelsPath: inputs.modelsPath, setFlags: inputs.setFlags, cwd: inputs.cwd });
    const chosen = chooseSet(resolved.sets, inputs.setName);
    checkSetsForMode([chosen], inputs.mode);
    return { chosen, resolved };
  });
  const toolIds = set?.resolved.defaults.tool_ids ? toolIdsOf(Object.entries(set.resolved.defaults.tool_ids)) : (inputs.toolIds ?? null);
  const datasetRead = createProblemCollector();
  const dataset = await datasetRead.collect(() => readDataset(resolve(inputs.cwd, inputs.datasetPath!), { toolIds }));
  // The dataset's problems first, then the sets' (the order every input problem is listed in).
  const problems = [...datasetRead.problems, ...setsRead.problems];
  if (problems.length > 0 || !dataset || !set) throw new InputError(problems);
  const { chosen, resolved } = set;
  return {
    source: { operation: 'chat', rows: dataset.rows, set: chosen, defaults: resolved.defaults, toolIds },
    dataset: { path: inputs.datasetPath, sha256: await sha256File(dataset.path), questions: dataset.rows.length },
    models: resolved.modelsPath ? { path: resolved.modelsPath, sha256: await sha256File(resolve(inputs.cwd, resolved.modelsPath)) } : null,
    sets: [{ name: chosen.name, multi: chosen.multi, ...(chosen.encoding === undefined ? {} : { encoding: chosen.encoding }), models: (chosen.llm_overrides ?? (chosen.llm_override ? [chosen.llm_override] : [])).map((o) => o.display_name ?? o.model_version ?? 'configured model') }],
    defaults: resolved.defaults,
  };
}

/** A load run sends one set: the only one, or the one named. */
function chooseSet(sets: readonly SetDefinition[], name: string | undefined): SetDefinition {
  if (name !== undefined) {
    const found = sets.find((s) => s.name === name);
    if (!found) throw new InputError([`--set-name ${name}: no such set; the sets are ${sets.map((s) => s.name).join(', ')}`]);
    return found;
  }
  if (sets.length > 1) throw new InputError([`a load run sends one set, and ${sets.length} are defined (${sets.map((s) => s.name).join(', ')}): pick one with --set-name`]);
  return sets[0]!;
}

async function prepareUrls(inputs: LoadInputs): Promise<PreparedLoad> {
  const path = inputs.urlsFile ?? inputs.datasetPath;
  if (path === undefined) throw new UsageError('--operation open-urls needs --urls-file (one URL per line) or --dataset with a url column');
  const full = resolve(inputs.cwd, path);
  const text = await readUtf8File({ path, cwd: inputs.cwd });
  const urls = inputs.urlsFile !== undefined ? parseUrlList(text, path) : parseUrlCsv(text, path);
  return {
    source: { operation: 'open-urls', urls }, dataset: { path, sha256: await sha256File(full), questions: urls.length },
    models: null, sets: [{ name: 'open-urls', multi: false, models: [] }], defaults: {},
  };
}

export interface LoadOptions {
  readonly spec: LoadSpec;
  readonly baseUrl: string;
  /** Token values, in token_index order; [''] sends none. */
  readonly tokens: readonly string[];
  readonly prepared: PreparedLoad;
  readonly target: 'service' | 'simulator';
  readonly cwd: string;
  readonly outDir: string;
  readonly signal: AbortSignal;
  readonly graceMs: number;
  /** Longest silence between two parts; undefined: 180 s, 300 s for deep research. */
  readonly timeoutMs?: number | undefined;
  /** Longest whole request; undefined: 15 min, 60 min for deep research. */
  readonly maxDurationMs?: number | undefined;
  /** Answer text kept per answer (UTF-8 bytes); undefined: 1 MiB. */
  readonly maxAnswerBytes?: number | undefined;
  /** Bytes one response body may carry; undefined: 64 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Bytes of one stream line; undefined: 16 MiB. */
  readonly maxLineBytes?: number | undefined;
  /** --max-error-body-bytes. */
  readonly maxErrorBodyBytes?: number | undefined;
  readonly retries: number;
  readonly retry429: boolean;
  readonly version: string;
  /** `--slo`s: checked on the measured window; they define goodput. */
  readonly slos?: readonly Slo[];
  /** `--gate`s on the load figures (exit 1 when one fails). */
  readonly gates?: readonly Gate[];
  readonly onRecord?: ((record: RequestRecord) => void) | undefined;
  readonly onTick?: (tick: LoadTick) => void;
  /** The options as they took effect and where each came from (the manifest records it). */
  readonly invocation?: Invocation | undefined;
  /** Once the run directory exists, before waiting for --start-at; `startsInMs` < 0 when already late. */
  readonly onStart?: (info: { outDir: string; planned: number | null; startsInMs: number | null }) => void;
  /** The process's CPU time in µs (process.cpuUsage), passed in by the CLI. */
  readonly cpuUsage?: () => { user: number; system: number };
  readonly now?: () => number;
  readonly wallClock?: () => number;
  /** Worker threads (`--workers`, resolved): 1 (default) runs in this thread; more split the plan as shards do (workers/run-load-workers.ts). */
  readonly workers?: number;
  /** `--health-probe PATH --health-interval`: probe the service's health from the schedule's zero to the run's end (in this thread, once). */
  readonly healthProbe?: { readonly path: string; readonly intervalMs: number; readonly timeoutMs: number } | undefined;
}

export interface LoadResult {
  readonly outDir: string;
  /** Records written (= sent arrivals). */
  readonly records: number;
  readonly generator: GeneratorHealth;
  readonly interrupted: boolean;
  /** Files the load reports wrote. */
  readonly reports: readonly string[];
  /** The `--gate`s, evaluated on the measured window. */
  readonly gates: readonly GateResult[];
  /** What the reports open with (summary.json `banner`): failures by class, late timings. */
  readonly banner: readonly string[];
  /** summary.json: every figure of the run, its SLOs' verdicts, the generator's health; null when no report was written. */
  readonly summary: LoadSummary | null;
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
  await writeJson(join(outDir, 'manifest.json'), manifest);
  const startAt = spec.start_at === null ? null : Date.parse(spec.start_at);
  options.onStart?.({ outDir, planned: schedule.planned(spec.shard), startsInMs: startAt === null ? null : startAt - wallClock() });
  let probe: RunningHealthProbe | null = null;
  const startProbe = (zero: number) => {
    if (options.healthProbe) probe = startHealthProbe({ ...options.healthProbe, url: healthUrl(options.baseUrl, options.healthProbe.path), now }, zero);
  };
  const onTick = (tick: LoadTick) => {
    if (probe === null) return options.onTick?.(tick);
    const { probes, failures } = probe.counts();
    options.onTick?.({ ...tick, health: probe.latest(), health_probes: probes, health_failures: failures });
  };
  if ((options.workers ?? 1) > 1) {
    let run: Awaited<ReturnType<typeof runLoadWorkers>>;
    try {
      run = await runLoadWorkers({ ...options, onTick, outDir, schedule, startAt, workers: options.workers!, onZero: startProbe });
    } finally {
      await stopProbe(probe);
    }
    return finishLoad(options, outDir, manifest, { ...run.generator, ...(await probeRunOf(probe)) }, run.stopError);
  }
  const plan = createLoadPlan(planInput(options.prepared, spec));
  const target = createLoadTarget({
    baseUrl: options.baseUrl, tokens: options.tokens, timeoutMs: options.timeoutMs, maxDurationMs: options.maxDurationMs,
    maxAnswerBytes: options.maxAnswerBytes, maxBodyBytes: options.maxBodyBytes, maxLineBytes: options.maxLineBytes, maxErrorBodyBytes: options.maxErrorBodyBytes, connections: schedule.connections(spec.shard), now,
  });
  const expectations = expectationsOf(options.prepared);
  // Before --start-at's wait, so that warming never delays the start every shard shares.
  const sample = plan.requestFor(0);
  const warm = await warmUp({
    preconnect: (n) => target.preconnect(n), connections: schedule.firstWave(spec.shard), sample: sample.planned, now,
    // Every step a record goes through, so no first use (zod compiling the record's validator:
    // 14–22 ms once) lands among the first requests' timings.
    score: (record) => void JSON.stringify(toValidRecord(finishedRecord(record, expectations))),
  });
  if (startAt !== null) await abortableSleep(startAt - wallClock(), options.signal);
  const zero = now();
  startProbe(zero);
  const wallZero = wallClock();
  const cpuBefore = options.cpuUsage?.();
  const loop = watchLoopDelay();

  // Corked and flushed ten times a second: one write per flush instead of one per record keeps the
  // generator's own CPU and syscalls low at high rates (a record still lands within 100 ms).
  const sink = openResultsFile(join(outDir, 'results.jsonl'), { hint: 'every record written so far is intact; `chatbench report` rebuilds the reports from them', secrets: runSecrets({ tokens: options.tokens, mcpHeaders: options.prepared.defaults.mcp_headers }) });
  sink.cork();
  const flusher = setInterval(() => {
    sink.uncork();
    sink.cork();
  }, 100);
  const counters = createLoadCounters();
  const ticker = createLoadTicker({ counters, now, zero, onTick });
  // Scoring, checking, serialising and writing a record, and the live view, run after the I/O
  // callbacks of the loop's turn (runner/record-queue.ts), never between a socket's data and its timestamp.
  const finishing = createRecordQueue((unscored: UnscoredRecord) => {
    const record = finishedRecord(unscored, expectations);
    sink.write(record);
    ticker.observe(record.ttfp_ms, record.ttft_ms);
    options.onRecord?.(record);
  });
  const onRecord = (unscored: UnscoredRecord) => {
    sink.assertWritable(); // a failed write stops the run at the next record
    finishing.push(unscored);
  };
  const conversations = spec.conversations ? { thinkTime: spec.think_time, seed: spec.seed, endMs: schedule.lengthMs, wallClock } : null;
  const common = {
    target, tokens: createTokenPool(options.tokens.length, spec.token_weights), retry: { retries: options.retries, retry429: options.retry429 },
    signal: options.signal, graceMs: options.graceMs, now, zero, counters, plan, shard: spec.shard, onRecord, conversations, abandon: { spec: spec.abandon ?? null, seed: spec.seed },
  };
  let started = 0;
  let health: Omit<GeneratorHealth, 'cpu_user_ms' | 'cpu_system_ms' | 'started_at' | 'start_delay_ms' | 'schedule_ms'>;
  let stopError: RunError | undefined;
  try {
    if (spec.model === 'open') {
      const run = await runOpenLoop({ ...common, arrivals: arrivals(schedule.arrivalOptions(spec.shard)), maxInFlight: spec.max_in_flight, connections: spec.connections ?? undefined });
      const lags = [...run.lags_ms].sort((a, b) => a - b);
      const lag = (p: number) => (lags.length === 0 ? null : round(percentile(lags, p)!));
      health = {
        planned_arrivals: run.planned, sent: run.sent, dropped: run.dropped, unsent: run.unsent, queued: run.queued, late_sends: run.late_sends,
        schedule_lag_ms: { p50: lag(0.5), p99: lag(0.99), max: lag(1) }, peak_in_flight: run.peak_in_flight, interrupted: run.interrupted, duration_ms: round(run.duration_ms),
      };
      started = run.arrivals_sent;
      stopError = run.stop_error;
    } else {
      const run = await runClosedUsers({ ...common, steps: schedule.userSteps(spec.shard), endMs: schedule.lengthMs, maxRequests: spec.requests === null ? null : shardUsers(spec.requests, spec.shard) });
      started = run.iterations;
      health = {
        planned_arrivals: conversations === null ? run.sent : run.iterations, sent: run.sent, dropped: [], unsent: 0, queued: 0, late_sends: counters.late, schedule_lag_ms: { p50: null, p99: null, max: null },
        peak_in_flight: run.peak_in_flight, interrupted: run.interrupted, duration_ms: round(run.duration_ms),
      };
      stopError = run.stop_error;
    }
    finishing.flush(); // throws what writing a record threw
  } finally {
    // Every finished record reaches the file, even when the run ends on a bug (whose error wins).
    try {
      finishing.flush();
    } catch {
      // thrown above already, or the run's own error is on its way
    }
    ticker.stop();
    clearInterval(flusher);
    sink.uncork();
    try {
      await sink.close(); // rejects with the OutputError of a failed write
    } finally {
      await target.close();
      await stopProbe(probe);
    }
  }
  // Stopped after the last byte (the runners resolve once every record is out).
  const loopDelay = loop.stop();
  const cpuAfter = options.cpuUsage?.();
  const generator: GeneratorHealth = {
    ...health,
    cpu_user_ms: cpuBefore && cpuAfter ? round((cpuAfter.user - cpuBefore.user) / 1000) : null,
    cpu_system_ms: cpuBefore && cpuAfter ? round((cpuAfter.system - cpuBefore.system) / 1000) : null,
    started_at: new Date(wallZero).toISOString(),
    start_delay_ms: startAt === null ? 0 : round(Math.max(0, wallZero - startAt)),
    schedule_ms: schedule.lengthMs,
    loop_delay_ms: loopDelay,
    connections_opened: warm.connections_opened,
    warm_up_ms: warm.warm_up_ms,
    ...(conversations === null ? {} : { conversations: { started, skipped_turns: counters.skipped } }),
    ...(await probeRunOf(probe)),
  };
  return finishLoad(options, outDir, manifest, generator, stopError);
}

/** Writes generator.json and the final manifest, renders the reports; rethrows the run's RunError after. */
async function finishLoad(options: LoadOptions, outDir: string, manifest: Manifest & { load: LoadSpec }, generator: GeneratorHealth, stopError: RunError | undefined): Promise<LoadResult> {
  const { spec } = options;
  const schedule = loadSchedule(spec);
  await writeJson(join(outDir, 'generator.json'), generator);
  const plannedTotal = spec.model === 'open' ? schedule.planned(null) : null;
  await writeJson(join(outDir, 'manifest.json'), { ...manifest, planned_requests: generator.planned_arrivals, planned_total: plannedTotal ?? generator.planned_arrivals });
  // A run that could not be carried out still leaves its reports (each opening with what failed).
  const rendered = generator.sent > 0 || stopError === undefined
    ? await renderLoadReports(outDir, { version: options.version, slos: options.slos ?? [], gates: options.gates ?? [] })
    : undefined;
  if (stopError) throw stopError;
  return { outDir, records: generator.sent, generator, interrupted: generator.interrupted, reports: rendered?.files ?? [], gates: rendered?.gates ?? [], banner: rendered?.summary.banner ?? [], summary: rendered?.summary ?? null };
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

const round = (ms: number) => Math.round(ms * 1000) / 1000;
const writeJson = (path: string, value: unknown) => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);

function manifestOf(options: LoadOptions, planned: number | null): Manifest & { load: LoadSpec } {
  const { prepared, spec } = options;
  return {
    manifest_version: 1, chatbench_version: options.version, command: 'load', started_at: new Date().toISOString(),
    base_url: displayUrl(options.baseUrl), target: options.target, plan_version: PLAN_VERSION,
    planned_requests: planned ?? 0, planned_total: planned ?? 0, shard: spec.shard,
    dataset: prepared.dataset, models: prepared.models, sets: prepared.sets, defaults: redactDefaults(prepared.defaults),
    question_ids: prepared.source.operation === 'chat' ? prepared.source.rows.map((row) => row.id) : prepared.source.urls.map((u) => u.id),
    ...(prepared.source.operation === 'chat' && spec.conversations ? { conversation_units: conversationUnits(prepared.source.rows).map((unit) => unit.map((row) => row.id)) } : {}),
    options: {
      timeout_ms: options.timeoutMs ?? null, max_duration_ms: options.maxDurationMs ?? null, retries: options.retries, retry_429: options.retry429, grace_ms: options.graceMs,
      // As given, so `chatbench report DIR` computes goodput and the gates again identically.
      slos: (options.slos ?? []).map((s) => s.gate.text), gates: (options.gates ?? []).map((g) => g.text),
    },
    load: spec,
    ...(options.invocation ? { invocation: options.invocation } : {}),
  };
}

/** A run directory holds one run: an existing results.jsonl is never appended to or overwritten. */
async function ensureFreshRunDir(outDir: string): Promise<void> {
  const exists = await access(join(outDir, 'results.jsonl')).then(() => true, () => false);
  if (exists) throw new UsageError(`--out ${outDir} already holds a run (results.jsonl); choose another directory`);
  await mkdir(outDir, { recursive: true });
}

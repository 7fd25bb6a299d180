/**
 * @module app/load/workers/run-load-workers
 * A load run on several worker threads (`--workers N`, N > 1): the parent half. Starts N workers
 * (load-worker.ts), each with its shard of the plan and its share of the connections (split.ts);
 * waits until every one has warmed its pool, then for `--start-at`, then fixes ONE schedule zero
 * (an epoch time a few ms ahead, so that every worker has it before the first arrival is due) so
 * that open-loop arrivals stay on the plan's time in every thread. The parent writes every record
 * the workers post to the one results.jsonl (the same writer, corked and flushed ten times a
 * second), drives the one live view from the sum of the workers' counters, forwards an interrupt
 * to every worker, and adds the workers' health up into one generator.json:
 * - counts (planned, sent, dropped, unsent, queued, late) are sums; schedule lags are exact
 *   percentiles over every worker's sends;
 * - peak_in_flight is the sum of the workers' peaks (an upper bound: the peaks may not coincide);
 * - loop_delay_ms is the worst worker's (each figure the maximum over the workers: the max of their
 *   p99s), since a send is late when ITS thread's loop is late;
 * - cpu_*_ms are the whole process's (process.cpuUsage counts every thread).
 */
import { createRequire } from 'node:module';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RunError } from '../../../errors.js';
import { percentile } from '../../../metrics/stats.js';
import type { LoadSchedule } from '../../../plan/load-plan.js';
import type { GeneratorHealth, LoopDelay } from '../../../records/generator-health.js';
import type { RequestRecord } from '../../../records/record.js';
import { createLoadCounters, type LoadCounters } from '../../../runner/load-run.js';
import { createLoadTicker } from '../../../runner/load-ticker.js';
import { worseLoopDelay } from '../../../runner/loop-delay.js';
import { holdYoungGeneration } from '../../../runner/young-generation.js';
import { abortableSleep } from '../../../runner/sleep.js';
import { roundMs } from '../../../records/round-ms.js';
import { openResultsFile } from '../../store/results-file.js';
import type { LoadOptions } from '../load-options.js';
import { loadSecrets } from '../load-record.js';
import type { FromWorker, LoadWorkerData, ToWorker, WorkerHealth } from './protocol.js';
import { sendableLoad } from '../prepare-load.js';
import { trustedCertificates } from '../../../client/trust.js';
import { workerSpec } from './split.js';

/** How far ahead of "now" the shared zero is set: time for the `go` message to reach every worker. */
const ZERO_LEAD_MS = 20;

/**
 * Each worker's young generation, MiB (V8 splits it into two semi-spaces and a third for large new
 * objects). V8's default lets every isolate grow its semi-spaces to 16 MiB each: 32 MiB of RSS per
 * thread once a run allocates fast, whatever it keeps. A worker's garbage is short-lived (a
 * request's parts and lines, a record until its batch is posted), so 8 MiB semi-spaces scavenge
 * it as well: `load --workers 2` at 1,000/s held about 30 MB less RSS (docs/benchmarks-log.md).
 */
export const WORKER_YOUNG_GENERATION_MB = 24;

export interface LoadWorkersOptions extends LoadOptions {
  readonly outDir: string;
  readonly schedule: LoadSchedule;
  /** `--start-at` as epoch ms, or null. */
  readonly startAt: number | null;
  readonly workers: number;
  /** Called once with the schedule's zero on performance.now()'s clock, as the workers are told to go (the health probe starts there). */
  readonly onZero?: (zero: number) => void;
}

export interface LoadWorkersResult {
  readonly generator: GeneratorHealth;
  readonly runFailed: RunError | undefined;
}

interface Running {
  readonly worker: Worker;
  readonly ready: Promise<{ connections_opened: number; warm_up_ms: number }>;
  readonly done: Promise<WorkerHealth>;
  counters: LoadCounters;
}

export async function runLoadWorkers(options: LoadWorkersOptions): Promise<LoadWorkersResult> {
  const { spec, workers: count } = options;
  const wallClock = options.wallClock ?? Date.now;
  const sink = openResultsFile(join(options.outDir, 'results.jsonl'), {
    hint: 'every record written so far is intact; `chatbench report` rebuilds the reports from them',
    secrets: loadSecrets(options),
  });
  const counters = createLoadCounters();
  let writeError: unknown;
  const running: Running[] = [];
  const send = (message: ToWorker) => {
    for (const r of running) r.worker.postMessage(message);
  };
  const onRecords = (records: readonly RequestRecord[]) => {
    if (writeError !== undefined) return;
    try {
      for (const record of records) {
        sink.write(record);
        ticker?.observe(record.ttfp_ms, record.ttft_ms, record.outcome === 'ok' ? record.answer_chars : 0);
        options.onRecord?.(record);
      }
    } catch (error) {
      // A failed write stops the run as in one thread: every worker ends its requests, then close() rejects.
      writeError = error;
      send({ type: 'abort' });
    }
  };
  const sumCounters = () => {
    for (const key of Object.keys(counters) as Array<keyof LoadCounters>)
      counters[key] = running.reduce((sum, r) => sum + r.counters[key], 0);
  };
  let ticker: ReturnType<typeof createLoadTicker> | undefined;
  for (let w = 0; w < count; w++) running.push(startWorker(workerDataOf(options, w, count), onRecords, sumCounters));
  const abort = () => send({ type: 'abort' });
  options.signal.addEventListener('abort', abort, { once: true });
  sink.cork();
  const flusher = setInterval(() => {
    sink.uncork();
    sink.cork();
  }, 100);
  const failed = Promise.race(running.map((r) => r.done.then(() => new Promise<never>(() => {}))));
  try {
    const warm = await Promise.race([Promise.all(running.map((r) => r.ready)), failed]);
    if (options.startAt !== null) await abortableSleep(options.startAt - wallClock(), options.signal);
    const zeroEpochMs = performance.timeOrigin + performance.now() + ZERO_LEAD_MS;
    const wallZero = wallClock() + ZERO_LEAD_MS;
    const cpuBefore = options.cpuUsage?.();
    ticker = createLoadTicker({
      counters,
      now: () => performance.now(),
      zero: zeroEpochMs - performance.timeOrigin,
      onTick: (tick) => options.onTick?.(tick),
    });
    send({ type: 'go', zeroEpochMs });
    options.onZero?.(zeroEpochMs - performance.timeOrigin);
    if (options.signal.aborted) abort();
    const healths = await Promise.all(running.map((r) => r.done));
    ticker.stop();
    const cpuAfter = options.cpuUsage?.();
    return {
      generator: combine(healths, warm, {
        spec,
        schedule: options.schedule,
        startAt: options.startAt,
        wallZero,
        cpuBefore,
        cpuAfter,
      }),
      runFailed: runFailedOf(healths),
    };
  } finally {
    ticker?.stop();
    options.signal.removeEventListener('abort', abort);
    clearInterval(flusher);
    await Promise.all(running.map((r) => r.worker.terminate()));
    sink.uncork();
    await sink.close(); // rejects with the OutputError of a failed write
  }
}

function workerDataOf(options: LoadWorkersOptions, w: number, count: number): LoadWorkerData {
  return {
    spec: workerSpec(options.spec, w, count),
    prepared: sendableLoad(options.prepared),
    baseUrl: options.baseUrl,
    trustedCa: trustedCertificates(),
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
  };
}

function startWorker(
  data: LoadWorkerData,
  onRecords: (records: readonly RequestRecord[]) => void,
  onCounters: () => void,
): Running {
  const worker = new Worker(...workerEntry(data));
  // A worker starting up resets V8's flags, the main thread's young-generation cap among them.
  worker.once('online', holdYoungGeneration);
  let readyResolve!: (value: { connections_opened: number; warm_up_ms: number }) => void;
  const ready = new Promise<{ connections_opened: number; warm_up_ms: number }>((resolve) => (readyResolve = resolve));
  const running: Running = { worker, ready, done: undefined as never, counters: createLoadCounters() };
  (running as { done: Promise<WorkerHealth> }).done = new Promise<WorkerHealth>((resolve, reject) => {
    let finished = false;
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
          readyResolve({ connections_opened: message.connections_opened, warm_up_ms: message.warm_up_ms });
          break;
        case 'records':
          onRecords(message.records);
          break;
        case 'counters':
          running.counters = message.counters;
          onCounters();
          break;
        case 'done':
          finished = true;
          resolve(message.health);
          break;
        case 'failed': {
          const error = new Error(`a load worker failed: ${message.message}`);
          if (message.stack) error.stack = message.stack;
          finished = true;
          reject(error);
          break;
        }
      }
    });
    worker.on('error', (error) => {
      finished = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (!finished) reject(new Error(`a load worker exited (code ${code}) before its last record`));
    });
  });
  return running;
}

/**
 * The worker's module: compiled JavaScript beside this file (dist/, the CLI); from the TypeScript
 * sources (tests, tsx), the compiled one in dist/ when dist/ was built after every source last
 * changed (npm test and vitest's setup build it), else the source itself through tsx's loader
 * registered in the thread first (slower to start: it compiles the worker's modules).
 */
function workerEntry(data: LoadWorkerData): ConstructorParameters<typeof Worker> {
  const js = new URL('./load-worker.js', import.meta.url);
  const options = { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } };
  if (existsSync(fileURLToPath(js))) return [js, options];
  const src = fileURLToPath(new URL('../../../', import.meta.url));
  const built = join(src, '..', 'dist', 'app', 'load', 'workers', 'load-worker.js');
  if (builtAfterSources(join(src, '..', 'dist', '.source-digest'), src)) return [pathToFileURL(built), options];
  // tsx's ESM API by path: its package exports give `require` the CommonJS build, which cannot register in a thread.
  const tsx = pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs'),
  ).href;
  const ts = new URL('./load-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); });`;
  return [boot, { ...options, eval: true }];
}

/** Whether the build's stamp is newer than every file under `src` (a few hundred stats, once per run). */
function builtAfterSources(stamp: string, src: string): boolean {
  if (!existsSync(stamp)) return false;
  const builtAt = statSync(stamp).mtimeMs;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? newer(path) : statSync(path).mtimeMs > builtAt;
    });
  return !newer(src);
}

function combine(
  healths: readonly WorkerHealth[],
  warm: ReadonlyArray<{ connections_opened: number; warm_up_ms: number }>,
  run: {
    spec: LoadOptions['spec'];
    schedule: LoadSchedule;
    startAt: number | null;
    wallZero: number;
    cpuBefore: { user: number; system: number } | undefined;
    cpuAfter: { user: number; system: number } | undefined;
  },
): GeneratorHealth {
  const sum = (pick: (h: WorkerHealth) => number) => healths.reduce((total, h) => total + pick(h), 0);
  const lags = new Float64Array(sum((h) => h.lags_ms.length));
  let at = 0;
  for (const h of healths) {
    lags.set(h.lags_ms, at);
    at += h.lags_ms.length;
  }
  lags.sort();
  const sorted = Array.from(lags);
  const lag = (p: number) => (sorted.length === 0 ? null : roundMs(percentile(sorted, p)!));
  const open = run.spec.model === 'open';
  const { cpuBefore, cpuAfter } = run;
  return {
    planned_arrivals: sum((h) => h.planned_arrivals),
    sent: sum((h) => h.sent),
    dropped: healths.flatMap((h) => h.dropped).sort((a, b) => a.scheduled_offset_ms - b.scheduled_offset_ms),
    unsent: sum((h) => h.unsent),
    queued: sum((h) => h.queued),
    late_sends: sum((h) => h.late_sends),
    schedule_lag_ms: open ? { p50: lag(0.5), p99: lag(0.99), max: lag(1) } : { p50: null, p99: null, max: null },
    peak_in_flight: sum((h) => h.peak_in_flight),
    interrupted: healths.some((h) => h.interrupted),
    duration_ms: roundMs(Math.max(0, ...healths.map((h) => h.duration_ms))),
    cpu_user_ms: cpuBefore && cpuAfter ? roundMs((cpuAfter.user - cpuBefore.user) / 1000) : null,
    cpu_system_ms: cpuBefore && cpuAfter ? roundMs((cpuAfter.system - cpuBefore.system) / 1000) : null,
    started_at: new Date(run.wallZero).toISOString(),
    start_delay_ms: run.startAt === null ? 0 : roundMs(Math.max(0, run.wallZero - run.startAt)),
    schedule_ms: run.schedule.lengthMs,
    loop_delay_ms: healths.reduce<LoopDelay | null>((worst, h) => worseLoopDelay(worst, h.loop_delay_ms ?? null), null),
    connections_opened: warm.reduce((total, w) => total + w.connections_opened, 0),
    warm_up_ms: roundMs(Math.max(0, ...warm.map((w) => w.warm_up_ms))),
    ...(run.spec.conversations
      ? { conversations: { started: sum((h) => h.started), skipped_turns: sum((h) => h.skipped_turns) } }
      : {}),
  };
}

/** The early stop's verdict: the first worker's that had one (each judged its own requests). */
function runFailedOf(healths: readonly WorkerHealth[]): RunError | undefined {
  const first = healths.find((h) => h.run_failed !== null)?.run_failed;
  return first ? new RunError(first.message, first.hint === undefined ? {} : { hint: first.hint }) : undefined;
}

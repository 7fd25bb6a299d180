/**
 * @module app/workers/load-worker
 * The body of one load worker thread (`--workers N`, N > 1): builds its part of the plan itself
 * from the checked inputs (its spec carries its shard: split.ts), opens and warms its own
 * connection pool, reports `ready`, starts its schedule at the zero the parent fixes for every
 * worker, and posts each finished (scored) record to the parent in small batches; the parent writes
 * them (run-load-workers.ts). Runs the same runners as the single-threaded path (run-load.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { arrivals, shardUsers } from '../../../plan/arrivals.js';
import { createLoadPlan, loadSchedule } from '../../../plan/load-plan.js';
import type { RequestRecord } from '../../../records/record.js';
import { runClosedUsers } from '../../../runner/closed-users.js';
import type { UnscoredRecord } from '../../../runner/index.js';
import { createLoadCounters } from '../../../runner/load-run.js';
import { createLoadTarget } from '../../../runner/load-target.js';
import { watchLoopDelay } from '../../../runner/loop-delay.js';
import { runOpenLoop } from '../../../runner/open-loop.js';
import { createRecordQueue } from '../../../runner/record-queue.js';
import { createTokenPool } from '../../../runner/token-pool.js';
import { warmUp } from '../../../runner/warm-up.js';
import { expectationsOf, finishedRecord, planInput } from '../load-record.js';
import type { FromWorker, LoadWorkerData, ToWorker, WorkerHealth } from './protocol.js';

/** Records per message at most, and the longest a finished record waits in a batch (ms). */
const BATCH = 64;
const BATCH_MS = 20;
/** How often the live counters go to the parent's view (ms). */
const COUNTERS_MS = 250;

const port = parentPort!;
const post = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

async function main(data: LoadWorkerData): Promise<void> {
  const { spec, prepared } = data;
  const now = () => performance.now();
  const schedule = loadSchedule(spec);
  const plan = createLoadPlan(planInput(prepared, spec));
  const target = createLoadTarget({
    baseUrl: data.baseUrl, tokens: data.tokens, timeoutMs: data.timeoutMs, maxDurationMs: data.maxDurationMs,
    maxAnswerBytes: data.maxAnswerBytes, maxBodyBytes: data.maxBodyBytes, maxLineBytes: data.maxLineBytes, maxErrorBodyBytes: data.maxErrorBodyBytes, connections: schedule.connections(spec.shard), now,
  });
  const expectations = expectationsOf(prepared);
  const controller = new AbortController();
  const go = new Promise<number>((resolve) => {
    port.on('message', (message: ToWorker) => {
      if (message.type === 'go') resolve(message.zeroEpochMs);
      else controller.abort();
    });
  });
  const warm = await warmUp({
    preconnect: (n) => target.preconnect(n), connections: schedule.firstWave(spec.shard), sample: plan.requestFor(0).planned, now,
    // What the thread does with a record (the parent validates and writes it).
    score: (record) => void finishedRecord(record, expectations),
  });
  post({ type: 'ready', ...warm });
  // The zero on this thread's clock: every thread's performance.timeOrigin differs, epoch time does not.
  const zero = (await go) - performance.timeOrigin;
  const loop = watchLoopDelay();
  let batch: RequestRecord[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    post({ type: 'records', records: batch });
    batch = [];
  };
  const flusher = setInterval(flush, BATCH_MS);
  const counters = createLoadCounters();
  const ticker = setInterval(() => post({ type: 'counters', counters }), COUNTERS_MS);
  // Scored and batched after the I/O callbacks of the loop's turn (runner/record-queue.ts).
  const finishing = createRecordQueue((unscored: UnscoredRecord) => {
    batch.push(finishedRecord(unscored, expectations));
    if (batch.length >= BATCH) flush();
  });
  const onRecord = (unscored: UnscoredRecord) => finishing.push(unscored);
  const conversations = spec.conversations ? { thinkTime: spec.think_time, seed: spec.seed, endMs: schedule.lengthMs, wallClock: Date.now } : null;
  const common = {
    target, tokens: createTokenPool(data.tokens.length, spec.token_weights), retry: { retries: data.retries, retry429: data.retry429 },
    signal: controller.signal, graceMs: data.graceMs, now, zero, counters, plan, shard: spec.shard, onRecord, conversations, abandon: { spec: spec.abandon ?? null, seed: spec.seed },
  };
  let health: Omit<WorkerHealth, 'loop_delay_ms' | 'skipped_turns'>;
  try {
    if (spec.model === 'open') {
      const run = await runOpenLoop({ ...common, arrivals: arrivals(schedule.arrivalOptions(spec.shard)), maxInFlight: spec.max_in_flight, connections: spec.connections ?? undefined });
      health = {
        planned_arrivals: run.planned, sent: run.sent, started: run.arrivals_sent, dropped: run.dropped, unsent: run.unsent, queued: run.queued,
        late_sends: run.late_sends, lags_ms: Float64Array.from(run.lags_ms), peak_in_flight: run.peak_in_flight, interrupted: run.interrupted,
        duration_ms: run.duration_ms, stop_error: run.stop_error ? { message: run.stop_error.message, hint: run.stop_error.hint } : null,
      };
    } else {
      const run = await runClosedUsers({ ...common, steps: schedule.userSteps(spec.shard), endMs: schedule.lengthMs, maxRequests: spec.requests === null ? null : shardUsers(spec.requests, spec.shard) });
      health = {
        planned_arrivals: conversations === null ? run.sent : run.iterations, sent: run.sent, started: run.iterations, dropped: [], unsent: 0, queued: 0,
        late_sends: 0, lags_ms: new Float64Array(0), peak_in_flight: run.peak_in_flight, interrupted: run.interrupted, duration_ms: run.duration_ms,
        stop_error: run.stop_error ? { message: run.stop_error.message, hint: run.stop_error.hint } : null,
      };
    }
    finishing.flush();
  } finally {
    try {
      finishing.flush();
    } catch {
      // thrown above already, or the run's own error is on its way
    }
    clearInterval(flusher);
    clearInterval(ticker);
    flush();
    await target.close();
  }
  post({ type: 'counters', counters });
  post({ type: 'done', health: { ...health, loop_delay_ms: loop.stop(), skipped_turns: counters.skipped } }, [health.lags_ms.buffer as ArrayBuffer]);
  port.close();
}

main(workerData as LoadWorkerData).catch((error: unknown) => {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined });
  port.close();
});

/**
 * @module app/load/workers/load-worker
 * The body of one load worker thread (`--workers N`, N > 1): builds its part of the plan itself
 * from the checked inputs (its spec carries its shard: split.ts), opens and warms its own
 * connection pool, reports `ready`, starts its schedule at the zero the parent fixes for every
 * worker, and posts each finished record, as measured, to the parent in small batches; the parent
 * writes them (run-load-workers.ts), and scores them once every worker is done (run-load.ts,
 * score-results.ts). Runs the same shard runner as the single-threaded path (runner/run-load-shard.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RequestRecord } from '../../../records/record.js';
import { createLoadCounters } from '../../../runner/load-run.js';
import { watchLoopDelayFromStart } from '../../../runner/loop-delay.js';
import { collectGarbage } from '../../shared/heap.js';
import { openLoadShard } from '../../../runner/run-load-shard.js';
import { measuredRecord, planInput } from '../load-record.js';
import { reopenLoad } from '../prepare-load.js';
import type { FromWorker, LoadWorkerData, ToWorker } from './protocol.js';
import { trustCertificates } from '../../../client/trust.js';

/** Records per message at most, and the longest a finished record waits in a batch (ms). */
const BATCH = 64;
const BATCH_MS = 20;
/** How often the live counters go to the parent's view (ms). */
const COUNTERS_MS = 250;

const port = parentPort!;
const post = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

async function main(data: LoadWorkerData): Promise<void> {
  if (data.trustedCa !== undefined) trustCertificates(data.trustedCa);
  const { spec } = data;
  // The rows are read from the dataset's file by this thread (bounded memory), never cloned from the parent.
  const prepared = await reopenLoad(data.prepared);
  const controller = new AbortController();
  const go = new Promise<number>((resolve) => {
    port.on('message', (message: ToWorker) => {
      if (message.type === 'go') resolve(message.zeroEpochMs);
      else controller.abort();
    });
  });
  const shard = await openLoadShard({
    spec,
    planInput: planInput(prepared, spec),
    baseUrl: data.baseUrl,
    tokens: data.tokens,
    timeoutMs: data.timeoutMs,
    maxDurationMs: data.maxDurationMs,
    maxAnswerBytes: data.maxAnswerBytes,
    maxBodyBytes: data.maxBodyBytes,
    maxLineBytes: data.maxLineBytes,
    maxErrorBodyBytes: data.maxErrorBodyBytes,
    retries: data.retries,
    retry429: data.retry429,
    graceMs: data.graceMs,
    now: () => performance.now(),
    wallClock: Date.now,
    // What the thread does with a record (the parent validates and writes it).
    rehearse: (record) => void measuredRecord(record),
  });
  collectGarbage(); // the warm-up's garbage, before the first send (as app/load/run-load.ts)
  post({ type: 'ready', ...shard.warm });
  // The zero on this thread's clock: every thread's performance.timeOrigin differs, epoch time does not.
  const zero = (await go) - performance.timeOrigin;
  // From the first send to the last byte, as in one thread (app/load/run-load.ts).
  const loop = watchLoopDelayFromStart();
  let batch: RequestRecord[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    post({ type: 'records', records: batch });
    batch = [];
  };
  const flusher = setInterval(flush, BATCH_MS);
  const counters = createLoadCounters();
  const ticker = setInterval(() => post({ type: 'counters', counters }), COUNTERS_MS);
  let run;
  try {
    run = await shard.run({
      zero,
      signal: controller.signal,
      counters,
      onFirstSend: loop.start,
      onLastByte: () => void loop.stop(),
      onRecord: (unscored) => {
        batch.push(measuredRecord(unscored));
        if (batch.length >= BATCH) flush();
      },
    });
  } finally {
    clearInterval(flusher);
    clearInterval(ticker);
    flush();
  }
  const { run_failed: runFailed, lags_ms: lags, ...health } = run;
  const lagsMs = Float64Array.from(lags);
  post({ type: 'counters', counters });
  post(
    {
      type: 'done',
      health: {
        ...health,
        lags_ms: lagsMs,
        loop_delay_ms: loop.stop(),
        skipped_turns: counters.skipped,
        run_failed: runFailed ? { message: runFailed.message, hint: runFailed.hint } : null,
      },
    },
    [lagsMs.buffer as ArrayBuffer],
  );
  port.close();
}

main(workerData as LoadWorkerData).catch((error: unknown) => {
  post({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  port.close();
});

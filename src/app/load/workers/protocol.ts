/**
 * @module app/load/workers/protocol
 * The messages between a load run's parent thread and its worker threads (structured clone, so
 * plain data only). The parent sends what the worker needs to build its part of the plan (the
 * checked inputs and its spec, never the plan), then `go` with the schedule's zero as an epoch
 * time, and `abort` on an interrupt; a worker sends `ready` after warming its connections,
 * batches of finished records, its live counters, and `done` with its share of the generator's health.
 */
import type { GeneratorHealth } from '../../../records/generator-health.js';
import type { RequestRecord } from '../../../records/record.js';
import type { LoadCounters } from '../../../runner/load-run.js';
import type { LoadSpec } from '../../../plan/load-plan.js';
import type { SentLoad } from '../prepare-load.js';

export interface LoadWorkerData {
  /** This worker's spec: its shard of the plan and its share of the in-flight bound and connections (split.ts). */
  readonly spec: LoadSpec;
  /** The checked inputs, the chat rows' path in place of the rows (each worker reads them itself: prepare-load reopenLoad). */
  readonly prepared: SentLoad;
  readonly baseUrl: string;
  /** `--ca-file`: PEM certificates trusted beyond the system's (client/trust); the worker's module state is its own. */
  readonly trustedCa?: string | undefined;
  readonly tokens: readonly string[];
  readonly timeoutMs: number | undefined;
  readonly maxDurationMs: number | undefined;
  readonly maxAnswerBytes: number | undefined;
  readonly maxBodyBytes: number | undefined;
  readonly maxLineBytes: number | undefined;
  readonly maxErrorBodyBytes: number | undefined;
  readonly retries: number;
  readonly retry429: boolean;
  readonly graceMs: number;
}

export type ToWorker =
  /** The schedule's zero as epoch ms (performance.timeOrigin + performance.now() on any thread). */
  { readonly type: 'go'; readonly zeroEpochMs: number } | { readonly type: 'abort' };

/** A worker's share of the generator's health; the parent adds the shares up (run-load-workers.ts). */
export interface WorkerHealth {
  readonly planned_arrivals: number;
  readonly sent: number;
  /** Open: arrivals sent; closed: user iterations (conversations started). */
  readonly started: number;
  readonly dropped: GeneratorHealth['dropped'];
  readonly unsent: number;
  readonly queued: number;
  readonly late_sends: number;
  /** Open model: each send's lag behind its schedule, ms (the parent takes exact percentiles of them all). */
  readonly lags_ms: Float64Array;
  readonly peak_in_flight: number;
  readonly interrupted: boolean;
  readonly duration_ms: number;
  readonly loop_delay_ms: GeneratorHealth['loop_delay_ms'];
  readonly skipped_turns: number;
  /** The early stop's verdict (a RunError's message and hint), if any. */
  readonly run_failed: { readonly message: string; readonly hint: string | undefined } | null;
}

export type FromWorker =
  | { readonly type: 'ready'; readonly connections_opened: number; readonly warm_up_ms: number }
  | { readonly type: 'records'; readonly records: readonly RequestRecord[] }
  | { readonly type: 'counters'; readonly counters: LoadCounters }
  | { readonly type: 'done'; readonly health: WorkerHealth }
  /** A bug in the worker (an internal error): the parent stops every worker and rethrows it. */
  | { readonly type: 'failed'; readonly message: string; readonly stack: string | undefined };

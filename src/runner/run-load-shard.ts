/**
 * @module runner/run-load-shard
 * One shard of a load run, written once for both places it runs: this thread
 * (app/load/run-load.ts, `--workers 1`) and each worker thread (app/load/workers/load-worker.ts).
 * `openLoadShard` builds the shard's plan, opens its connection pool and warms it (before
 * `--start-at`'s wait, so warming never delays the start every shard shares); `run` starts the open
 * or the closed model at the zero its caller fixes and hands the finished records on in batches
 * (record-queue.ts, RECORD_BATCH_MS), never between a socket's data and its timestamp.
 * What becomes of a record (scored and written, or batched to the parent) is the caller's.
 */
import type { RunError } from '../errors.js';
import { arrivals, shardUsers } from '../plan/arrivals.js';
import { createLoadPlan, loadSchedule, type LoadPlanInput, type LoadSpec } from '../plan/load-plan.js';
import type { GeneratorHealth } from '../records/generator-health.js';
import { runClosedUsers } from './closed-users.js';
import type { LoadCounters } from './load-run.js';
import { createLoadTarget, type LoadTargetOptions } from './load-target.js';
import { runOpenLoop } from './open-loop.js';
import { afterMs, createRecordQueue, RECORD_BATCH_MS } from './record-queue.js';
import { createTokenPool } from './token-pool.js';
import type { UnscoredRecord } from './unscored-record.js';
import { warmUp, type WarmUpResult } from './warm-up.js';
import { WARM_FOR_REQUESTS } from '../client/warm-up.js';

export interface LoadShardOptions extends Omit<LoadTargetOptions, 'connections' | 'now'> {
  /** The shard's spec (its `shard` says which part of the plan; a worker's also its share of the bounds). */
  readonly spec: LoadSpec;
  /** What the plan is built from (app/load/prepare-load `planInput`). */
  readonly planInput: LoadPlanInput;
  readonly retries: number;
  readonly retry429: boolean;
  readonly graceMs: number;
  readonly now: () => number;
  /** Epoch ms: the conversations' think times are drawn against it. */
  readonly wallClock: () => number;
  /**
   * What warming rehearses on a sample record: every step a finished record goes through, so that no
   * first use (zod compiling the record's validator: 14–22 ms once) lands among the first requests' timings.
   */
  readonly rehearse: (record: UnscoredRecord) => void;
}

export interface LoadShardRunOptions {
  /** The schedule's zero on `now`'s clock. */
  readonly zero: number;
  readonly signal: AbortSignal;
  readonly counters: LoadCounters;
  /** Called as each request ends, before its record is queued: throws to stop the run (a failed write). */
  readonly onEnded?: () => void;
  /** Called once, just before the first request goes out. */
  readonly onFirstSend?: () => void;
  /**
   * Called once every request has ended and every record is handed on, before the connections
   * close: the last byte (the loop-delay watch stops there).
   */
  readonly onLastByte?: () => void;
  /**
   * The finished records, in batches outside the I/O callbacks (RECORD_BATCH_MS), in the order they
   * ended; as measured, scored after the run (app/load/score-results.ts), so no planned request goes with them.
   */
  readonly onRecord: (unscored: UnscoredRecord) => void;
}

/** The shard's share of the generator's health (generator.json), before its clocks and CPU are added. */
export interface LoadShardHealth extends Pick<
  GeneratorHealth,
  'planned_arrivals' | 'sent' | 'dropped' | 'unsent' | 'late_sends' | 'peak_in_flight' | 'interrupted' | 'duration_ms'
> {
  /** Arrivals that waited for a connection before being sent (open model; 0 closed). */
  readonly queued: number;
  /** Open: arrivals sent; closed: user iterations (conversations started). */
  readonly started: number;
  /** Open model: each send's lag behind its schedule, ms (exact percentiles are taken over every shard's). */
  readonly lags_ms: readonly number[];
  /** The early stop's verdict (target unreachable, every request refused), after every record is out. */
  readonly run_failed: RunError | undefined;
}

export interface LoadShard {
  readonly warm: WarmUpResult;
  /** Runs the shard's schedule from `zero`; closes its connections when done, whatever happened. */
  run(options: LoadShardRunOptions): Promise<LoadShardHealth>;
}

/** Builds the shard's plan and target and warms its connections; nothing is sent on the schedule yet. */
export async function openLoadShard(options: LoadShardOptions): Promise<LoadShard> {
  const { spec, now } = options;
  const schedule = loadSchedule(spec);
  const plan = createLoadPlan(options.planInput);
  const sample = plan.requestFor(0).planned;
  // The first wave's units built now (plan/load-plan builds one when an arrival first draws it:
  // its row read and checked, its body serialised), not in the first turns of the watched run.
  const firstWave = schedule.firstWave(spec.shard);
  for (let sequence = 0; sequence < firstWave; sequence++)
    plan.conversationFor(spec.shard ? sequence * spec.shard.count + spec.shard.index - 1 : sequence);
  const target = createLoadTarget({
    baseUrl: options.baseUrl,
    tokens: options.tokens,
    timeoutMs: options.timeoutMs,
    maxDurationMs: options.maxDurationMs,
    maxAnswerBytes: options.maxAnswerBytes,
    maxBodyBytes: options.maxBodyBytes,
    maxLineBytes: options.maxLineBytes,
    maxErrorBodyBytes: options.maxErrorBodyBytes,
    connections: schedule.connections(spec.shard),
    now,
  });
  const warm = await warmUp({
    preconnect: (n) => target.preconnect(n),
    connections: firstWave,
    sample,
    now,
    score: (record) => options.rehearse(record),
    run:
      spec.operation === 'chat'
        ? { mode: spec.mode, requests: schedule.plannedUpTo(spec.shard, WARM_FOR_REQUESTS) }
        : undefined,
  });

  async function run(go: LoadShardRunOptions): Promise<LoadShardHealth> {
    const { counters } = go;
    const finishing = createRecordQueue<UnscoredRecord>(go.onRecord, afterMs(RECORD_BATCH_MS));
    const onRecord = (unscored: UnscoredRecord) => {
      go.onEnded?.();
      finishing.push(unscored);
    };
    const conversations = spec.conversations
      ? { thinkTime: spec.think_time, seed: spec.seed, endMs: schedule.lengthMs, wallClock: options.wallClock }
      : null;
    const common = {
      target,
      tokens: createTokenPool(options.tokens.length, spec.token_weights),
      retry: { retries: options.retries, retry429: options.retry429 },
      signal: go.signal,
      graceMs: options.graceMs,
      now,
      zero: go.zero,
      counters,
      onFirstSend: go.onFirstSend,
      plan,
      shard: spec.shard,
      onRecord,
      conversations,
      abandon: { spec: spec.abandon ?? null, seed: spec.seed },
    };
    try {
      let health: LoadShardHealth;
      if (spec.model === 'open') {
        const r = await runOpenLoop({
          ...common,
          arrivals: arrivals(schedule.arrivalOptions(spec.shard)),
          maxInFlight: spec.max_in_flight,
          connections: spec.connections ?? undefined,
        });
        health = {
          planned_arrivals: r.planned,
          sent: r.sent,
          started: r.arrivals_sent,
          dropped: r.dropped,
          unsent: r.unsent,
          queued: r.queued,
          late_sends: r.late_sends,
          lags_ms: r.lags_ms,
          peak_in_flight: r.peak_in_flight,
          interrupted: r.interrupted,
          duration_ms: r.duration_ms,
          run_failed: r.run_failed,
        };
      } else {
        const r = await runClosedUsers({
          ...common,
          steps: schedule.userSteps(spec.shard),
          endMs: schedule.lengthMs,
          maxRequests: spec.requests === null ? null : shardUsers(spec.requests, spec.shard),
        });
        health = {
          planned_arrivals: conversations === null ? r.sent : r.iterations,
          sent: r.sent,
          started: r.iterations,
          dropped: [],
          unsent: 0,
          queued: 0,
          // A conversation's later turns are scheduled (think time), so a closed run can send late too.
          late_sends: counters.late,
          lags_ms: [],
          peak_in_flight: r.peak_in_flight,
          interrupted: r.interrupted,
          duration_ms: r.duration_ms,
          run_failed: r.run_failed,
        };
      }
      finishing.flush(); // throws what handing a record on threw
      return health;
    } finally {
      // Every finished record is handed on, even when the run ends on a bug (whose error wins).
      try {
        finishing.flush();
      } catch {
        // thrown above already, or the run's own error is on its way
      }
      // Closing twenty connections (undici builds an error with its stack for each) held the loop
      // 3–10 ms in one turn after the last byte, the run's longest window in most 20-user runs
      // (docs/benchmarks-log.md, "Session 40: the max pause"): it times nothing.
      go.onLastByte?.();
      await target.close();
    }
  }

  return { warm, run };
}

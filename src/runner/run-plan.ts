/**
 * @module runner/run-plan
 * The closed-loop runner: sends a plan's requests with at most `concurrency` in flight (p-limit),
 * retries what is worth retrying, and hands over exactly one record per planned request that was sent,
 * as soon as its final attempt ends. Nothing is aggregated here and no record is kept: the app scores
 * and writes each one (style.md rule 4).
 *
 * Stopping: when `signal` aborts (Ctrl-C), nothing new is sent and no retry starts; requests in
 * flight get `graceMs` to finish, then are aborted and recorded as `cancelled`. The early stop
 * (early-stop.ts) stops the same way, then rejects with its RunError once every record is out.
 */
import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { abortableSleep } from './sleep.js';
import type { ChatClient } from '../client/chat-client.js';
import type { Exchange } from '../client/exchange.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { OUTCOMES, type Outcome } from '../records/record.js';
import type { RunError } from '../errors.js';
import { createEarlyStop, SAME_FAILURE_SAMPLE } from './early-stop.js';
import { createFailureTally } from './verdict.js';
import { createProgress, type RunProgress } from './progress.js';
import { retryDelayMs, seededRandom, type BackoffOptions, type RetryPolicy } from './retry.js';
import { toRecord, type AttemptRecord } from './to-record.js';
import type { UnscoredRecord } from './unscored-record.js';

export interface RunPlanOptions {
  client: Pick<ChatClient, 'send' | 'baseUrl'>;
  /** Most requests in flight at once (≥ 1). */
  concurrency: number;
  /** Extra attempts after the first (default 0). */
  retries?: number;
  /** Retry 429s too, waiting Retry-After (default false). */
  retry429?: boolean;
  /** Longest Retry-After honoured, seconds (default 30). */
  retryAfterCapS?: number;
  backoff?: BackoffOptions;
  /** Aborting stops scheduling; in-flight requests get graceMs, then are cancelled. */
  signal?: AbortSignal;
  /** Default 10 s. */
  graceMs?: number;
  /** Called synchronously once per planned request that was sent, when its final attempt ended. */
  onRecord: (record: UnscoredRecord) => void;
  /** At most every `progressIntervalMs` (default 250) while running, and once at the end. */
  onProgress?: (progress: RunProgress) => void;
  progressIntervalMs?: number;
  /** Monotonic ms clock (default performance.now). */
  now?: () => number;
  /** Waits before a retry; must resolve early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface RunResult {
  planned: number;
  /** Planned requests sent (= records handed over). */
  sent: number;
  /** Planned requests never sent because the run was stopped. */
  skipped: number;
  outcomes: Record<Outcome, number>;
  /** True when `signal` aborted during the run (Ctrl-C): exit 130 after the reports. */
  interrupted: boolean;
  duration_ms: number;
  /**
   * Every request failed the same way (runner/verdict): the run could not be carried out. The
   * caller writes the reports, then fails with it (exit 3). Undefined otherwise.
   */
  verdict: RunError | undefined;
}

/** Runs the plan; rejects only with the early stop's RunError (after every record is out) or a bug. */
export async function runPlan(plan: readonly PlannedRequest[], options: RunPlanOptions): Promise<RunResult> {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? abortableSleep;
  const policy: RetryPolicy = {
    retries: options.retries ?? 0,
    retry429: options.retry429 ?? false,
    retryAfterCapS: options.retryAfterCapS ?? 30,
    backoff: { baseMs: 250, maxMs: 10_000, seed: 1, ...options.backoff },
  };
  const random = seededRandom(policy.backoff.seed);
  const runStart = now();
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const state = { sent: 0, done: 0, inFlight: 0, skipped: 0 };
  const progress = createProgress({
    total: plan.length, now, runStart, intervalMs: options.progressIntervalMs ?? 250, onProgress: options.onProgress,
    snapshot: () => ({ ...state, outcomes: { ...outcomes } }),
  });

  const stopping = new AbortController(); // no new sends, no new retries
  const cancelling = new AbortController(); // in-flight requests end as cancelled
  // Every request in flight (and every retry wait) listens: that many is expected, not a leak.
  setMaxListeners(0, stopping.signal, cancelling.signal);
  let stopError: RunError | undefined;
  let bug: unknown;
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (error?: RunError) => {
    if (stopping.signal.aborted) return;
    stopError = error;
    stopping.abort();
    graceTimer = setTimeout(() => cancelling.abort(), options.graceMs ?? 10_000);
  };
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    stop();
  };
  if (options.signal?.aborted) onSignal();
  else options.signal?.addEventListener('abort', onSignal, { once: true });
  const earlyStop = createEarlyStop(options.client.baseUrl, Math.min(options.concurrency, plan.length, 5), plan.length > SAME_FAILURE_SAMPLE ? SAME_FAILURE_SAMPLE : 0);
  const failures = createFailureTally(options.client.baseUrl);

  async function runOne(planned: PlannedRequest): Promise<void> {
    if (stopping.signal.aborted || bug !== undefined) {
      state.skipped++;
      return;
    }
    const sequence = state.sent++;
    state.inFlight++;
    const attempts: AttemptRecord[] = [];
    let exchange: Exchange | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        exchange = await options.client.send(planned.body, cancelling.signal);
        attempts.push(attemptOf(exchange, attempt));
        if (attempt === 1) {
          const verdict = earlyStop.observe(sequence, exchange);
          if (verdict) stop(verdict);
        }
        const delay = retryDelayMs(exchange, attempt, policy, random);
        if (delay === null || stopping.signal.aborted) break;
        await sleep(delay, stopping.signal);
        if (stopping.signal.aborted) break;
      }
    } catch (error) {
      bug ??= error; // the client never throws for the server: this is a bug, surfaced after the run
    } finally {
      state.inFlight--;
    }
    if (exchange === undefined) return;
    const final = earlyStop.observeFinal(sequence, exchange);
    if (final) stop(final);
    const record = toRecord(planned, exchange, attempts, runStart);
    failures.add(record);
    outcomes[record.outcome]++;
    state.done++;
    try {
      options.onRecord(record);
    } catch (error) {
      bug ??= error;
      stop();
    }
    progress.tick();
  }

  const limit = pLimit(options.concurrency);
  try {
    await Promise.all(plan.map((planned) => limit(runOne, planned)));
  } finally {
    clearTimeout(graceTimer);
    options.signal?.removeEventListener('abort', onSignal);
    progress.finish();
  }
  if (bug !== undefined) throw bug;
  if (stopError) throw stopError;
  return {
    planned: plan.length, sent: state.sent, skipped: state.skipped, outcomes,
    interrupted, duration_ms: now() - runStart, verdict: interrupted ? undefined : failures.verdict(),
  };
}

function attemptOf(exchange: Exchange, attempt: number): AttemptRecord {
  return {
    attempt, outcome: exchange.outcome, http_status: exchange.http_status, error_code: exchange.error_code,
    retry_after_s: exchange.rate_limit?.retry_after_s ?? null, total_ms: exchange.total_ms,
  };
}


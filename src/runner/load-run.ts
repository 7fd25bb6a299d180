/**
 * @module runner/load-run
 * What the open and the closed model share: live counters (read once a second for the live view;
 * plain numbers, no statistics on the request path), stopping (Ctrl-C or the early stop: nothing new
 * is sent, no retry starts, requests in flight get `graceMs` and are then cancelled), and turning a
 * sent arrival into its record, handed over synchronously as soon as its final attempt ends.
 */
import { createRunStop } from './run-stop.js';
import { watchAbort } from '../client/chat-client.js';
import type { RunError } from '../errors.js';
import type { LoadRequest } from '../plan/load-plan.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { createEarlyStop, SAME_FAILURE_SAMPLE } from './early-stop.js';
import { createFailureTally } from './verdict.js';
import { abandonAfterMs, type Abandon } from '../plan/abandon.js';
import { retryPolicyOf, sendWithRetries, toLoadRecord, type LoadRetryOptions, type SendContext } from './load-send.js';
import type { LoadTarget } from './load-target.js';
import { seededRandom } from './retry.js';
import { setLongTimeout } from './sleep.js';
import { MAX_TIMER_MS } from '../util/limits.js';
import { noteSending } from './young-generation.js';
import type { TokenPool } from './token-pool.js';
import type { UnscoredRecord } from './unscored-record.js';
import type { TurnSession } from './to-record.js';

/** A send this much behind its schedule counts as late (docs/reference/metrics.md "generator health"). */
export const LATE_SEND_MS = 5;

/** Live counts of a load run; the runner mutates them, the live view reads them. */
export interface LoadCounters {
  /** Arrivals whose time came (sent + dropped). */
  offered: number;
  sent: number;
  /** Records handed over. */
  done: number;
  /** Sent and not yet ended (retry waits included). */
  in_flight: number;
  /** Open model: due arrivals waiting for a connection. */
  queued: number;
  peak_in_flight: number;
  ok: number;
  rate_limited: number;
  errors: number;
  dropped: number;
  late: number;
  /** Conversation turns recorded `skipped`: not sent (an earlier turn failed, or the run ended first). */
  skipped: number;
  /** Requests the client closed on purpose (`--abandon`): not errors. */
  abandoned: number;
}

export const createLoadCounters = (): LoadCounters => ({
  offered: 0,
  sent: 0,
  done: 0,
  in_flight: 0,
  queued: 0,
  peak_in_flight: 0,
  ok: 0,
  rate_limited: 0,
  errors: 0,
  dropped: 0,
  late: 0,
  skipped: 0,
  abandoned: 0,
});

export interface LoadRunOptions {
  readonly target: Pick<LoadTarget, 'send' | 'baseUrl'>;
  readonly tokens: TokenPool;
  readonly retry: LoadRetryOptions;
  /** Aborting (Ctrl-C) stops the run: see the module comment. */
  readonly signal?: AbortSignal | undefined;
  /** Default 10 s. */
  readonly graceMs?: number | undefined;
  /** Monotonic ms clock, the clients' (default performance.now). */
  readonly now?: (() => number) | undefined;
  /** The schedule's zero on `now`'s clock (default: when the run starts). */
  readonly zero?: number | undefined;
  /** Called synchronously once per sent arrival, when its final attempt ended, with the request planned (its expectations score the record). */
  readonly onRecord: (record: UnscoredRecord, planned: PlannedRequest) => void;
  /** Filled live; pass your own to read it while the run goes. */
  readonly counters?: LoadCounters | undefined;
  /** Called once, just before the first request goes out (the loop-delay watch starts there). */
  readonly onFirstSend?: (() => void) | undefined;
  /** `--abandon`: which arrivals the client closes, and when (plan/abandon), with the run's seed. */
  readonly abandon?: { readonly spec: Abandon | null; readonly seed: number } | undefined;
}

/** Shared machinery of one run; `finish()` rethrows a bug and returns the run's RunError (early stop, or every request failed alike), if any. */
export function createLoadRun(options: LoadRunOptions) {
  noteSending(); // the young generation's cap may rise with the run's rate, not with the warm-up's
  const now = options.now ?? (() => performance.now());
  const zero = options.zero ?? now();
  const counters = options.counters ?? createLoadCounters();
  const wakers = new Set<Sleeper>();
  // Ctrl-C or the early stop: nothing new is sent, the requests in flight get the grace, the sleepers wake.
  const run = createRunStop({
    signal: options.signal,
    graceMs: options.graceMs,
    onStop: () => {
      for (const sleeper of wakers) sleeper.wake();
    },
  });
  const { stopping, cancelling, stop } = run;
  const sleeping: SleepContext = { now, stopping, wakers };
  // Every attempt watches `cancelling` (client/chat-client watchAbort): held for the whole run, its
  // one listener stays on instead of going each time no request is in flight and coming back with
  // the next (at 1,000/s with quick answers that was an add and a remove of a listener per request).
  const releaseWatch = watchAbort(cancelling, holdWatch);
  const ctx: SendContext = {
    target: options.target,
    policy: retryPolicyOf(options.retry),
    random: seededRandom(retryPolicyOf(options.retry).backoff.seed),
    stopping,
    cancelling,
    abandonAfterMs: options.abandon?.spec
      ? (index) => abandonAfterMs(options.abandon!.spec, options.abandon!.seed, index)
      : undefined,
  };
  const earlyStop = createEarlyStop(options.target.baseUrl, SAME_FAILURE_SAMPLE, SAME_FAILURE_SAMPLE);
  const failures = createFailureTally(options.target.baseUrl);
  let bug: unknown;
  let sequence = 0;

  /**
   * Sends one arrival (counted in flight until its record is out) and returns its record; never
   * rejects (undefined on a bug). A conversation's later turn passes its session and the token of
   * its first turn (a session belongs to the user who opened it).
   */
  async function send(
    request: LoadRequest,
    scheduledOffsetMs: number | null,
    session?: TurnSession,
    token?: number,
  ): Promise<UnscoredRecord | undefined> {
    const tokenIndex = token ?? options.tokens.next();
    const mine = sequence++;
    if (mine === 0) options.onFirstSend?.();
    if (scheduledOffsetMs === null) counters.offered++; // closed model: every request is offered as it is sent
    counters.sent++;
    counters.in_flight++;
    counters.peak_in_flight = Math.max(counters.peak_in_flight, counters.in_flight);
    try {
      // The early stop sees each request's first attempt as it ends.
      const sent = await sendWithRetries(ctx, request, tokenIndex, (exchange) => {
        const verdict = earlyStop.observe(mine, exchange);
        if (verdict) stop(verdict);
      });
      const final = earlyStop.observeFinal(mine, sent.final);
      if (final) stop(final);
      const record = toLoadRecord(request, sent, { zero, scheduledOffsetMs, tokenIndex, session });
      failures.add(record);
      if (scheduledOffsetMs !== null && (record.queue_ms ?? 0) > LATE_SEND_MS) counters.late++;
      if (record.outcome === 'ok') counters.ok++;
      else if (record.outcome === 'rate_limited') counters.rate_limited++;
      else if (record.outcome === 'abandoned') counters.abandoned++;
      else counters.errors++;
      counters.done++;
      options.onRecord(record, request.planned);
      return record;
    } catch (error) {
      bug ??= error; // the clients never throw for the server: a bug, surfaced after the run
      stop();
      return undefined;
    } finally {
      counters.in_flight--;
    }
  }

  /** Hands over the record of a conversation turn that was not sent. */
  function skip(record: UnscoredRecord, planned: PlannedRequest): void {
    counters.skipped++;
    counters.done++;
    try {
      options.onRecord(record, planned);
    } catch (error) {
      bug ??= error;
      stop();
    }
  }

  return {
    now,
    zero,
    counters,
    send,
    skip,
    stop,
    stopping,
    get interrupted() {
      return run.interrupted;
    },
    /** Sleeps until `at` on the monotonic clock (Infinity: until the run stops), waking early when the run stops. */
    sleepUntil(at: number): Promise<void> {
      return new Promise((resolve) => new Sleeper(at, sleeping, resolve).arm());
    },
    /** The early stop's RunError, else (unless interrupted) the verdict that every request failed alike. */
    finish(): RunError | undefined {
      releaseWatch();
      run.dispose();
      if (bug !== undefined) throw bug;
      return run.runFailed ?? (run.interrupted ? undefined : failures.verdict());
    },
  };
}
export type LoadRun = ReturnType<typeof createLoadRun>;

interface SleepContext {
  readonly now: () => number;
  readonly stopping: AbortSignal;
  /** The sleepers to wake when the run stops. */
  readonly wakers: Set<Sleeper>;
}

/**
 * One sleepUntil: a plain timer for any wait Node's timers hold (the open loop's, every arrival ahead
 * of its time), setLongTimeout's chain only beyond that. A class and a module callback: one sleep per
 * arrival, and no closures made for it (setLongTimeout's chain made two more per arrival).
 */
class Sleeper {
  private timer: NodeJS.Timeout | undefined;
  private cancelLong: (() => void) | undefined;

  constructor(
    private readonly at: number,
    private readonly ctx: SleepContext,
    private readonly resolve: () => void,
  ) {
    ctx.wakers.add(this);
  }

  // Rounded up, and armed again when it fires early: Node's timers count from the loop's cached
  // whole-millisecond time, which lags this clock by however long the current tick has run
  // (a busy machine's long tick woke a conversation turn before its schedule: queue_ms < 0).
  arm(): void {
    this.timer = undefined;
    const remaining = this.at - this.ctx.now();
    if (remaining <= 0 || this.ctx.stopping.aborted) return this.wake();
    if (!Number.isFinite(remaining)) return; // until the run stops
    const ms = Math.ceil(remaining);
    if (ms <= MAX_TIMER_MS) this.timer = setTimeout(armSleeper, ms, this);
    else this.cancelLong = setLongTimeout(() => this.arm(), ms);
  }

  wake(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.cancelLong?.();
    this.ctx.wakers.delete(this);
    this.resolve();
  }
}

const armSleeper = (sleeper: Sleeper): void => sleeper.arm();

/** The run's own watch of `cancelling`: nothing to do on the abort, the attempts' watches act. */
const holdWatch = (): void => {};

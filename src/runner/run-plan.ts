/**
 * @module runner/run-plan
 * The closed-loop runner: sends a plan's requests with at most `concurrency` in flight,
 * retries what is worth retrying, and hands over exactly one record per planned request that was sent,
 * as soon as its final attempt ends. Nothing is aggregated here and no record is kept: the app scores
 * and writes each one (style.md rule 4).
 *
 * Conversations: the plan's unit (plan/planned-request.ts) is what runs concurrently. A
 * conversation's turns run one at a time, in order, each in the session of the one before it
 * (plan/conversation.ts); a turn whose predecessor did not end ok is recorded `skipped` with the
 * reason, and nothing is sent for it. With `earlierTurn` (a resumed run) a conversation continues
 * from its last recorded turn: in that turn's session when the service still continues it
 * (`session: resumed`), else in a new session (`restarted`; the refused try is in `attempts`).
 *
 * Stopping: when `signal` aborts (Ctrl-C), nothing new is sent and no retry starts; requests in
 * flight get `graceMs` to finish, then are aborted and recorded as `cancelled`. The early stop
 * (early-stop.ts) stops the same way, then rejects with its RunError once every record is out.
 */
import { createRunStop } from './run-stop.js';
import { abortableSleep, yieldToIo } from './sleep.js';
import type { ChatClient } from '../client/chat-client.js';
import type { Exchange } from '../client/exchange.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { OUTCOMES, type Outcome, type SessionOrigin } from '../records/record.js';
import type { SendMessageRequest } from '../api/send-message.js';
import { followUpBody } from '../plan/conversation.js';
import { nextTurn, refusedSession, skippedRecord, type PreviousTurn } from './conversation-turns.js';
import type { RunError } from '../errors.js';
import { createEarlyStop, SAME_FAILURE_SAMPLE } from './early-stop.js';
import { createFailureTally } from './verdict.js';
import { createProgress, type RunProgress } from './progress.js';
import { retryDelayMs, seededRandom, type BackoffOptions, type RetryPolicy } from './retry.js';
import { attemptOf, toRecord, type AttemptRecord } from './to-record.js';
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
  /**
   * Called synchronously once per planned request that was sent (or a turn recorded skipped), when
   * its final attempt ended, with the planned request it records (its expectations, for scoring).
   */
  onRecord: (record: UnscoredRecord, planned: PlannedRequest) => void;
  /** At most every `progressIntervalMs` (default 250) while running, and once at the end. */
  onProgress?: (progress: RunProgress) => void;
  progressIntervalMs?: number;
  /** Monotonic ms clock (default performance.now). */
  now?: () => number;
  /** Wall clock for the started_at of skipped turns (default Date.now). */
  wallClock?: () => number;
  /**
   * A resumed run: the record of the turn at this plan index when it is not in this plan (the
   * interrupted run recorded it); its conversation continues from it.
   */
  earlierTurn?: (index: number) => PreviousTurn | undefined;
  /** Waits before a retry; must resolve early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Called once, just before the first request goes out (the loop-delay watch starts there). */
  onFirstSend?: () => void;
}

export interface RunResult {
  planned: number;
  /** Planned requests sent. */
  sent: number;
  /** Records handed over: the requests sent, and the conversation turns recorded `skipped` (not sent: an earlier turn failed). */
  recorded: number;
  /** Planned requests neither sent nor recorded because the run was stopped (a resume sends them). */
  skipped: number;
  outcomes: Record<Outcome, number>;
  /** True when `signal` aborted during the run (Ctrl-C): exit 130 after the reports. */
  interrupted: boolean;
  duration_ms: number;
  /**
   * Every request failed the same way (runner/verdict): the run could not be carried out. The
   * caller writes the reports, then fails with it (exit 3). Undefined otherwise.
   */
  run_failed: RunError | undefined;
}

/**
 * The requests to run, in plan order, iterated once: an array, or a lazy plan (plan/build-plan
 * createEvalPlan) whose requests are built as the runner reaches them. `length` counts them.
 */
export type PlanRequests = Iterable<PlannedRequest> & { readonly length: number };

/** Runs the plan; rejects only with the early stop's RunError (after every record is out) or a bug. */
export async function runPlan(plan: PlanRequests, options: RunPlanOptions): Promise<RunResult> {
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? Date.now;
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
  const state = { sent: 0, done: 0, inFlight: 0, skipped: 0, answerChars: 0 };
  const progress = createProgress({
    total: plan.length,
    now,
    runStart,
    intervalMs: options.progressIntervalMs ?? 250,
    onProgress: options.onProgress,
    snapshot: () => ({ ...state, outcomes: { ...outcomes } }),
  });

  // Ctrl-C or the early stop: nothing new is sent, the requests in flight get the grace (run-stop.ts).
  const run = createRunStop({ signal: options.signal, graceMs: options.graceMs });
  const { stopping, cancelling, stop } = run;
  let bug: unknown;
  const earlyStop = createEarlyStop(
    options.client.baseUrl,
    Math.min(options.concurrency, plan.length, 5),
    plan.length > SAME_FAILURE_SAMPLE ? SAME_FAILURE_SAMPLE : 0,
  );
  const failures = createFailureTally(options.client.baseUrl);

  /** Sends one request (retries, and a resumed turn's fallback to a new session); undefined when the run stopped first or a bug struck. */
  async function send(
    planned: PlannedRequest,
    body: SendMessageRequest,
    fallback: SendMessageRequest | undefined,
  ): Promise<Sent | undefined> {
    if (stopping.aborted || bug !== undefined) return undefined;
    const sequence = state.sent++;
    if (sequence === 0) options.onFirstSend?.();
    state.inFlight++;
    const attempts: AttemptRecord[] = [];
    let exchange: Exchange | undefined;
    let restarted = false;
    try {
      for (let attempt = 1; ; attempt++) {
        exchange = await options.client.send(body, cancelling);
        attempts.push(attemptOf(exchange, attempt));
        if (attempt === 1) {
          const verdict = earlyStop.observe(sequence, exchange);
          if (verdict) stop(verdict);
        }
        if (fallback !== undefined && !restarted && refusedSession(exchange) && !stopping.aborted) {
          // A resumed turn whose session the service no longer continues: a new session, without the history.
          restarted = true;
          body = fallback;
          continue;
        }
        const delay = retryDelayMs(exchange, attempt - (restarted ? 1 : 0), policy, random);
        if (delay === null || stopping.aborted) break;
        await sleep(delay, stopping);
        if (stopping.aborted) break;
      }
    } catch (error) {
      bug ??= error; // the client never throws for the server: this is a bug, surfaced after the run
    } finally {
      state.inFlight--;
    }
    if (exchange !== undefined) {
      const final = earlyStop.observeFinal(sequence, exchange);
      if (final) stop(final);
    }
    return exchange === undefined ? undefined : { exchange, attempts, restarted };
  }

  function emit(record: UnscoredRecord, planned: PlannedRequest): void {
    outcomes[record.outcome]++;
    state.done++;
    // The live view's tokens/s estimate: a sum here, no tokenizer on the request path (runner/progress).
    if (record.outcome === 'ok') state.answerChars += record.answer_chars;
    try {
      options.onRecord(record, planned);
    } catch (error) {
      bug ??= error;
      stop();
    }
    progress.tick();
  }

  const skipRest = (rest: readonly PlannedRequest[], reason: string) => {
    for (const planned of rest)
      emit(skippedRecord(planned, reason, { offsetMs: now() - runStart, wallClockMs: wallClock() }), planned);
  };

  /** One unit: a question on its own, or a conversation's turns in order, each after the one before it ended. */
  async function runUnit(unit: readonly PlannedRequest[]): Promise<void> {
    let previous: PreviousTurn | undefined;
    for (const [i, planned] of unit.entries()) {
      if (stopping.aborted || bug !== undefined) {
        state.skipped += unit.length - i; // not sent, not recorded: a resume sends them
        return;
      }
      const step = planned.conversation ?? null;
      let body = planned.body;
      let fallback: SendMessageRequest | undefined;
      let origin: SessionOrigin = 'new';
      let sessionId: string | null = null;
      if (step !== null && step.follows !== null) {
        const before = previous ?? options.earlierTurn?.(step.follows);
        const next =
          before === undefined
            ? `not sent: turn ${step.turn - 1} of conversation ${step.id} has no record`
            : nextTurn(before, step);
        if (typeof next === 'string') return skipRest(unit.slice(i), next);
        body = followUpBody(planned.body, next);
        sessionId = next.chat_session_id;
        origin = previous === undefined ? 'resumed' : 'continued';
        if (previous === undefined) fallback = planned.body;
      }
      const sent = await send(planned, body, fallback);
      if (sent === undefined) {
        state.skipped += unit.length - i;
        return;
      }
      if (sent.restarted) [origin, sessionId] = ['restarted', null];
      const record = toRecord(planned, sent.exchange, sent.attempts, runStart, { origin, chat_session_id: sessionId });
      failures.add(record);
      emit(record, planned);
      previous = record;
    }
  }

  // `concurrency` lanes, each taking the next unit when it is free: the order p-limit starts them
  // in, without a promise (or a unit) per planned request waiting in memory.
  // Once stopped, no lane takes another unit: the rest are counted as skipped, not built (building
  // them reads every remaining row again: a million-row plan stopped early spent minutes on it).
  const units = planUnits(plan);
  let taken = 0;
  const lane = async (): Promise<void> => {
    while (!stopping.aborted && bug === undefined) {
      const next = units.next();
      if (next.done === true) return;
      taken += next.value.length;
      await runUnit(next.value);
    }
  };
  try {
    // Each lane's first send in a turn of its own, as load's users start (runner/closed-users.ts):
    // twenty first sends in one turn held load's loop some 10 ms (docs/benchmarks-log.md, "Session 39:
    // the loop monitor and the max pause"). A lane that rejects while the others start is still
    // awaited below.
    const lanes: Array<Promise<void>> = [];
    const count = Math.max(1, Math.min(options.concurrency, plan.length));
    for (let i = 0; i < count && !stopping.aborted && bug === undefined; i++) {
      const started = lane();
      started.catch(() => {});
      lanes.push(started);
      if (i + 1 < count) await yieldToIo();
    }
    await Promise.all(lanes);
    state.skipped += Math.max(0, plan.length - taken);
  } finally {
    run.dispose();
    progress.finish();
  }
  if (bug !== undefined) throw bug;
  if (run.runFailed) throw run.runFailed;
  return {
    planned: plan.length,
    sent: state.sent,
    recorded: state.done,
    skipped: state.skipped,
    outcomes,
    interrupted: run.interrupted,
    duration_ms: now() - runStart,
    run_failed: run.interrupted ? undefined : failures.verdict(),
  };
}

interface Sent {
  exchange: Exchange;
  attempts: AttemptRecord[];
  /** A resumed turn's old session was refused and it was sent in a new one. */
  restarted: boolean;
}

/**
 * The plan as its units (conversations, or questions on their own), in plan order, read lazily:
 * a unit's turns stand together in a plan (plan/build-plan), so a unit ends where the next begins.
 * A unit met again after another began (a hand-made plan) is run as a unit of its own, after it.
 */
export function* planUnits(plan: Iterable<PlannedRequest>): Generator<PlannedRequest[], void, undefined> {
  let current: PlannedRequest[] = [];
  let id: number | undefined;
  for (const planned of plan) {
    const unit = planned.unit ?? -1 - planned.index;
    if (current.length > 0 && unit !== id) {
      yield current;
      current = [];
    }
    id = unit;
    current.push(planned);
  }
  if (current.length > 0) yield current;
}

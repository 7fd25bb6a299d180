/**
 * @module runner/load-send
 * One arrival of a load run from its first attempt to its record, shared by the open and the closed
 * model: eval's retry policy (retry.ts: network errors and 5xx, 429s with `retry429`, Retry-After
 * honoured up to a cap), every try kept in `attempts`, and the load timing fields. `sent` is the
 * FIRST attempt's: queue_ms = sent − scheduled and response_ms = done(final attempt) − scheduled, so
 * the wait of a request delayed by the generator or by retries is never hidden.
 */
import { abortableSleep } from './sleep.js';
import type { Exchange } from '../client/exchange.js';
import { roundMs } from '../records/round-ms.js';
import { joinSignals } from '../client/join-signals.js';
import type { LoadRequest } from '../plan/load-plan.js';
import type { LoadTarget } from './load-target.js';
import { retryDelayMs, type BackoffOptions, type RetryPolicy } from './retry.js';
import { attemptOf, toRecord, type AttemptRecord, type TurnSession } from './to-record.js';
import type { UnscoredRecord } from './unscored-record.js';

export interface LoadRetryOptions {
  /** Extra attempts after the first (0: none). */
  readonly retries: number;
  readonly retry429: boolean;
  /** Longest Retry-After honoured, seconds (default 30). */
  readonly retryAfterCapS?: number | undefined;
  readonly backoff?: BackoffOptions | undefined;
}

/** The retry policy of retry.ts with eval's defaults. */
export function retryPolicyOf(options: LoadRetryOptions): RetryPolicy {
  return {
    retries: options.retries,
    retry429: options.retry429,
    retryAfterCapS: options.retryAfterCapS ?? 30,
    backoff: { baseMs: 250, maxMs: 10_000, seed: 1, ...options.backoff },
  };
}

export interface SendContext {
  readonly target: Pick<LoadTarget, 'send'>;
  readonly policy: RetryPolicy;
  readonly random: () => number;
  /** Aborted: no retry starts (the run is stopping). */
  readonly stopping: AbortSignal;
  /** Aborted: the attempt in flight ends as cancelled (the grace is over). */
  readonly cancelling: AbortSignal;
  /** `--abandon`: ms after its first send at which the client closes arrival `index`; null: never. */
  readonly abandonAfterMs?: ((index: number) => number | null) | undefined;
}

export interface SentRequest {
  readonly first: Exchange;
  readonly final: Exchange;
  readonly attempts: AttemptRecord[];
}

/** Sends `request` with token `tokenIndex`, retrying as the policy says; `onFirst` sees the first attempt's end. */
export function sendWithRetries(
  ctx: SendContext,
  request: LoadRequest,
  tokenIndex: number,
  onFirst?: (exchange: Exchange) => void,
): Promise<SentRequest> {
  const afterMs = ctx.abandonAfterMs?.(request.planned.index) ?? null;
  // Not async: without --abandon the attempts' promise is the request's, with no frame around it.
  if (afterMs === null) return sendAttempts(ctx, request, tokenIndex, ctx.cancelling, onFirst);
  return sendAbandoning(ctx, request, tokenIndex, afterMs, onFirst);
}

/** `--abandon`: the attempts under a signal that also fires `afterMs` after the first send. */
async function sendAbandoning(
  ctx: SendContext,
  request: LoadRequest,
  tokenIndex: number,
  afterMs: number,
  onFirst?: (exchange: Exchange) => void,
): Promise<SentRequest> {
  // A user closing the tab: the client closes the request after its drawn delay, whatever attempt it is on.
  const leave = new AbortController();
  const timer = setTimeout(() => leave.abort(), afterMs);
  // Not AbortSignal.any: the run-wide signal would keep a reference per request (client/join-signals.ts).
  const joined = joinSignals([ctx.cancelling, leave.signal]);
  try {
    const sent = await sendAttempts(ctx, request, tokenIndex, joined.signal, onFirst);
    if (!leave.signal.aborted || ctx.cancelling.aborted || sent.final.outcome !== 'cancelled') return sent;
    const abandoned: Exchange = {
      ...sent.final,
      outcome: 'abandoned',
      error_message: `abandoned by the client after ${Math.round(afterMs)} ms (--abandon)`,
    };
    return {
      first: sent.first === sent.final ? abandoned : sent.first,
      final: abandoned,
      attempts: sent.attempts.map((a, i) => (i === sent.attempts.length - 1 ? { ...a, outcome: 'abandoned' } : a)),
    };
  } finally {
    clearTimeout(timer);
    joined.release();
  }
}

/**
 * The first attempt, then the retries the policy asks for. Most requests end at their first attempt:
 * it is a `then` on the client's promise (one frame per request, not an async function's loop).
 */
function sendAttempts(
  ctx: SendContext,
  request: LoadRequest,
  tokenIndex: number,
  signal: AbortSignal,
  onFirst?: (exchange: Exchange) => void,
): Promise<SentRequest> {
  return ctx.target.send(request, tokenIndex, signal).then((first) => {
    const attempts = [attemptOf(first, 1)];
    onFirst?.(first);
    const delay = retryDelayMs(first, 1, ctx.policy, ctx.random);
    if (delay === null || ctx.stopping.aborted || signal.aborted) return { first, final: first, attempts };
    return retryAttempts(ctx, request, tokenIndex, signal, { first, final: first, attempts }, delay);
  });
}

/** Attempts 2, 3, …: each after its delay, until the policy stops or the run does. */
async function retryAttempts(
  ctx: SendContext,
  request: LoadRequest,
  tokenIndex: number,
  signal: AbortSignal,
  sent: SentRequest,
  firstDelay: number,
): Promise<SentRequest> {
  const { first, attempts } = sent;
  let final = sent.final;
  let delay: number | null = firstDelay;
  for (let attempt = 2; delay !== null; attempt++) {
    await abortableSleep(delay, ctx.stopping);
    if (ctx.stopping.aborted) break;
    final = await ctx.target.send(request, tokenIndex, signal);
    attempts.push(attemptOf(final, attempt));
    delay = retryDelayMs(final, attempt, ctx.policy, ctx.random);
    if (ctx.stopping.aborted || signal.aborted) break;
  }
  return { first, final, attempts };
}

export interface LoadRecordTiming {
  /** The schedule's zero on the client's monotonic clock. */
  readonly zero: number;
  /**
   * When the plan wanted it sent, ms after zero; null (closed model): the send itself. A later
   * turn of a conversation is scheduled at its predecessor's end plus the think time.
   */
  readonly scheduledOffsetMs: number | null;
  readonly tokenIndex: number;
  /** A conversation turn's session (to-record.ts). */
  readonly session?: TurnSession | undefined;
}

/** The record of one sent arrival: eval's record plus scheduled/queue/response and the token's index. */
export function toLoadRecord(request: LoadRequest, sent: SentRequest, timing: LoadRecordTiming): UnscoredRecord {
  // toRecord's record is new: its load fields are set in place rather than in one more copy.
  const record = toRecord(request.planned, sent.final, sent.attempts, timing.zero, timing.session);
  const sentOffset = sent.first.sent - timing.zero;
  const scheduled = timing.scheduledOffsetMs ?? sentOffset;
  const done = sent.final.total_ms === null ? null : sent.final.sent + sent.final.total_ms - timing.zero;
  record.started_at = sent.first.started_at;
  record.sent_offset_ms = roundMs(sentOffset);
  record.scheduled_offset_ms = roundMs(scheduled);
  record.queue_ms = roundMs(sentOffset - scheduled);
  record.response_ms = done === null ? null : roundMs(done - scheduled);
  record.token_index = timing.tokenIndex;
  return record;
}

/**
 * @module runner/open-loop
 * The open model (k6's arrival-rate executors): every arrival is sent at its scheduled time whether
 * or not earlier requests have answered, so a slow service builds a queue instead of slowing the
 * generator (no coordinated omission). The timer sleeps with setTimeout until the due time (about a
 * millisecond late at most on an idle loop) and never spins: the generator costs CPU per request,
 * not per millisecond of waiting.
 * When the generator is behind, due arrivals go out back to back, yielding to I/O every few sends.
 *
 * `connections` (wrk2-style) bounds the requests sent and unanswered: an arrival beyond it waits,
 * in order, for one to end; its scheduled time is kept, so its wait shows in queue_ms and
 * response_ms but not in total_ms. An arrival that finds `maxInFlight` outstanding (sent or
 * waiting) is dropped: not sent, not a record, listed with its scheduled offset. Invariant:
 * records + dropped + unsent (stopped before being sent) = the schedule's arrivals.
 *
 * With conversations an arrival starts a whole conversation (load-conversation.ts): `maxInFlight`
 * bounds the conversations in progress (think times included), `connections` the first turns
 * only (a later turn goes at its own scheduled time), and every turn is a record (the invariant
 * counts conversations).
 */
import { roundMs } from '../records/round-ms.js';
import type { RunError } from '../errors.js';
import { countRemaining, type Arrival } from '../plan/arrivals.js';
import type { LoadPlan } from '../plan/load-plan.js';
import { createLoadRun, type LoadRunOptions } from './load-run.js';
import { yieldToIo } from './sleep.js';
import { playConversation, type ConversationPlay } from './load-conversation.js';

export interface OpenLoopOptions extends LoadRunOptions {
  /** This process's arrivals (one shard's), in time order. */
  readonly arrivals: Iterable<Arrival>;
  readonly plan: Pick<LoadPlan, 'requestFor'> & Partial<Pick<LoadPlan, 'conversationFor'>>;
  /** Outstanding arrivals (sent or waiting for a connection) at most; at least 1. With conversations: conversations in progress. */
  readonly maxInFlight: number;
  /** `--conversations`: each arrival starts a whole conversation (load-conversation.ts). */
  readonly conversations?: ConversationPlay | null | undefined;
  /** Requests sent and unanswered at most (default maxInFlight: nobody waits). */
  readonly connections?: number | undefined;
}

export interface OpenLoopResult {
  /** Arrivals sent + dropped + unsent. */
  readonly planned: number;
  /** Requests sent (with conversations, every turn sent). */
  readonly sent: number;
  /** Arrivals sent: = sent without conversations; with them, the conversations started. */
  readonly arrivals_sent: number;
  readonly dropped: Array<{ scheduled_offset_ms: number }>;
  /** Arrivals never sent because the run stopped first (not yet due, or waiting for a connection). */
  readonly unsent: number;
  /** Per arrival sent at its time (not after waiting for a connection): actual send − scheduled, ms. */
  readonly lags_ms: number[];
  /** Arrivals that waited for a connection before being sent. */
  readonly queued: number;
  readonly late_sends: number;
  readonly peak_in_flight: number;
  readonly interrupted: boolean;
  /** The early stop's verdict (target unreachable, every request refused), after every record is out. */
  readonly run_failed: RunError | undefined;
  /** From the schedule's zero to the last record. */
  readonly duration_ms: number;
}

/** Sends that may go out back to back before the loop yields to I/O. */
const BURST = 16;

/** Runs the schedule; rejects only on a bug. */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const run = createLoadRun(options);
  const { counters, now } = run;
  const connections = options.connections ?? options.maxInFlight;
  const iterator = options.arrivals[Symbol.iterator]();
  const inFlight = new Set<Promise<void>>();
  const waiting: Arrival[] = [];
  let head = 0; // waiting[head..] still wait: a FIFO without shifting
  const dropped: Array<{ scheduled_offset_ms: number }> = [];
  const lags: number[] = [];
  let unsent = 0;
  let queued = 0;
  let launched = 0;
  let burst = 0;
  const play = options.conversations ?? null;
  const launch = (arrival: Arrival) => {
    launched += 1;
    const started =
      play === null
        ? run.send(options.plan.requestFor(arrival.index), arrival.offset_ms)
        : playConversation(
            run,
            options.plan.conversationFor?.(arrival.index) ?? [options.plan.requestFor(arrival.index)],
            arrival.offset_ms,
            play,
          );
    const sending = started.then(() => {
      inFlight.delete(sending);
      if (head < waiting.length && !run.stopping.aborted) {
        counters.queued--;
        launch(waiting[head++]!);
        if (head === waiting.length) waiting.length = head = 0;
      }
    });
    inFlight.add(sending);
  };
  for (let next = iterator.next(); !next.done; next = iterator.next()) {
    const arrival = next.value;
    const due = run.zero + arrival.offset_ms;
    if (due - now() > 0) {
      burst = 0;
      await waitUntil(run, due);
    } else if (++burst >= BURST) {
      burst = 0;
      await yieldToIo();
    }
    if (run.stopping.aborted) {
      unsent = 1 + countRemaining(iterator);
      break;
    }
    counters.offered++;
    // Outstanding: requests in flight, or (conversations) conversations in progress, think times included.
    if ((play === null ? counters.in_flight : inFlight.size) + counters.queued >= options.maxInFlight) {
      counters.dropped++;
      dropped.push({ scheduled_offset_ms: roundMs(arrival.offset_ms) });
    } else if (counters.in_flight >= connections) {
      counters.queued++;
      queued++;
      waiting.push(arrival);
    } else {
      lags.push(now() - due);
      launch(arrival);
    }
  }
  while (inFlight.size > 0) await Promise.all(inFlight);
  unsent += waiting.length - head; // stopped while they waited
  counters.queued = 0;
  const runFailed = run.finish();
  return {
    planned: launched + dropped.length + unsent,
    sent: counters.sent,
    arrivals_sent: launched,
    dropped,
    unsent,
    lags_ms: lags,
    queued,
    late_sends: counters.late,
    peak_in_flight: counters.peak_in_flight,
    interrupted: run.interrupted,
    run_failed: runFailed,
    duration_ms: now() - run.zero,
  };
}

/**
 * Sleeps on the timer until `due` (timers fire late, never early; by about a millisecond here).
 * Never busy-waits, not even for the last sub-millisecond: at 1,000 arrivals a second the next one
 * is almost always under a millisecond away, and taking that remainder in turns of the event loop
 * (a promise and an Immediate per turn) spun the thread between every two sends (a third of the
 * run's allocations, a fixed CPU cost per request). A send is then up to a timer tick late, as the
 * floor's are; lateness is judged at 5 ms.
 */
function waitUntil(run: { now: () => number; sleepUntil(at: number): Promise<void> }, due: number): Promise<void> {
  return run.sleepUntil(due);
}

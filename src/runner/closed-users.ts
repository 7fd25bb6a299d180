/**
 * @module runner/closed-users
 * The closed model (k6's constant-vus / ramping-vus): N virtual users, each sending its next request
 * when its last one ended, so a slower service gets fewer requests, which is what the closed model
 * shows. The user count follows `steps` (from plan/arrivals `userSteps`): a user joins at its step
 * and leaves after its current request when the count drops below it. No new request starts after
 * `endMs` or once `maxRequests` have started; those in flight finish (within the timeout).
 *
 * Arrival numbers are global across shards (`sequence · N + i − 1`), so keys stay unique in a merge.
 * With conversations, one iteration of a user is one whole conversation (`maxRequests` then counts
 * conversations), its turns separated by the think time.
 */
import type { RunError } from '../errors.js';
import type { UserStep } from '../plan/arrivals.js';
import type { LoadPlan } from '../plan/load-plan.js';
import type { Shard } from '../plan/shard.js';
import { createLoadRun, type LoadRunOptions } from './load-run.js';
import { yieldToIo } from './sleep.js';
import { playConversation, type ConversationPlay } from './load-conversation.js';

export interface ClosedUsersOptions extends LoadRunOptions {
  /** This process's user count over time, offsets from the schedule's zero. */
  readonly steps: readonly UserStep[];
  /** No request starts after this offset; null: only `maxRequests` bounds the run. */
  readonly endMs: number | null;
  /** This process's bound on requests; null: only `endMs` bounds the run. */
  readonly maxRequests: number | null;
  readonly plan: Pick<LoadPlan, 'requestFor'> & Partial<Pick<LoadPlan, 'conversationFor'>>;
  readonly shard?: Shard | null | undefined;
  /** `--conversations`: each iteration of a user plays a whole conversation (load-conversation.ts). */
  readonly conversations?: ConversationPlay | null | undefined;
}

export interface ClosedUsersResult {
  readonly sent: number;
  /** Iterations started: = sent without conversations; with them, the conversations played. */
  readonly iterations: number;
  readonly peak_in_flight: number;
  readonly interrupted: boolean;
  readonly run_failed: RunError | undefined;
  readonly duration_ms: number;
}

/** Runs the users; rejects only on a bug. */
export async function runClosedUsers(options: ClosedUsersOptions): Promise<ClosedUsersResult> {
  if (options.endMs === null && options.maxRequests === null)
    throw new RangeError('a closed run needs endMs or maxRequests');
  const run = createLoadRun(options);
  const { now, zero } = run;
  const shard = options.shard ?? null;
  const loops: Array<Promise<void>> = [];
  const running = new Set<number>();
  let desired = 0;
  let started = 0;
  let bounded!: () => void;
  const boundReached = new Promise<void>((resolve) => (bounded = resolve));
  const over = () =>
    run.stopping.aborted ||
    (options.endMs !== null && now() - zero >= options.endMs) ||
    (options.maxRequests !== null && started >= options.maxRequests);

  async function user(u: number): Promise<void> {
    running.add(u);
    while (u < desired && !over()) {
      const sequence = started++;
      if (options.maxRequests !== null && started >= options.maxRequests) bounded();
      const index = shard ? sequence * shard.count + shard.index - 1 : sequence;
      if (options.conversations)
        await playConversation(
          run,
          options.plan.conversationFor?.(index) ?? [options.plan.requestFor(index)],
          null,
          options.conversations,
        );
      else await run.send(options.plan.requestFor(index), null);
    }
    running.delete(u);
  }

  for (const step of options.steps) {
    await Promise.race([run.sleepUntil(zero + step.offset_ms), boundReached]);
    if (over()) break;
    desired = step.users;
    for (let u = 0; u < desired; u++) {
      if (running.has(u)) continue;
      loops.push(user(u));
      // Each user's first send in a turn of its own: twenty sent in one turn held the loop for
      // some 10 ms at every run's start, its longest pause on a quiet machine (docs/benchmarks-log.md,
      // "Session 39: the loop monitor and the max pause").
      if (u + 1 < desired) await yieldToIo();
      if (over()) break;
    }
  }
  if (!over()) await Promise.race([run.sleepUntil(zero + (options.endMs ?? Infinity)), boundReached]);
  desired = 0; // no user starts another request; those in flight finish
  await Promise.all(loops);
  const runFailed = run.finish();
  return {
    sent: run.counters.sent,
    iterations: started,
    peak_in_flight: run.counters.peak_in_flight,
    interrupted: run.interrupted,
    run_failed: runFailed,
    duration_ms: now() - zero,
  };
}

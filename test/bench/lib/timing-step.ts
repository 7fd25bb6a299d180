/**
 * @module bench/lib/timing-step
 * One concurrency step of the timing benchmark: a fresh simulator in its child process, the real
 * client (createChatClient) driven by the real runner (runPlan) in this process, with `concurrency`
 * streams open, after the warm-up eval does (hot path warmed, connections opened). The first wave
 * (the first `concurrency` sends) leaves all at once, a burst no steady load has: it is reported
 * apart, with every later wave (the per-wave table), and the figures are those of every later
 * request, sent as earlier streams ended. Each exchange is joined to the simulator's trace of it
 * (timing-figures.ts). The only addition to the production path is a pass-through around `send`
 * that keeps five numbers of each exchange, and undici's diagnostics channels (dispatch-times.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createChatClient, type ChatClient } from '../../../src/client/chat-client.js';
import type { PlannedRequest } from '../../../src/plan/planned-request.js';
import { runPlan } from '../../../src/runner/index.js';
import { warmUp } from '../../../src/runner/warm-up.js';
import type { SimConfigInput, SimStats } from '../../../src/sim/index.js';
import { ask } from './child-ipc.js';
import { watchDispatches } from './dispatch-times.js';
import { watchGc, type GcPauses } from './gc-watch.js';
import { epochNow, estimateOffset, type ClockOffset, type ClockSample } from './clock.js';
import { loopDelayOf, processUsage, type FromSim, type LoopDelay, type ProcessUsage } from './sim-child.js';
import {
  decompose,
  spreadOf,
  spreadsOf,
  tailLegs,
  type ClientTiming,
  type Scheduled,
  type Spread,
  type TailLegs,
  type TimingFigure,
} from './timing-figures.js';

export interface TimingStepOptions {
  /** A running sim-child (sim-child.ts) with no simulator started. */
  readonly sim: ChildProcess;
  readonly simConfig: SimConfigInput;
  readonly token: string;
  readonly concurrency: number;
  /** Longer than `concurrency`: what follows the first wave is measured. */
  readonly plan: readonly PlannedRequest[];
  readonly scheduled: Scheduled;
}

/** What a process did over the step. */
export interface ProcessFigures {
  loop_delay_ms: LoopDelay;
  cpu_percent: number;
  /** CPU time per request of the step (first wave included): what a stream costs this process. */
  cpu_ms_per_request: number;
  /** Involuntary context switches: times the kernel gave its core to another process. */
  preempted: number;
  /** GC pauses over the step. */
  gc: GcPauses;
}

export interface TimingStep {
  concurrency: number;
  /** Requests measured: every one after the first wave. */
  requests: number;
  duration_s: number;
  /** Mean requests in flight while requests were left to send (the runner's progress, every 250 ms). */
  in_flight_mean: number;
  outcomes: Record<string, number>;
  /** Measured requests left out of the figures: not ok, or no matching simulator trace. */
  not_ok: number;
  unmatched: number;
  clock: ClockOffset;
  figures: Record<TimingFigure, Spread | null>;
  /** The worst 1% of requests by each error, and the mean of each leg over them. */
  tail: { ttfp: TailLegs | null; ttft: TailLegs | null };
  /** The first wave (sent at once): its errors, for comparison only. */
  first_wave: {
    ttfp_error_ms: Spread | null;
    ttft_error_ms: Spread | null;
    legs?: Record<TimingFigure, Spread | null>;
  };
  /**
   * Every wave of `concurrency` sends in send order (the first is sent at once; later ones as
   * streams end): whether the first second is timed like the rest. After the warm-up a run does
   * (runner/warm-up: hot path warmed, connections opened), as eval does.
   */
  waves: Array<{
    wave: number;
    requests: number;
    ttfp_error_ms: Spread | null;
    ttft_error_ms: Spread | null;
    /** The TTFP error split: chatbench's own part, and the simulator's (a burst of new questions keeps it busy). */
    client_ttfp_ms?: Spread | null;
    sim_ttfp_ms?: Spread | null;
  }>;
  /** The simulator's own view over the whole step: its scheduler's send lag, its loop and CPU. */
  sim: ProcessFigures & { send_lag_ms: SimStats['send_lag_ms'] };
  client: ProcessFigures;
}

type Sim = FromSim;

/** Runs the step; the simulator is stopped (the child stays up) whatever happens. */
export async function runTimingStep(options: TimingStepOptions): Promise<TimingStep> {
  const { sim, concurrency } = options;
  const { baseUrl } = await ask<Sim, 'started'>(sim, { type: 'start', config: options.simConfig }, 'started');
  const client = createChatClient({
    baseUrl,
    token: options.token,
    connections: concurrency,
    timeoutMs: 60_000,
    now: epochNow,
  });
  try {
    // As eval does before its first send (the bench measures the product, warm-up included).
    await warmUp({ preconnect: (n) => client.preconnect(n), connections: concurrency });
    const clockBefore = await clockSamples(sim, 15);
    const simBefore = await ask<Sim, 'stats'>(sim, { type: 'stats' }, 'stats');
    const before = processUsage();
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const gc = watchGc();
    const kept: KeptTiming[] = [];
    const inFlight: number[] = [];
    const dispatches = watchDispatches();
    const run = await runPlan(options.plan, {
      client: keepTimings(client, kept),
      concurrency,
      onRecord: () => undefined,
      onProgress: (p) => void (p.sent < p.total && inFlight.push(p.inFlight)),
    }).finally(() => dispatches.stop());
    loop.disable();
    gc.stop();
    for (const k of kept) k.written = dispatches.writtenAt[k.sequence] ?? Number.NaN;
    const simAfter = await ask<Sim, 'stats'>(sim, { type: 'stats' }, 'stats');
    const { traces } = await ask<Sim, 'traces'>(sim, { type: 'traces' }, 'traces', 60_000);
    const clock = estimateOffset([...clockBefore, ...(await clockSamples(sim, 15))]);
    const firstWave = decompose(
      kept.filter((k) => k.sequence < concurrency),
      traces,
      clock.offset_ms,
      options.scheduled,
    );
    const measured = kept.filter((k) => k.sequence >= concurrency);
    const joined = decompose(measured, traces, clock.offset_ms, options.scheduled);
    const wallMs = run.duration_ms;
    return {
      concurrency,
      requests: measured.length,
      duration_s: Math.round(wallMs / 100) / 10,
      in_flight_mean: Math.round(inFlight.reduce((a, b) => a + b, 0) / Math.max(1, inFlight.length)),
      outcomes: Object.fromEntries(Object.entries(run.outcomes).filter(([, n]) => n > 0)),
      not_ok: joined.not_ok,
      unmatched: joined.unmatched,
      clock,
      figures: spreadsOf(joined.rows),
      tail: { ttfp: tailLegs(joined.rows, 'ttfp'), ttft: tailLegs(joined.rows, 'ttft') },
      first_wave: {
        ttfp_error_ms: spreadOf(firstWave.rows.map((r) => r.ttfp_error_ms)),
        ttft_error_ms: spreadOf(firstWave.rows.map((r) => r.ttft_error_ms)),
        legs: spreadsOf(firstWave.rows),
      },
      waves: wavesOf(kept, traces, clock.offset_ms, options.scheduled, concurrency),
      sim: {
        send_lag_ms: simAfter.stats.send_lag_ms,
        ...processFigures(simBefore.usage, simAfter.usage, simAfter.loop_delay_ms, wallMs, kept.length),
        gc: simAfter.gc,
      },
      client: { ...processFigures(before, processUsage(), loopDelayOf(loop), wallMs, kept.length), gc: gc.read() },
    };
  } finally {
    await client.close();
    await ask<Sim, 'stopped'>(sim, { type: 'stop' }, 'stopped');
  }
}

function processFigures(
  before: ProcessUsage,
  after: ProcessUsage,
  loop: LoopDelay,
  wallMs: number,
  requests: number,
): Omit<ProcessFigures, 'gc'> {
  const cpuMs = after.cpu_ms - before.cpu_ms;
  return {
    loop_delay_ms: loop,
    cpu_percent: Math.round((cpuMs / wallMs) * 100),
    cpu_ms_per_request: Math.round((cpuMs / Math.max(1, requests)) * 100) / 100,
    preempted: after.preempted - before.preempted,
  };
}

type KeptTiming = ClientTiming & { sequence: number };

/** The errors of each wave of `concurrency` sends, in send order. */
function wavesOf(
  kept: readonly KeptTiming[],
  traces: Parameters<typeof decompose>[1],
  offsetMs: number,
  scheduled: Scheduled,
  concurrency: number,
): TimingStep['waves'] {
  const byWave = new Map<number, KeptTiming[]>();
  for (const k of kept) {
    const wave = Math.floor(k.sequence / concurrency);
    byWave.set(wave, [...(byWave.get(wave) ?? []), k]);
  }
  return [...byWave.entries()]
    .sort(([a], [b]) => a - b)
    .map(([wave, timings]) => {
      const rows = decompose(timings, traces, offsetMs, scheduled).rows;
      return {
        wave: wave + 1,
        requests: rows.length,
        ttfp_error_ms: spreadOf(rows.map((r) => r.ttfp_error_ms)),
        ttft_error_ms: spreadOf(rows.map((r) => r.ttft_error_ms)),
        client_ttfp_ms: spreadOf(rows.map((r) => r.client_ttfp_ms)),
        sim_ttfp_ms: spreadOf(rows.map((r) => r.sim_ttfp_ms)),
      };
    });
}

/** The same client, keeping the send order, sent time and two milestones of every exchange into `kept`. */
function keepTimings(client: ChatClient, kept: KeptTiming[]): Pick<ChatClient, 'send' | 'baseUrl'> {
  let sends = 0;
  return {
    baseUrl: client.baseUrl,
    send: async (body, signal) => {
      const sequence = sends++;
      const exchange = await client.send(body, signal);
      kept.push({
        sequence,
        message_id: exchange.message_id,
        sent: exchange.sent,
        written: Number.NaN,
        ttfp_ms: exchange.ttfp_ms,
        ttft_ms: exchange.ttft_ms,
        outcome: exchange.outcome,
      });
      return exchange;
    },
  };
}

/** `count` sequential clock pings of the simulator's process. */
async function clockSamples(sim: ChildProcess, count: number): Promise<ClockSample[]> {
  const samples: ClockSample[] = [];
  for (let i = 0; i < count; i++) {
    const sentAt = epochNow();
    const { at } = await ask<Sim, 'clock'>(sim, { type: 'clock' }, 'clock');
    samples.push({ sentAt, remoteAt: at, receivedAt: epochNow() });
  }
  return samples;
}

/**
 * @module bench/lib/sim-child
 * The simulator as the benchmark runs it: alone in a child process (pinned to its own core by the
 * parent), answering over loopback, driven over IPC. Besides the simulator's own stats it reports
 * its CPU time, its event-loop delay, its GC pauses and the per-request traces of sim-trace.ts, and answers clock
 * pings so the parent can put those traces on its own time axis.
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { SimConfigInput, SimStats } from '../../../src/sim/index.js';
import { createSimServer, loadCorpus } from '../../../src/sim/index.js';
import { epochNow } from './clock.js';
import { watchGc, type GcPauses, type GcWatch } from './gc-watch.js';
import { traceChatResponses, type SimTrace, type TraceRecorder } from './sim-trace.js';

/** Percentiles of an event-loop delay histogram, ms. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

export type ToSim =
  | { type: 'start'; config: SimConfigInput }
  | { type: 'clock' }
  | { type: 'stats' }
  | { type: 'traces' }
  | { type: 'stop' }
  | { type: 'exit' };

export type FromSim =
  | { type: 'ready' }
  | { type: 'started'; baseUrl: string }
  | { type: 'clock'; at: number }
  | { type: 'stats'; stats: SimStats; usage: ProcessUsage; loop_delay_ms: LoopDelay; gc: GcPauses }
  | { type: 'traces'; traces: SimTrace[] }
  | { type: 'stopped' };

/** CPU time and involuntary context switches (the core was taken away) since the process started. */
export interface ProcessUsage {
  cpu_ms: number;
  preempted: number;
}

/** This process's usage now. */
export function processUsage(): ProcessUsage {
  const usage = process.resourceUsage();
  return { cpu_ms: (usage.userCPUTime + usage.systemCPUTime) / 1000, preempted: usage.involuntaryContextSwitches };
}

/** Reads an event-loop delay histogram (nanoseconds) as milliseconds. */
export function loopDelayOf(histogram: { percentile(p: number): number; max: number }): LoopDelay {
  const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;
  return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
}

/** The child's main: serves one simulator at a time until told to exit. */
export async function runSimChild(): Promise<void> {
  const corpus = await loadCorpus();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let gc: GcWatch | undefined;
  let sim: { stats(): SimStats; close(): Promise<void>; traces: TraceRecorder } | undefined;
  const send = (message: FromSim): void => void process.send?.(message);
  const handle = async (message: ToSim): Promise<void> => {
    switch (message.type) {
      case 'start': {
        const server = createSimServer({ config: message.config, corpus, seed: 1 });
        const traces = traceChatResponses(server.server);
        await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
        const { port } = server.server.address() as AddressInfo;
        sim = { stats: server.stats, close: server.close, traces };
        loop.reset();
        loop.enable();
        gc = watchGc();
        return send({ type: 'started', baseUrl: `http://127.0.0.1:${port}${server.config.base_path}` });
      }
      case 'clock':
        return send({ type: 'clock', at: epochNow() });
      case 'stats':
        if (sim)
          send({
            type: 'stats',
            stats: sim.stats(),
            usage: processUsage(),
            loop_delay_ms: loopDelayOf(loop),
            gc: gc?.read() ?? { count: 0, total_ms: 0, max_ms: 0 },
          });
        return;
      case 'traces':
        return send({ type: 'traces', traces: sim?.traces.drain() ?? [] });
      case 'stop':
        loop.disable();
        gc?.stop();
        await sim?.close();
        sim = undefined;
        return send({ type: 'stopped' });
      case 'exit':
        process.disconnect();
    }
  };
  process.on('message', (message: ToSim) => void handle(message));
  send({ type: 'ready' });
}

/**
 * `npm run bench`: how exactly chatbench measures, and how much memory a long evaluation takes
 * (issue 3 §7). Three processes on loopback: the simulator in a child (pinned to core 0 when
 * `taskset` exists), the client under test in this one (core 1), and for the memory run a fresh
 * child with `--expose-gc` (core 1).
 * 1. Timing error of TTFP and TTFT against the simulator's scheduled times, at 100 and 1,000
 *    concurrent streams, split into request / simulator / client legs (lib/timing-figures.ts).
 * 2. Memory of a 20,000-request runEval, sampled after GC at 5k, 10k and 20k records.
 * Writes reports/bench/eval.json and reports/bench/eval.md and prints the figures. Bounded: the
 * whole benchmark is stopped past 4 minutes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { prepareEval } from '../../src/app/eval/run-eval.js';
import { DEMO_TOKEN, type SimConfigInput } from '../../src/sim/index.js';
import { ask, exited, hasTaskset, nextMessage, pinSelf, spawnBenchChild } from './lib/child-ipc.js';
import { runMemoryChild, type FromMemory, type MemoryRun } from './lib/memory-run.js';
import { renderEvalMarkdown, type EvalBenchReport } from './lib/render-eval-md.js';
import { runSimChild, type FromSim } from './lib/sim-child.js';
import { runTimingStep, type TimingStep } from './lib/timing-step.js';

/** `npm run bench -- --quick`: small sizes, to check the benchmark works (its figures mean little). */
const QUICK = process.argv.includes('--quick');
/** Streams open at once, and requests measured after the first wave. */
const TIMING_STEPS = QUICK
  ? [{ concurrency: 20, measured: 80 }]
  : [
      { concurrency: 100, measured: 300 },
      { concurrency: 1_000, measured: 2_000 },
    ];
const PROFILE = {
  first_part_ms: 20,
  pre_answer_ms: 200,
  first_token_ms: 100,
  token_ms: 50,
  answer_sentences: 6,
} as const;
const SCHEDULED = {
  first_part_ms: PROFILE.first_part_ms,
  first_answer_ms: PROFILE.first_part_ms + PROFILE.pre_answer_ms + PROFILE.first_token_ms,
};
const fixed = (ms: number) => ({ median: ms, p99: ms }); // median == p99: no spread
const TIMING_CONFIG: SimConfigInput = {
  chat: {
    time_scale: 1,
    ttfp_ms: fixed(PROFILE.first_part_ms),
    profiles: {
      default: {
        pre_answer_ms: fixed(PROFILE.pre_answer_ms),
        first_token_ms: fixed(PROFILE.first_token_ms),
        token_ms: fixed(PROFILE.token_ms),
        answer_sentences: PROFILE.answer_sentences,
        error_rate: 0,
      },
    },
  },
};
const MEMORY = QUICK
  ? { requests: 1_000, concurrency: 16, checkpoints: [250, 500, 1_000] }
  : { requests: 20_000, concurrency: 64, checkpoints: [5_000, 10_000, 20_000] };
/** The built-in profiles at 1/1000 of real time: a stream lasts a few milliseconds. */
const MEMORY_CONFIG: SimConfigInput = { chat: { time_scale: 0.001 } };
const DEADLINE_MS = 240_000;
const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const load = () => Math.round((loadavg()[0] ?? 0) * 10) / 10;

async function timingSteps(sim: ChildProcess): Promise<TimingStep[]> {
  const longest = Math.max(...TIMING_STEPS.map((s) => s.concurrency + s.measured));
  // One set, no override: every request plays the simulator's deterministic default profile.
  const prepared = await prepareEval({
    datasetPath: 'datasets/sample.csv',
    setFlags: [],
    mode: 'stream',
    repeat: Math.ceil(longest / 75),
    cwd: ROOT,
  });
  const steps: TimingStep[] = [];
  for (const { concurrency, measured } of TIMING_STEPS) {
    const plan = [...prepared.plan].slice(0, concurrency + measured);
    const step = await runTimingStep({
      sim,
      simConfig: TIMING_CONFIG,
      token: DEMO_TOKEN,
      concurrency,
      plan,
      scheduled: SCHEDULED,
    });
    steps.push(step);
    const fig = step.figures;
    console.log(
      `${concurrency} streams (${step.requests} measured, ${step.duration_s} s): TTFP error p50 ${fig.ttfp_error_ms?.p50} p99 ${fig.ttfp_error_ms?.p99} ms; TTFT error p50 ${fig.ttft_error_ms?.p50} p99 ${fig.ttft_error_ms?.p99} ms; TTFT error split p50/p99 client ${fig.client_ttft_ms?.p50}/${fig.client_ttft_ms?.p99}, simulator ${fig.sim_ttft_ms?.p50}/${fig.sim_ttft_ms?.p99}; sim send lag p99 ${step.sim.send_lag_ms.p99} ms; outcomes ${JSON.stringify(step.outcomes)}`,
    );
    console.log(
      `  per wave, TTFP error p50/p99: ${step.waves.map((w) => `${w.wave}: ${w.ttfp_error_ms?.p50}/${w.ttfp_error_ms?.p99}`).join('; ')}`,
    );
    const legs = step.first_wave.legs;
    if (legs)
      console.log(
        `  first wave legs p50 (ms): client send ${legs.client_send_ms?.p50}, sim read ${legs.sim_read_ms?.p50}, sim handling ${legs.sim_handling_ms?.p50}, sim first part ${legs.sim_first_part_ms?.p50}, client first part ${legs.client_first_part_ms?.p50}`,
      );
  }
  return steps;
}

/** Every child started, so that the deadline can end them all. */
const children = new Set<ChildProcess>();

function start(args: string[], core: number | null, nodeFlags: string[] = []): ChildProcess {
  const child = spawnBenchChild({ script: SELF, args, core, nodeFlags });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function memoryRun(sim: ChildProcess, pinned: boolean): Promise<MemoryRun> {
  const { baseUrl } = await ask<FromSim, 'started'>(sim, { type: 'start', config: MEMORY_CONFIG }, 'started');
  const child = start(['--memory-child'], pinned ? 1 : null, ['--expose-gc']);
  try {
    await nextMessage<FromMemory, 'ready'>(child, 'ready', 60_000);
    const reply = await ask<FromMemory, 'result' | 'failed'>(
      child,
      { type: 'run', options: { ...MEMORY, baseUrl, token: DEMO_TOKEN, cwd: ROOT } },
      ['result', 'failed'],
      DEADLINE_MS,
    );
    if (reply.type === 'failed') throw new Error(`the memory run failed: ${reply.message}`);
    const m = reply.result;
    console.log(
      `memory, ${m.requests} requests in ${m.run_s} s: ${m.checkpoints.map((c) => `at ${c.done} RSS ${c.rss_mb} MB heap ${c.heap_used_mb} MB`).join('; ')}; peak RSS ${m.max_rss_mb} MB`,
    );
    return m;
  } finally {
    await exited(child);
    await ask<FromSim, 'stopped'>(sim, { type: 'stop' }, 'stopped');
  }
}

async function runParent(): Promise<void> {
  const loadBefore = load();
  const cores = availableParallelism(); // before pinning: afterwards it counts one
  const pinned = hasTaskset();
  const sim = start(['--sim-child'], pinned ? 0 : null);
  if (pinned) pinSelf(1);
  const deadline = setTimeout(() => {
    console.error(`bench: over its ${DEADLINE_MS / 1000} s bound, stopping`);
    process.exitCode = 1;
    for (const child of children) child.kill(); // the pending asks then reject and the run unwinds
    setTimeout(() => process.kill(process.pid), 5_000).unref();
  }, DEADLINE_MS);
  deadline.unref();
  try {
    await nextMessage<FromSim, 'ready'>(sim, 'ready', 60_000);
    const timing = await timingSteps(sim);
    const memory = await memoryRun(sim, pinned);
    const report: EvalBenchReport = {
      generated_at: new Date().toISOString(),
      machine: {
        cores,
        cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
        node: process.version,
        load_before: loadBefore,
        load_after: load(),
        pinned,
      },
      profile: PROFILE,
      scheduled: SCHEDULED,
      timing,
      memory,
    };
    mkdirSync(`${ROOT}/reports/bench`, { recursive: true });
    writeFileSync(`${ROOT}/reports/bench/eval.json`, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(`${ROOT}/reports/bench/eval.md`, renderEvalMarkdown(report));
    console.log('wrote reports/bench/eval.json and reports/bench/eval.md');
  } finally {
    clearTimeout(deadline);
    sim.send({ type: 'exit' });
    await exited(sim);
  }
}

if (process.argv.includes('--sim-child')) await runSimChild();
else if (process.argv.includes('--memory-child')) runMemoryChild();
else await runParent();

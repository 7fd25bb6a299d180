/**
 * @module bench/load/truth
 * Timing against a truth server, in `npm run bench:load` (issue 24 §5): how far each tool's TTFP and
 * TTFT are from what the server did. The server is the simulator in its own process, streaming its
 * answers at realistic pace, with each chat response's first write holding a line and its first answer write
 * logged from inside (sim-trace.ts: the moment the bytes were handed to the kernel, on the server's
 * monotonic clock). The truth of a request is that write's time less the request's arrival at the
 * server; a tool's error is its own TTFP (TTFT) less the truth's, paired by the assistant message id
 * the stream reserved (chatbench's record holds it; the kit's analyzer does, read by
 * kit_locustfile.py). Both are durations within one process, so no clock is compared across
 * processes; the error holds the loopback both ways, the client's own send and read path, and its
 * scheduling. Chatbench (`load --concurrency N`) and the kit (N users, no wait) at 4 and 20 users,
 * rounds in alternating order, every paired request of the rounds pooled: median and p95 (target:
 * chatbench's median ≤ 1.5 ms and p95 no worse than the kit's).
 */
import type { ChildProcess } from 'node:child_process';
import { percentile } from '../../../src/metrics/stats.js';
import { ask, exited, nextMessage, spawnBenchChild } from '../lib/child-ipc.js';
import type { FromSim } from '../lib/sim-child.js';
import type { SimTrace } from '../lib/sim-trace.js';
import { prepareKit, runKitTool, type KitTiming, type ToolTiming } from './kit.js';

export const TRUTH_USERS = [4, 20] as const;
export const TRUTH_TIMING: Omit<KitTiming, 'users'> = { runS: 14, windowFromS: 3, windowToS: 12 };
export const TRUTH_TIMING_QUICK: Omit<KitTiming, 'users'> = { runS: 8, windowFromS: 2, windowToS: 7 };

/** Median and p95 of a tool's errors, ms, and how many requests were paired. */
export interface ErrorFigures {
  readonly n: number;
  readonly median: number | null;
  readonly p95: number | null;
}

export interface TruthRow {
  readonly tool: 'kit' | 'chatbench';
  readonly users: number;
  readonly ttfp: ErrorFigures;
  readonly ttft: ErrorFigures;
  /** Requests the tool measured that the server's log did not hold (or the reverse is not counted). */
  readonly unpaired: number;
}

export interface TruthFigures {
  readonly skipped: string | null;
  readonly rounds: number;
  readonly timing: Omit<KitTiming, 'users'>;
  readonly rows: TruthRow[];
}

/** The errors (tool − truth, ms) of the requests both sides saw. Pure. */
export function pairErrors(
  timings: readonly ToolTiming[],
  traces: readonly SimTrace[],
): { ttfp: number[]; ttft: number[]; unpaired: number } {
  const byId = new Map(traces.map((t) => [t.message_id, t]));
  const ttfp: number[] = [];
  const ttft: number[] = [];
  let unpaired = 0;
  for (const timing of timings) {
    const trace = byId.get(timing.message_id);
    if (trace === undefined) {
      unpaired += 1;
      continue;
    }
    // The first write holding a line (the first may be the headers alone).
    const part = trace.part_flush ?? null;
    if (timing.ttfp_ms !== null && part !== null) ttfp.push(timing.ttfp_ms - (part - trace.arrival));
    if (timing.ttft_ms !== null && trace.delta_flush !== null)
      ttft.push(timing.ttft_ms - (trace.delta_flush - trace.arrival));
  }
  return { ttfp, ttft, unpaired };
}

export function errorFigures(errors: readonly number[]): ErrorFigures {
  const sorted = [...errors].sort((a, b) => a - b);
  return { n: sorted.length, median: percentile(sorted, 0.5) ?? null, p95: percentile(sorted, 0.95) ?? null };
}

/** The truth server in its own process. */
async function startTruth(config: Record<string, unknown>): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawnBenchChild({
    script: new URL('./truth-child.ts', import.meta.url).pathname,
    args: [],
    core: null,
  });
  await nextMessage<FromSim, 'ready'>(child, 'ready');
  const started = await ask<FromSim, 'started'>(child, { type: 'start', config }, 'started');
  return { baseUrl: started.baseUrl, child };
}

export async function truthSection(
  config: Record<string, unknown>,
  token: string,
  rounds: number,
  timing: Omit<KitTiming, 'users'>,
  log: (line: string) => void,
  hasTime: () => boolean,
): Promise<TruthFigures> {
  const setup = prepareKit();
  if (!setup.ok) {
    log(`bench:load: timing against the truth server skipped: ${setup.reason}`);
    return { skipped: setup.reason, rounds: 0, timing, rows: [] };
  }
  const { baseUrl, child } = await startTruth(config);
  const pooled = new Map<string, { ttfp: number[]; ttft: number[]; unpaired: number }>();
  let done = 0;
  try {
    for (let round = 1; round <= rounds && hasTime(); round++) {
      for (const users of TRUTH_USERS) {
        const order: Array<'kit' | 'chatbench'> = round % 2 === 1 ? ['kit', 'chatbench'] : ['chatbench', 'kit'];
        for (const tool of order) {
          await ask<FromSim, 'traces'>(child, { type: 'traces' }, 'traces'); // forget what came before this run
          const timings: ToolTiming[] = [];
          await runKitTool(tool, round, setup, baseUrl, token, { ...timing, users }, timings);
          const { traces } = await ask<FromSim, 'traces'>(child, { type: 'traces' }, 'traces');
          const paired = pairErrors(timings, traces);
          const key = `${tool}/${users}`;
          const into = pooled.get(key) ?? { ttfp: [], ttft: [], unpaired: 0 };
          into.ttfp.push(...paired.ttfp);
          into.ttft.push(...paired.ttft);
          into.unpaired += paired.unpaired;
          pooled.set(key, into);
          const f = errorFigures(paired.ttfp);
          log(
            `bench:load: truth round ${round}, ${users} users, ${tool}: TTFP error median ${f.median?.toFixed(2) ?? '–'} ms, p95 ${f.p95?.toFixed(2) ?? '–'} ms (${f.n} paired, ${paired.unpaired} unpaired)`,
          );
        }
      }
      done = round;
    }
  } finally {
    await ask<FromSim, 'stopped'>(child, { type: 'stop' }, 'stopped').catch(() => undefined);
    child.send({ type: 'exit' });
    await exited(child);
  }
  const rows: TruthRow[] = [];
  for (const users of TRUTH_USERS) {
    for (const tool of ['kit', 'chatbench'] as const) {
      const p = pooled.get(`${tool}/${users}`);
      if (p !== undefined)
        rows.push({ tool, users, ttfp: errorFigures(p.ttfp), ttft: errorFigures(p.ttft), unpaired: p.unpaired });
    }
  }
  return { skipped: null, rounds: done, timing, rows };
}

const fmt = (v: number | null) => (v === null ? '–' : `${v >= 0 ? '+' : ''}${v.toFixed(2)}`);

/** The section of load.md. */
export function renderTruthMd(t: TruthFigures): string[] {
  const lines = ['## Timing against a truth server', ''];
  if (t.skipped !== null) return [...lines, `Skipped: ${t.skipped}.`, ''];
  lines.push(
    `The simulator at realistic pace in its own process logs, per streamed response, when its first write holding a stream line and its first answer write were handed to the kernel; a tool's error is its TTFP (TTFT) less that write's time after the request arrived, paired by message id. Closed users sending at once when an answer ends, ${t.timing.runS} s runs, ${t.rounds} round(s) in alternating order, every paired request pooled (target: chatbench's median ≤ 1.5 ms, p95 no worse than the kit's).`,
    '',
    '| users | tool | paired | TTFP error median (ms) | TTFP error p95 (ms) | TTFT error median (ms) | TTFT error p95 (ms) |',
    '|---:|:---|---:|---:|---:|---:|---:|',
  );
  for (const r of t.rows)
    lines.push(
      `| ${r.users} | ${r.tool === 'kit' ? 'the kit (Locust)' : 'chatbench'} | ${r.ttfp.n} | ${fmt(r.ttfp.median)} | ${fmt(r.ttfp.p95)} | ${fmt(r.ttft.median)} | ${fmt(r.ttft.p95)} |`,
    );
  lines.push('');
  return lines;
}

/**
 * `npm run bench:workers` (part of `npm run bench:load`; issue 17 §2 and §4): what `load --workers`
 * buys, measured side by side in one run, the simulator in its own process (load/sim-process.ts).
 * (a) With 1 and 2 workers: CPU per request (the whole generator process, every thread:
 *     process.cpuUsage) at a fixed full-request rate, median of rounds; and the highest sustained
 *     open-loop rate against a non-streamed simulator: ×2 steps then one bisection, a step kept up
 *     when the late-send p99 after the first 500 ms is under 5 ms, nothing was dropped and at least
 *     95% of the rate was sent.
 * (b) The stream-count table: open model, long streamed answers (simulator at time_scale 1 with a
 *     profile of ~30 s answers; ~2 s in --quick), rising in-flight stream counts, with 1 and 2
 *     workers: late-send p99, TTFP p99, peak RSS, dropped, and the generator's event-loop delay p99
 *     (the worst worker's); and the stream count at which that p99 first passes 5 ms.
 *     Beside each row: the simulator process's CPU (from /proc) and the generator's (every
 *     thread), each as a share of one core from the first send to the last byte and per part
 *     received (the generator's reports after its last byte are not a part's cost); with one
 *     worker, the collector's pauses on the generator's thread over the run; the TTFP error (TTFP
 *     minus the run's smallest TTFP: the profile is fixed, so on an idle pair every answer's TTFP
 *     is the same) and which side saturates first.
 * Bounded: fixed step lists and durations, a deadline; `--quick` stays under a minute.
 * `--streams-only` runs the stream-count table alone (issue 24 §4), with `--counts 500,1000,…`,
 * `--workers 1` (or `1,2`) and `--send-s N` (seconds of arrivals per row; the answers take
 * ~30 s on top): it writes reports/bench/streams.json and streams.md instead.
 * Writes reports/bench/workers.json and reports/bench/workers.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import type { LoadSpec, PreparedLoad } from '../../src/app/load/run-load.js';
import type { Mode } from '../../src/records/record.js';
import { capYoungGeneration } from '../../src/runner/young-generation.js';
import type { SimProcess } from './load/sim-process.js';

// The generator runs in this process: it starts as `chatbench load` does (src/cli/bin.ts), its young
// generation capped before the use-case's modules load (loading them alone grows the semi-spaces to
// 16 MiB), with the runner's own copy of the module (src/ through tsx), so that its noteSending()
// raises the cap at a busy rate as in the CLI. Without it the stream-count table measured V8's
// defaults, which the CLI does not keep: at 5,000 streams 267 parallel scavenges of ~10 ms (max 37
// ms) on the measuring thread (docs/benchmarks-log.md, "Session 43").
capYoungGeneration();
const { prepareLoad, runLoad, LoadSpecSchema } = await import('../../src/app/load/run-load.js');
const { percentile } = await import('../../src/metrics/stats.js');
const { startSimProcess } = await import('./load/sim-process.js');

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = 'onyx_pat_chatbench_demo';
const QUICK = process.argv.includes('--quick');
const STREAMS_ONLY = process.argv.includes('--streams-only');
const flag = (name: string): string | undefined =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const numbers = (text: string | undefined): number[] | undefined => {
  if (text === undefined) return undefined;
  const list = text.split(',').map((t) => Number(t.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(`"${text}": give positive integers separated by commas`);
  return list;
};
const WORKERS: readonly number[] = numbers(flag('--workers')) ?? [1, 2];
const CPU = QUICK ? { rate: 200, durationS: 2, rounds: 1 } : { rate: 400, durationS: 8, rounds: 3 };
const RAMP = QUICK
  ? { rates: [400, 1600], stepS: 1.5, settleMs: 500, maxLagMs: 5 }
  : { rates: [250, 500, 1000, 2000, 4000, 8000], stepS: 4, settleMs: 500, maxLagMs: 5 };
/** Streams: the answer's length and the in-flight stream counts (rate = count / answer length). */
const STREAMS = QUICK
  ? { answerS: 2, counts: numbers(flag('--counts')) ?? [100, 400], sendS: Number(flag('--send-s') ?? 2) }
  : {
      answerS: 30,
      counts: numbers(flag('--counts')) ?? [500, 1000, 2000, 5000],
      sendS: Number(flag('--send-s') ?? 45),
    };
/** Over this share of one core the simulator is the side that saturates (it is one Node process: one core at most). */
const SIM_BUSY = 0.9;
/** Tokens of every answer of the stream table (the simulator fits each answer to it), to size token_ms for the answer length. */
const ANSWER_TOKENS = 80;
const DEADLINE_MS = QUICK ? 58_000 : 1_500_000;
const LOOP_LIMIT_MS = 5;

const started = performance.now();
const timeLeft = () => DEADLINE_MS - (performance.now() - started);
const fixed = (ms: number) => ({ median: ms, p99: ms });

function spec(mode: Mode, rate: number, durationS: number, maxInFlight = 1000): LoadSpec {
  return LoadSpecSchema.parse({
    operation: 'chat',
    mode,
    model: 'open',
    rate,
    arrival: 'constant',
    max_in_flight: maxInFlight,
    connections: null,
    stages: null,
    duration_ms: Math.round(durationS * 1000),
    requests: null,
    warmup_ms: 0,
    cooldown_ms: 0,
    seed: 1,
    question_order: 'sequential',
    set: 'default',
    tokens: 1,
    token_weights: null,
    shard: null,
    start_at: null,
  });
}

/**
 * The garbage collector's pauses on this thread from the first send to the last byte: what holds a
 * send late when the generator has the CPU. Read where the generator runs on this thread (one worker);
 * with more, each worker's own collector is not seen here (null).
 */
interface GcPauses {
  readonly scavenges: number;
  readonly full: number;
  readonly over_5_ms: number;
  readonly over_10_ms: number;
  readonly longest_ms: number;
  readonly total_ms: number;
}

function gcPausesOf(entries: readonly PerformanceEntry[], from: number, to: number): GcPauses {
  const within = entries.filter((e) => e.startTime >= from && e.startTime <= to);
  // Node 20's types leave out the gc entry's detail (its kind), which Node does set.
  const isMinor = (e: PerformanceEntry) =>
    (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    scavenges: within.filter(isMinor).length,
    full: within.filter((e) => !isMinor(e)).length,
    over_5_ms: within.filter((e) => e.duration > 5).length,
    over_10_ms: within.filter((e) => e.duration > 10).length,
    longest_ms: round(Math.max(0, ...within.map((e) => e.duration))),
    total_ms: round(within.reduce((sum, e) => sum + e.duration, 0)),
  };
}

/** One load run in this process (its workers are threads of it); peak RSS sampled every 100 ms. */
async function run(sim: SimProcess, prepared: PreparedLoad, s: LoadSpec, workers: number) {
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const simCpuBefore = processCpuMs(sim.pid);
  const cpuBefore = process.cpuUsage();
  const collected: PerformanceEntry[] = [];
  const gc = new PerformanceObserver((list) => collected.push(...list.getEntries()));
  gc.observe({ entryTypes: ['gc'] });
  // runLoad reads the CPU at the first send and at the last byte: the same moments bound the pauses.
  const window: number[] = [];
  try {
    const result = await runLoad({
      spec: s,
      baseUrl: sim.baseUrl,
      tokens: [TOKEN],
      prepared,
      target: 'service',
      cwd: ROOT,
      outDir: join(mkdtempSync(join(tmpdir(), 'chatbench-bench-workers-')), 'run'),
      signal: new AbortController().signal,
      graceMs: 5000,
      timeoutMs: 120_000,
      retries: 0,
      retry429: false,
      version: 'bench',
      cpuUsage: () => {
        window.push(performance.now());
        return process.cpuUsage();
      },
      workers,
    });
    const cpu = process.cpuUsage(cpuBefore);
    collected.push(...gc.takeRecords());
    const simCpuAfter = processCpuMs(sim.pid);
    return {
      generator: result.generator,
      outDir: result.outDir,
      peakRssMb: peakRss / 2 ** 20,
      simCpuMs: simCpuBefore === null || simCpuAfter === null ? null : simCpuAfter - simCpuBefore,
      /** The whole runLoad: its setup, the run, and its reports after the last byte. */
      generatorCpuMs: (cpu.user + cpu.system) / 1000,
      gcPauses: workers === 1 && window.length >= 2 ? gcPausesOf(collected, window[0]!, window.at(-1)!) : null,
    };
  } finally {
    clearInterval(sampler);
    gc.disconnect();
  }
}

/** CPU time (user + system) of a process from /proc/PID/stat, ms; null where /proc is absent. */
function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    // After "pid (comm) ": state is field 3, so utime (14) and stime (15) are at 11 and 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

interface Rec {
  scheduled_offset_ms: number | null;
  queue_ms: number | null;
  ttfp_ms: number | null;
  parts?: number;
}
const recordsOf = (outDir: string): Rec[] =>
  readFileSync(join(outDir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);
const p99 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.99,
  ) ?? null;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  ) ?? null;

interface CpuRow {
  workers: number;
  rounds: number;
  requests: number;
  cpu_ms_per_request: number | null;
  achieved_rate: number;
}
interface RampStep {
  workers: number;
  rate: number;
  sent: number;
  dropped: number;
  steady_lag_p99_ms: number | null;
  ok: boolean;
}
interface StreamRow {
  workers: number;
  streams: number;
  rate: number;
  peak_in_flight: number;
  sent: number;
  dropped: number;
  late_p99_ms: number | null;
  ttfp_p99_ms: number | null;
  peak_rss_mb: number;
  loop_delay_p99_ms: number | null;
  /** TTFP minus the run's smallest TTFP (the fixed profile's own TTFP on an idle pair), p50 and p99. */
  ttfp_error_p50_ms: number | null;
  ttfp_error_p99_ms: number | null;
  loop_delay_max_ms: number | null;
  /** CPU from the first send to the last byte, share of one core: the simulator process, the generator process (every thread). */
  sim_cpu: number | null;
  generator_cpu: number;
  /** The generator's CPU outside that window (setup, and the reports after the last byte), s. */
  generator_cpu_outside_run_s: number;
  /** The collector's pauses on the generator's thread over the run (one worker only). */
  gc_pauses: GcPauses | null;
  /** Streamed parts received over the row, and the CPU each side spent per part (µs): what a quiet machine would need per stream. */
  parts: number;
  generator_us_per_part: number | null;
  sim_us_per_part: number | null;
  /** Which side saturates: the simulator (≥ 90% of its one core), the generator (loop delay p99 over 5 ms), both, or neither. */
  saturates: 'simulator' | 'generator' | 'both' | 'neither';
  /** The machine's 1-minute load average at the row's end: on a shared machine, how much else ran beside it. */
  load_1m: number;
}

async function cpuPerRequest(sim: SimProcess, prepared: PreparedLoad, workers: number): Promise<CpuRow> {
  const perRequest: number[] = [];
  let requests = 0;
  let rate = 0;
  for (let round = 0; round < CPU.rounds; round++) {
    const { generator: g } = await run(sim, prepared, spec('full', CPU.rate, CPU.durationS), workers);
    const cpu = (g.cpu_user_ms ?? 0) + (g.cpu_system_ms ?? 0);
    if (g.sent > 0) perRequest.push(cpu / g.sent);
    requests = g.sent;
    rate = g.sent / CPU.durationS;
  }
  return { workers, rounds: CPU.rounds, requests, cpu_ms_per_request: median(perRequest), achieved_rate: rate };
}

async function sustained(
  sim: SimProcess,
  prepared: PreparedLoad,
  workers: number,
): Promise<{ steps: RampStep[]; sustained: number | null }> {
  const steps: RampStep[] = [];
  const step = async (rate: number) => {
    const { generator: g, outDir } = await run(sim, prepared, spec('full', rate, RAMP.stepS), workers);
    const lag = p99(
      recordsOf(outDir)
        .filter((r) => (r.scheduled_offset_ms ?? 0) >= RAMP.settleMs && r.queue_ms !== null)
        .map((r) => r.queue_ms!),
    );
    const ok = lag !== null && lag < RAMP.maxLagMs && g.dropped.length === 0 && g.sent >= 0.95 * rate * RAMP.stepS;
    steps.push({ workers, rate, sent: g.sent, dropped: g.dropped.length, steady_lag_p99_ms: lag, ok });
    return ok;
  };
  let good: number | null = null;
  let bad: number | null = null;
  for (const [i, rate] of RAMP.rates.entries()) {
    // The first step always runs (every table gets a row); the deadline trims the rest.
    if (i > 0 && timeLeft() < (QUICK ? 20_000 : 60_000)) break;
    if (await step(rate)) good = rate;
    else {
      bad = rate;
      break;
    }
  }
  if (bad !== null && timeLeft() > (QUICK ? 20_000 : 60_000)) {
    const middle = Math.round(((good ?? 0) + bad) / 2);
    if (await step(middle)) good = middle;
  }
  return { steps, sustained: good };
}

async function streamRow(
  sim: SimProcess,
  prepared: PreparedLoad,
  workers: number,
  streams: number,
): Promise<StreamRow> {
  const rate = streams / STREAMS.answerS;
  const {
    generator: g,
    outDir,
    peakRssMb,
    simCpuMs,
    generatorCpuMs,
    gcPauses,
  } = await run(sim, prepared, spec('stream', rate, STREAMS.sendS, Math.ceil(streams * 2)), workers);
  const recs = recordsOf(outDir);
  const ttfp = recs.filter((r) => r.ttfp_ms !== null).map((r) => r.ttfp_ms!);
  const parts = recs.reduce((sum, r) => sum + (r.parts ?? 0), 0);
  // The generator's CPU from its first send to its last byte (generator.json, every thread), not the
  // whole runLoad: its reports after the last byte (7,500 records' summary, HTML and viewer) are no
  // cost per part, and counting them made 5,000 streams look like more than a core. The simulator
  // idles outside that window, so its CPU over the row is its CPU over the run.
  const runMs = g.duration_ms;
  const generatorRunMs = (g.cpu_user_ms ?? 0) + (g.cpu_system_ms ?? 0);
  const share = (ms: number | null) => (ms === null || runMs <= 0 ? null : ms / runMs);
  const simCpuShare = share(simCpuMs);
  const generatorCpuShare = share(generatorRunMs) ?? 0;
  const perPart = (ms: number | null) =>
    ms === null || parts === 0 ? null : Math.round((ms * 1000 * 10) / parts) / 10;
  const floor = ttfp.length === 0 ? null : Math.min(...ttfp);
  const error = floor === null ? [] : ttfp.map((v) => v - floor);
  const loopP99 = g.loop_delay_ms?.p99 ?? null;
  const simBusy = simCpuShare !== null && simCpuShare >= SIM_BUSY;
  const generatorBusy = loopP99 !== null && loopP99 > LOOP_LIMIT_MS;
  return {
    workers,
    streams,
    rate: Math.round(rate * 10) / 10,
    peak_in_flight: g.peak_in_flight,
    sent: g.sent,
    dropped: g.dropped.length,
    late_p99_ms: g.schedule_lag_ms.p99,
    ttfp_p99_ms: p99(ttfp),
    peak_rss_mb: Math.round(peakRssMb),
    loop_delay_p99_ms: loopP99,
    ttfp_error_p50_ms: median(error),
    ttfp_error_p99_ms: p99(error),
    loop_delay_max_ms: g.loop_delay_ms?.max ?? null,
    sim_cpu: simCpuShare === null ? null : Math.round(simCpuShare * 100) / 100,
    generator_cpu: Math.round(generatorCpuShare * 100) / 100,
    parts,
    generator_us_per_part: perPart(generatorRunMs),
    sim_us_per_part: perPart(simCpuMs),
    generator_cpu_outside_run_s: Math.round((generatorCpuMs - generatorRunMs) / 100) / 10,
    gc_pauses: gcPauses,
    saturates: simBusy && generatorBusy ? 'both' : simBusy ? 'simulator' : generatorBusy ? 'generator' : 'neither',
    load_1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

const fmt = (v: number | null, digits = 2) => (v === null ? '–' : v.toFixed(digits));

function passesAt(rows: readonly StreamRow[], workers: number): string {
  const mine = rows.filter((r) => r.workers === workers);
  const first = mine.find((r) => r.loop_delay_p99_ms !== null && r.loop_delay_p99_ms > LOOP_LIMIT_MS);
  if (first) return `${first.streams} streams`;
  return mine.length === 0 ? 'not measured' : `not reached up to ${Math.max(...mine.map((r) => r.streams))} streams`;
}

function perCore(cpu: readonly CpuRow[], ramps: Record<number, { sustained: number | null }>, cores: number): string {
  const one = cpu.find((c) => c.workers === 1)?.cpu_ms_per_request ?? null;
  const two = cpu.find((c) => c.workers === 2)?.cpu_ms_per_request ?? null;
  const s1 = ramps[1]?.sustained ?? null;
  const s2 = ramps[2]?.sustained ?? null;
  const lines = [
    `CPU per request: ${fmt(one, 3)} ms with 1 worker, ${fmt(two, 3)} ms with 2${one !== null && two !== null ? ` (${(two / one).toFixed(2)}×)` : ''}.`,
    `Highest sustained rate: ${s1 ?? 'none'}/s with 1 worker, ${s2 ?? 'none'}/s with 2${s1 && s2 ? ` (${(s2 / s1).toFixed(2)}×)` : ''}.`,
  ];
  if (one !== null) {
    lines.push(
      `What it predicts per core: at ${fmt(one, 3)} ms of CPU per request, one core busy only with sending could carry about ${Math.round(1000 / one)} requests/s; ` +
        `on this ${cores}-core machine, which also runs the simulator (and other work), 2 workers share the cores with it, so the gain here is bounded by what the simulator leaves. ` +
        `On a machine of C cores against a remote target, \`--workers auto\` (C − 1 workers) predicts about (C − 1) × ${Math.round(1000 / (two ?? one))} requests/s of CPU budget.`,
    );
  }
  return lines.join(' ');
}

function renderMd(o: {
  machine: string;
  cpu: CpuRow[];
  ramps: Record<number, { steps: RampStep[]; sustained: number | null }>;
  streams: StreamRow[];
  cores: number;
}): string {
  return [
    `# bench:workers — load --workers 1 and 2${QUICK ? ' (--quick)' : ''}`,
    '',
    `Machine: ${o.machine}. Simulator in its own process; CPU is the whole generator process's (every thread).`,
    '',
    `## CPU per request (full, ${CPU.rate}/s, ${CPU.durationS} s, median of ${CPU.rounds})`,
    '',
    '| workers | requests | achieved | CPU ms / request |',
    '|---:|---:|---:|---:|',
    ...o.cpu.map(
      (c) => `| ${c.workers} | ${c.requests} | ${c.achieved_rate.toFixed(1)}/s | ${fmt(c.cpu_ms_per_request, 3)} |`,
    ),
    '',
    `## Highest sustained open-loop rate (full; late-send p99 < ${RAMP.maxLagMs} ms after ${RAMP.settleMs} ms, nothing dropped, ≥ 95% sent; ${RAMP.stepS} s steps)`,
    '',
    ...WORKERS.map((w) => `- ${w} worker${w === 1 ? '' : 's'}: **${o.ramps[w]?.sustained ?? 'none'}/s**`),
    '',
    '| workers | rate | sent | dropped | late p99 (steady) | verdict |',
    '|---:|---:|---:|---:|---:|:---|',
    ...WORKERS.flatMap((w) =>
      (o.ramps[w]?.steps ?? []).map(
        (s) =>
          `| ${w} | ${s.rate}/s | ${s.sent} | ${s.dropped} | ${fmt(s.steady_lag_p99_ms)} ms | ${s.ok ? 'kept up' : 'fell behind'} |`,
      ),
    ),
    '',
    perCore(o.cpu, o.ramps, o.cores),
    '',
    `## Streams in flight (open model, streamed answers of ~${STREAMS.answerS} s at time_scale 1, ${STREAMS.sendS} s of arrivals)`,
    '',
    ...streamTable(o.streams),
    '',
    ...WORKERS.map(
      (w) =>
        `Event-loop delay p99 passes ${LOOP_LIMIT_MS} ms with ${w} worker${w === 1 ? '' : 's'}: ${passesAt(o.streams, w)}.`,
    ),
    '',
  ].join('\n');
}

const gcCell = (g: GcPauses | null) =>
  g === null ? '–' : `${g.scavenges} / ${g.full}, ${g.over_5_ms} / ${g.over_10_ms}, ${fmt(g.longest_ms, 1)} ms`;

function streamTable(rows: readonly StreamRow[]): string[] {
  const pct = (v: number | null) => (v === null ? '–' : `${Math.round(v * 100)}%`);
  return [
    '| workers | streams | rate | peak in flight | sent | dropped | late-send p99 | TTFP p99 | TTFP error p50 / p99 | peak RSS | loop delay p99 / max | simulator CPU | generator CPU | CPU µs per part (generator / simulator) | collector pauses: scavenges / full, over 5 / 10 ms, longest | saturates | load average |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.workers} | ${r.streams} | ${r.rate}/s | ${r.peak_in_flight} | ${r.sent} | ${r.dropped} | ${fmt(r.late_p99_ms)} ms | ${fmt(r.ttfp_p99_ms, 0)} ms | ${fmt(r.ttfp_error_p50_ms, 1)} / ${fmt(r.ttfp_error_p99_ms, 1)} ms | ${r.peak_rss_mb} MB | ${fmt(r.loop_delay_p99_ms)} / ${fmt(r.loop_delay_max_ms, 1)} ms | ${pct(r.sim_cpu)} | ${pct(r.generator_cpu)} | ${fmt(r.generator_us_per_part, 1)} / ${fmt(r.sim_us_per_part, 1)} | ${gcCell(r.gc_pauses)} | ${r.saturates} | ${r.load_1m.toFixed(2)} |`,
    ),
  ];
}

/** Least-squares slope and intercept of y on x; null under two points. */
function fit(points: ReadonlyArray<readonly [number, number]>): { slope: number; intercept: number } | null {
  if (points.length < 2) return null;
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const slope = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx;
  return { slope, intercept: my - slope * mx };
}

/** The slopes per 1,000 streams (RSS, simulator CPU, late p99) and where the simulator's core runs out. */
function slopes(rows: readonly StreamRow[], workers: number): string[] {
  const mine = rows.filter((r) => r.workers === workers);
  const rss = fit(mine.map((r) => [r.streams, r.peak_rss_mb]));
  const sim = fit(mine.filter((r) => r.sim_cpu !== null).map((r) => [r.streams, r.sim_cpu!]));
  const late = fit(mine.filter((r) => r.late_p99_ms !== null).map((r) => [r.streams, r.late_p99_ms!]));
  const loop = fit(mine.filter((r) => r.loop_delay_p99_ms !== null).map((r) => [r.streams, r.loop_delay_p99_ms!]));
  const k = (v: number) => (v * 1000).toFixed(2);
  const last = mine[mine.length - 1];
  const lines = [
    `Slopes with ${workers} worker${workers === 1 ? '' : 's'} (least squares over ${mine.length} rows, per 1,000 streams):`,
  ];
  if (rss)
    lines.push(
      `- peak RSS +${k(rss.slope)} MB (${Math.round(rss.intercept + rss.slope * 5000)} MB predicted at 5,000 streams);`,
    );
  if (sim) {
    const full = sim.slope > 0 ? Math.round((1 - sim.intercept) / sim.slope) : null;
    lines.push(
      `- simulator CPU +${(sim.slope * 100_000).toFixed(1)}% of a core${full !== null ? ` (its one core full at about ${full.toLocaleString('en-US')} streams)` : ''};`,
    );
  }
  if (late) lines.push(`- late-send p99 ${late.slope >= 0 ? '+' : ''}${k(late.slope)} ms;`);
  if (loop) {
    const at = loop.slope > 0 ? Math.round((LOOP_LIMIT_MS - loop.intercept) / loop.slope) : null;
    lines.push(
      `- generator loop delay p99 ${loop.slope >= 0 ? '+' : ''}${k(loop.slope)} ms${at !== null && at > 0 ? ` (${LOOP_LIMIT_MS} ms at about ${at.toLocaleString('en-US')} streams)` : ''}.`,
    );
  }
  if (last && last.generator_us_per_part !== null && last.sim_us_per_part !== null) {
    // Parts per second at N streams: N answers of the measured parts each over answerS seconds.
    const perAnswer = last.sent > 0 ? last.parts / last.sent : ANSWER_TOKENS;
    const partsPerS = (n: number) => (n * perAnswer) / STREAMS.answerS;
    const need = (us: number, n: number) => `${Math.round((us * partsPerS(n)) / 10_000)}%`;
    lines.push(
      `At the CPU per part of the largest row (${last.generator_us_per_part} µs generator, ${last.sim_us_per_part} µs simulator), 5,000 streams (${Math.round(partsPerS(5000)).toLocaleString('en-US')} parts/s) need ${need(last.generator_us_per_part, 5000)} of a core for the generator and ${need(last.sim_us_per_part, 5000)} for the simulator on a quiet machine; one core each runs out at about ${Math.round(1e6 / last.generator_us_per_part / partsPerS(1)).toLocaleString('en-US')} and ${Math.round(1e6 / last.sim_us_per_part / partsPerS(1)).toLocaleString('en-US')} streams.`,
    );
  }
  return lines;
}

/**
 * The simulator of the stream table: every answer exactly ANSWER_TOKENS tokens (`answer_tokens`), so
 * that a stream lasts answerS and a row of N streams holds N in flight. Without it the sample's answers
 * ran ~63 tokens: the "5,000" row held 3,930 streams (until session 57).
 */
const startStreamSim = (tokenMs: number) =>
  startSimProcess({
    chat: {
      time_scale: 1,
      profiles: {
        default: {
          pre_answer_ms: fixed(50),
          first_token_ms: fixed(100),
          token_ms: fixed(tokenMs),
          answer_tokens: ANSWER_TOKENS,
        },
      },
    },
  });

/** `--streams-only`: the stream-count table alone, into streams.json and streams.md. */
async function streamsOnly(): Promise<void> {
  const tokenMs = Math.round((STREAMS.answerS * 1000) / ANSWER_TOKENS);
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
  const slow = await startStreamSim(tokenMs);
  try {
    const stream = await prepareLoad({
      operation: 'chat',
      mode: 'stream',
      datasetPath: 'datasets/sample.csv',
      setFlags: [],
      cwd: ROOT,
    });
    const streams: StreamRow[] = [];
    // Without the viewer's bundle a run's reports leave viewer.html out: ~5 s less CPU outside the run
    // at 5,000 streams, which a checkout built by build-cli.mjs alone showed as a difference between
    // builds (docs/benchmarks-log.md, "Session 53").
    if (!existsSync(join(ROOT, 'dist', 'viewer', 'viewer.js')))
      console.log('bench:workers: dist/viewer is absent (npm run build:viewer): the reports leave viewer.html out');
    for (const [i, count] of STREAMS.counts.entries()) {
      for (const w of WORKERS) {
        if (i > 0 && timeLeft() < (STREAMS.answerS + STREAMS.sendS) * 1000 + 5000) break;
        const row = await streamRow(slow, stream, w, count);
        console.log(
          `${w} worker(s), ${count} streams: late p99 ${fmt(row.late_p99_ms)} ms, TTFP error p99 ${fmt(row.ttfp_error_p99_ms, 1)} ms, RSS ${row.peak_rss_mb} MB, sim CPU ${row.sim_cpu}, generator CPU ${row.generator_cpu} (${row.generator_us_per_part} µs a part; ${row.generator_cpu_outside_run_s} s outside the run), collector ${gcCell(row.gc_pauses)}, loop p99 ${fmt(row.loop_delay_p99_ms)} ms (load ${loadavg()[0]?.toFixed(2)})`,
        );
        streams.push(row);
      }
    }
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadBefore} before, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} after`;
    const out = join(ROOT, 'reports', 'bench');
    mkdirSync(out, { recursive: true });
    const json = {
      generated_at: new Date().toISOString(),
      machine,
      stream_settings: { ...STREAMS, token_ms: tokenMs },
      streams,
      duration_s: (performance.now() - started) / 1000,
    };
    writeFileSync(join(out, 'streams.json'), `${JSON.stringify(json, null, 2)}\n`);
    const md = [
      '# bench:workers --streams-only — concurrent streams on one generator',
      '',
      `Machine: ${machine}. Simulator in its own process (one Node process: at most one core); answers of ~${STREAMS.answerS} s (${ANSWER_TOKENS} tokens, ${tokenMs} ms apart) at time_scale 1, ${STREAMS.sendS} s of open-model arrivals per row at streams / ${STREAMS.answerS} s. CPU: each process's, every thread, from the first send to the last byte (the generator's reports after it are not counted), as a share of one core and per part received.`,
      "TTFP error: TTFP minus the row's smallest TTFP (the profile is fixed). Saturates: the simulator when its CPU reaches 90% of a core; the generator when its event-loop delay p99 passes 5 ms.",
      '',
      ...streamTable(streams),
      '',
      ...WORKERS.flatMap((w) => [...slopes(streams, w), '']),
    ].join('\n');
    writeFileSync(join(out, 'streams.md'), md);
    process.stdout.write(
      `${md}\nwritten: reports/bench/streams.json, reports/bench/streams.md (${json.duration_s.toFixed(0)} s)\n`,
    );
  } finally {
    await slow.close();
  }
}

async function main(): Promise<void> {
  const tokenMs = Math.round((STREAMS.answerS * 1000) / ANSWER_TOKENS);
  const fast = await startSimProcess({ chat: { time_scale: 1e-6 } });
  const slow = await startStreamSim(tokenMs);
  try {
    const prepare = (mode: Mode) =>
      prepareLoad({ operation: 'chat', mode, datasetPath: 'datasets/sample.csv', setFlags: [], cwd: ROOT });
    const full = await prepare('full');
    const stream = await prepare('stream');
    // Warm the JIT, the simulator and dist/ on disk, so the first measured run is not the cold one.
    await run(fast, full, spec('full', 100, QUICK ? 0.5 : 2), 2);
    const cpu: CpuRow[] = [];
    for (const w of WORKERS) cpu.push(await cpuPerRequest(fast, full, w));
    const ramps: Record<number, { steps: RampStep[]; sustained: number | null }> = {};
    for (const w of WORKERS) ramps[w] = await sustained(fast, full, w);
    const streams: StreamRow[] = [];
    for (const [i, count] of STREAMS.counts.entries()) {
      for (const w of WORKERS) {
        if (i > 0 && timeLeft() < (STREAMS.answerS + STREAMS.sendS) * 1000 + 5000) break;
        streams.push(await streamRow(slow, stream, w, count));
      }
    }
    const cores = cpus().length;
    const machine = `${cores} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end`;
    const out = join(ROOT, 'reports', 'bench');
    mkdirSync(out, { recursive: true });
    const json = {
      generated_at: new Date().toISOString(),
      quick: QUICK,
      machine,
      cpu_settings: CPU,
      ramp_settings: RAMP,
      stream_settings: { ...STREAMS, token_ms: tokenMs },
      cpu,
      ramps,
      streams,
      loop_delay_passes_5ms: Object.fromEntries(WORKERS.map((w) => [w, passesAt(streams, w)])),
      duration_s: (performance.now() - started) / 1000,
    };
    writeFileSync(join(out, 'workers.json'), `${JSON.stringify(json, null, 2)}\n`);
    const md = renderMd({ machine, cpu, ramps, streams, cores });
    writeFileSync(join(out, 'workers.md'), md);
    process.stdout.write(
      `${md}\nwritten: reports/bench/workers.json, reports/bench/workers.md (${json.duration_s.toFixed(0)} s)\n`,
    );
  } finally {
    await Promise.all([fast.close(), slow.close()]);
  }
}

await (STREAMS_ONLY ? streamsOnly() : main());

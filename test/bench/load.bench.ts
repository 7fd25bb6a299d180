/**
 * `npm run bench:load` (issue 5 §6): what the load generator itself costs.
 * (a) CPU milliseconds per request of this process at a fixed rate and connection count, for full
 *     and for streamed requests, side by side in the same run with autocannon sending the same
 *     full request at the same rate and connections (when autocannon is installed; it is an
 *     optional dev dependency here). Target: ≤ 1.5× autocannon's CPU per request for full requests,
 *     while we also decode, time, score and record every request.
 * (b) The highest rate one generator process sustains with schedule lag p99 < 5 ms and nothing
 *     dropped, for full and for streamed requests: ×2 steps, then one bisection.
 * The simulator runs in its own process (test/bench/load/sim-process.ts). Bounded: every step has
 * a fixed duration and the step lists are fixed (about 2 minutes in all, always under 4).
 * Writes reports/bench/load.json and reports/bench/load.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prepareLoad, runLoad, LoadSpecSchema, type LoadSpec, type PreparedLoad } from '../../src/app/run-load.js';
import { percentile } from '../../src/metrics/stats.js';
import { createLoadPlan } from '../../src/plan/load-plan.js';
import type { Mode } from '../../src/records/record.js';
import { startSimProcess, type SimProcess } from './load/sim-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = 'onyx_pat_chatbench_demo';
const FIXED = { rate: 200, connections: 16, durationS: 8 } as const;
const RAMP = { rates: [50, 100, 200, 400, 800, 1600, 3200], stepS: 3, settleMs: 500, maxLagMs: 5 } as const;
const DEADLINE_MS = 230_000;

interface CpuFigures {
  tool: string;
  mode: Mode;
  requests: number;
  cpu_ms: number;
  cpu_ms_per_request: number | null;
  achieved_rate: number;
}

interface RampStep {
  mode: Mode;
  rate: number;
  sent: number;
  dropped: number;
  /** Over every send (generator.json). */
  lag_p99_ms: number | null;
  /** Over the sends after the first RAMP.settleMs (connections opened, code warm): what decides. */
  steady_lag_p99_ms: number | null;
  ok: boolean;
}

const started = performance.now();
const timeLeft = () => DEADLINE_MS - (performance.now() - started);

function spec(mode: Mode, rate: number, durationS: number, connections: number | null): LoadSpec {
  return LoadSpecSchema.parse({
    operation: 'chat', mode, model: 'open', rate, arrival: 'constant', max_in_flight: 1000, connections, stages: null,
    duration_ms: durationS * 1000, requests: null, warmup_ms: 0, cooldown_ms: 0, seed: 1, question_order: 'sequential',
    set: 'default', tokens: 1, token_weights: null, shard: null, start_at: null,
  });
}

async function generatorRun(sim: SimProcess, prepared: PreparedLoad, s: LoadSpec) {
  const result = await runLoad({
    spec: s, baseUrl: sim.baseUrl, tokens: [TOKEN], prepared, target: 'service', cwd: ROOT, outDir: join(mkdtempSync(join(tmpdir(), 'chatbench-bench-')), 'run'),
    signal: new AbortController().signal, graceMs: 5000, timeoutMs: 30_000, retries: 0, retry429: false, version: 'bench', cpuUsage: () => process.cpuUsage(),
  });
  return { generator: result.generator, outDir: result.outDir };
}

/** p99 of queue_ms (send − scheduled) over the arrivals scheduled after `fromMs`. */
function steadyLagP99(outDir: string, fromMs: number): number | null {
  const lags = readFileSync(join(outDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map((line) => JSON.parse(line) as { scheduled_offset_ms: number | null; queue_ms: number | null })
    .filter((r) => (r.scheduled_offset_ms ?? 0) >= fromMs && r.queue_ms !== null)
    .map((r) => r.queue_ms!)
    .sort((a, b) => a - b);
  return percentile(lags, 0.99) ?? null;
}

async function cpuOfGenerator(sim: SimProcess, prepared: Record<Mode, PreparedLoad>, mode: Mode): Promise<CpuFigures> {
  const { generator: g } = await generatorRun(sim, prepared[mode], spec(mode, FIXED.rate, FIXED.durationS, FIXED.connections));
  const cpu = (g.cpu_user_ms ?? 0) + (g.cpu_system_ms ?? 0);
  return { tool: 'chatbench', mode, requests: g.sent, cpu_ms: cpu, cpu_ms_per_request: g.sent > 0 ? cpu / g.sent : null, achieved_rate: g.sent / FIXED.durationS };
}

type Autocannon = (options: Record<string, unknown>) => Promise<{ requests: { total: number } }>;

/** autocannon when installed; undefined otherwise (the report says so). */
async function loadAutocannon(): Promise<Autocannon | undefined> {
  const name = 'autocannon';
  try {
    const mod = (await import(name)) as { default: Autocannon };
    return mod.default;
  } catch {
    return undefined;
  }
}

async function cpuOfAutocannon(autocannon: Autocannon, sim: SimProcess, prepared: PreparedLoad): Promise<CpuFigures> {
  const source = prepared.source;
  if (source.operation !== 'chat') throw new Error('the benchmark sends chat requests');
  // The very body the generator sends for its first arrival.
  const plan = createLoadPlan({ operation: 'chat', rows: source.rows, set: source.set, defaults: source.defaults, mode: 'full', order: 'sequential', seed: 1 });
  const body = JSON.stringify(plan.requestFor(0).planned.body);
  const before = process.cpuUsage();
  const result = await autocannon({
    url: `${sim.baseUrl}/chat/send-chat-message`, method: 'POST', body, connections: FIXED.connections, overallRate: FIXED.rate, duration: FIXED.durationS,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
  });
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / 1000;
  const requests = result.requests.total;
  return { tool: 'autocannon', mode: 'full', requests, cpu_ms: cpu, cpu_ms_per_request: requests > 0 ? cpu / requests : null, achieved_rate: requests / FIXED.durationS };
}

/** ×2 steps until one fails, then one bisection between the last good and the first bad rate. */
async function ramp(sim: SimProcess, prepared: PreparedLoad, mode: Mode): Promise<{ steps: RampStep[]; sustained: number | null }> {
  const steps: RampStep[] = [];
  const step = async (rate: number) => {
    const { generator: g, outDir } = await generatorRun(sim, prepared, spec(mode, rate, RAMP.stepS, null));
    const steady = steadyLagP99(outDir, RAMP.settleMs);
    const ok = steady !== null && steady < RAMP.maxLagMs && g.dropped.length === 0 && g.sent >= 0.98 * rate * RAMP.stepS;
    steps.push({ mode, rate, sent: g.sent, dropped: g.dropped.length, lag_p99_ms: g.schedule_lag_ms.p99, steady_lag_p99_ms: steady, ok });
    return ok;
  };
  let good: number | null = null;
  let bad: number | null = null;
  for (const rate of RAMP.rates) {
    if (timeLeft() < 30_000) break;
    if (await step(rate)) good = rate;
    else {
      bad = rate;
      break;
    }
  }
  // One bisection between the last good rate (0 when even the first failed) and the first bad one.
  if (bad !== null && timeLeft() > 30_000) {
    const middle = Math.round(((good ?? 0) + bad) / 2);
    if (await step(middle)) good = middle;
  }
  return { steps, sustained: good };
}

const fmt = (v: number | null, digits = 3) => (v === null ? '–' : v.toFixed(digits));

function renderMd(o: { cpu: CpuFigures[]; ratio: number | null; ramps: Record<Mode, { steps: RampStep[]; sustained: number | null }>; machine: string; autocannon: boolean }): string {
  const cpuRows = o.cpu.map((c) => `| ${c.tool} | ${c.mode} | ${c.requests} | ${c.achieved_rate.toFixed(1)}/s | ${c.cpu_ms.toFixed(0)} | ${fmt(c.cpu_ms_per_request)} |`);
  const rampRows = (['full', 'stream'] as const).flatMap((m) =>
    o.ramps[m].steps.map((s) => `| ${s.mode} | ${s.rate}/s | ${s.sent} | ${s.dropped} | ${fmt(s.lag_p99_ms, 2)} | ${fmt(s.steady_lag_p99_ms, 2)} | ${s.ok ? 'kept up' : 'fell behind'} |`),
  );
  return [
    '# bench:load — the load generator\'s own cost',
    '',
    `Machine: ${o.machine}. Simulator in a separate process; generator CPU is this process's (process.cpuUsage) over the run.`,
    '',
    `## CPU per request at ${FIXED.rate}/s, ${FIXED.connections} connections, ${FIXED.durationS} s`,
    '',
    '| tool | mode | requests | achieved | CPU ms | CPU ms / request |',
    '|:---|:---|---:|---:|---:|---:|',
    ...cpuRows,
    '',
    o.autocannon
      ? `Full requests: chatbench uses ${fmt(o.ratio, 2)}× autocannon's CPU per request (target ≤ 1.5×) while it also decodes, times, scores and records every request.`
      : 'autocannon is not installed (an optional dev dependency): the side-by-side column is missing. `npm install -D autocannon` and run again.',
    '',
    `## Highest rate one generator sustains (schedule lag p99 < ${RAMP.maxLagMs} ms, nothing dropped)`,
    '',
    `Full: **${o.ramps.full.sustained ?? 'none'}/s** · streamed: **${o.ramps.stream.sustained ?? 'none'}/s** (${RAMP.stepS} s steps from ${RAMP.rates[0]}/s, ×2 then one bisection; judged on the lag after the first ${RAMP.settleMs} ms, when the connections are open and the code is warm; the whole-run lag is shown beside it).`,
    '',
    '| mode | rate | sent | dropped | lag p99, whole run (ms) | lag p99, steady (ms) | verdict |',
    '|:---|---:|---:|---:|---:|---:|:---|',
    ...rampRows,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const sim = await startSimProcess({ chat: { time_scale: 1e-6 } });
  try {
    const prepare = (mode: Mode) => prepareLoad({ operation: 'chat', mode, datasetPath: 'datasets/sample.csv', setFlags: [], cwd: ROOT });
    const prepared: Record<Mode, PreparedLoad> = { full: await prepare('full'), stream: await prepare('stream') };
    const autocannon = await loadAutocannon();
    const cpu: CpuFigures[] = [];
    // Warm the JIT and the simulator's caches so the first measured run is not the cold one.
    await generatorRun(sim, prepared.full, spec('full', 100, 2, FIXED.connections));
    cpu.push(await cpuOfGenerator(sim, prepared, 'full'));
    if (autocannon) cpu.push(await cpuOfAutocannon(autocannon, sim, prepared.full));
    cpu.push(await cpuOfGenerator(sim, prepared, 'stream'));
    const ours = cpu.find((c) => c.tool === 'chatbench' && c.mode === 'full')?.cpu_ms_per_request ?? null;
    const theirs = cpu.find((c) => c.tool === 'autocannon')?.cpu_ms_per_request ?? null;
    const ratio = ours !== null && theirs !== null && theirs > 0 ? ours / theirs : null;
    const ramps = { full: await ramp(sim, prepared.full, 'full'), stream: await ramp(sim, prepared.stream, 'stream') };
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end`;
    const out = join(ROOT, 'reports', 'bench');
    mkdirSync(out, { recursive: true });
    const json = { generated_at: new Date().toISOString(), machine, fixed: FIXED, cpu, cpu_ratio_full_vs_autocannon: ratio, target_ratio: 1.5, ramps, duration_s: (performance.now() - started) / 1000 };
    writeFileSync(join(out, 'load.json'), `${JSON.stringify(json, null, 2)}\n`);
    writeFileSync(join(out, 'load.md'), renderMd({ cpu, ratio, ramps, machine, autocannon: autocannon !== undefined }));
    process.stdout.write(`${renderMd({ cpu, ratio, ramps, machine, autocannon: autocannon !== undefined })}\nwritten: reports/bench/load.json, reports/bench/load.md (${json.duration_s.toFixed(0)} s)\n`);
  } finally {
    await sim.close();
  }
}

await main();

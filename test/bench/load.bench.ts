/**
 * `npm run bench:load` (issue 5 §6, issue 17 §1): what the load generator itself costs, against the floor.
 * (a) CPU milliseconds per request, side by side in one run, each tool in its own process sending the
 *     same bodies at the same open-loop rate over the same connection count to the same simulator
 *     (in its own process too): the floor (test/bench/floor: an undici Pool that splits the stream
 *     into lines, JSON-parses each and keeps TTFP, TTFT, stop and cited document ids), chatbench's
 *     load use-case (decodes, times, scores and writes every record), and autocannon as context
 *     (full only: it reads bytes, it parses nothing). Full and streamed at 200/s and 1,000/s against
 *     a simulator with delays scaled to ~0, and streamed at real token pace (time_scale 1, a
 *     one-sentence answer). Repeated rounds (order alternating), medians, and the paired ratio
 *     chatbench ÷ floor per round. Target: ≤ 1.3× at 200/s and 1,000/s, and the asked rate achieved.
 * (b) The highest rate one generator process sustains, for full and streamed requests: ×2 steps
 *     then one bisection; each step long enough for ≥ 1,000 sends (judge.ts), judged on the lag p99
 *     of the sends after the first STEADY_MS and explained by the generator's own event-loop delay.
 * (c) Against the service's own load kit (Locust, onyx-dot-app/onyx `loadtest/`, never copied here: load/kit.ts),
 *     streamed at realistic pace, 20 users: CPU per streamed request over the steady 30 s of 40 s runs, paired
 *     per round (target < 1.0× the kit), and chatbench's event-loop delay over each run, first second included.
 *     Skipped, saying why, without Locust or CHATBENCH_ONYX_REPO.
 * (d) Timing against a truth server (load/truth.ts): chatbench's and the kit's TTFP/TTFT error against the server's own
 *     log of its writes, at 4 and 20 users (target: median ≤ 1.5 ms, p95 no worse than the kit's). Skipped as (c) is.
 * Flags: --quick (1 round, 1.5 s runs, no autocannon, no rate search, a 14 s kit round: about 1.5 minutes), --skip-cpu,
 * --skip-ramp, --skip-kit, --kit-only, --only TEXT (only the CPU scenarios whose name contains TEXT), --rounds N (the CPU
 * section's rounds, default 3),
 * --kit-rounds N (default: the rounds of the rest), --kit-together (each kit round runs both tools at once),
 * --skip-truth, --truth-only (only (d)), --floor-record (adds to (a) the tool `floor+record`: the floor writing each request's
 * record as one JSON line, its answer included, so the cost of writing a record at all is measured beside the rest),
 * --cpu-prof DIR (each chatbench and baseline run of (a) writes a V8 CPU profile,
 * 250 µs samples, to DIR/<tool>-<scenario>-r<round>/ (chatbench-full-1-000-s-r1); read one with load/profile-summary.ts; the profiler's own CPU is in
 * those runs' figures, so take ratios from a run without it). CHATBENCH_BENCH_BASELINE=DIR (a checkout of an earlier chatbench, with its
 * node_modules and its dist/ built) adds that version's load use-case to (a) as the tool `baseline`, in the same rounds, so a change is
 * measured before and after in one run (paired ratios chatbench ÷ baseline).
 * Bounded: fixed lists of runs and a deadline. Writes reports/bench/load.json and load.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Mode } from '../../src/records/record.js';
import { judgeStep, median, stepMs, type Verdict } from './load/judge.js';
import { KIT_TIMING, KIT_TIMING_QUICK, kitSection, renderKitMd, type KitFigures } from './load/kit.js';
import { planBodies } from './load/plan-bodies.js';
import { startSimProcess, type SimProcess } from './load/sim-process.js';
import { renderTruthMd, truthSection, TRUTH_TIMING, TRUTH_TIMING_QUICK, type TruthFigures } from './load/truth.js';
import type { ToolJob, ToolResult } from './load/tool-child.js';
import { toolChildArgs, toolJobFiles } from './load/tool-args.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = 'onyx_pat_chatbench_demo';
const QUICK = process.argv.includes('--quick');
const TRUTH_ONLY = process.argv.includes('--truth-only');
const KIT_ONLY = process.argv.includes('--kit-only') || TRUTH_ONLY;
const SKIP_CPU = process.argv.includes('--skip-cpu') || KIT_ONLY;
const SKIP_RAMP = QUICK || KIT_ONLY || process.argv.includes('--skip-ramp');
const SKIP_KIT = process.argv.includes('--skip-kit') || TRUTH_ONLY;
const SKIP_TRUTH = process.argv.includes('--skip-truth');
/** Both tools at once in each kit round (a machine shared with other work: the same contention for both). */
const KIT_TOGETHER = process.argv.includes('--kit-together');
/** `--floor-record`: the floor that also writes a record per request, as a fourth tool of the CPU section. */
const FLOOR_RECORD = process.argv.includes('--floor-record');
/** `--only TEXT`: the CPU scenarios whose name contains TEXT (e.g. `--only "real token"`). */
const ONLY = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '') : '';
/** `--rounds N`: rounds of the CPU section (default 3; 1 with --quick). On a machine whose runs move by ±15%, 5 steadies the medians. */
const ROUNDS = process.argv.includes('--rounds')
  ? Math.max(1, Math.floor(Number(process.argv[process.argv.indexOf('--rounds') + 1])) || 3)
  : QUICK
    ? 1
    : 3;
/** `--cpu-prof DIR`: profile chatbench's and the baseline's runs of the CPU section (see the header). */
const CPU_PROF = process.argv.includes('--cpu-prof')
  ? resolve(process.argv[process.argv.indexOf('--cpu-prof') + 1] ?? 'cpu-prof')
  : null;
const KIT_ROUNDS = process.argv.includes('--kit-rounds')
  ? Number(process.argv[process.argv.indexOf('--kit-rounds') + 1])
  : ROUNDS;
/**
 * `--seconds N`: each run of the CPU section (default 4; 1.5 with --quick). A run's CPU includes the
 * JIT compiling the tool's code on V8's helper threads, the more so the shorter the run.
 */
const RUN_MS = process.argv.includes('--seconds')
  ? Math.max(1, Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 4) * 1000
  : QUICK
    ? 1_500
    : 4_000;
const STEADY_MS = 500;
const RAMP_RATES = [100, 200, 400, 800, 1600, 3200] as const;
const DEADLINE_MS = QUICK ? 90_000 : 900_000;
/** The kit's section starts no round after this long (a round of two 40 s runs takes about 90 s). */
const KIT_BUDGET_MS = 600_000;

type SimKind = 'fast' | 'real';
const SIM_CONFIGS: Record<SimKind, Record<string, unknown>> = {
  fast: { chat: { time_scale: 1e-6 } },
  // Real token pace (gpt-4o's ~22 ms a token) with one sentence, so a round stays short: ~0.6 s a stream.
  real: {
    chat: {
      time_scale: 1,
      profiles: {
        default: {
          answer_sentences: 1,
          pre_answer_ms: { median: 40, p99: 120 },
          first_token_ms: { median: 150, p99: 400 },
        },
      },
    },
  },
};
/** The simulator's own realistic pace (its default profiles), for the comparison with the service's kit. */
const KIT_SIM_CONFIG = { chat: { time_scale: 1 } };

interface Scenario {
  readonly name: string;
  readonly sim: SimKind;
  readonly mode: Mode;
  readonly rate: number;
  readonly connections: number;
}
const SCENARIOS: readonly Scenario[] = [
  { name: 'full 200/s', sim: 'fast', mode: 'full', rate: 200, connections: 16 },
  { name: 'streamed 200/s, fast', sim: 'fast', mode: 'stream', rate: 200, connections: 16 },
  { name: 'full 1,000/s', sim: 'fast', mode: 'full', rate: 1000, connections: 16 },
  { name: 'streamed 1,000/s, fast', sim: 'fast', mode: 'stream', rate: 1000, connections: 16 },
  // ~130 streams in flight: as many connections as that, so no send waits for a socket.
  { name: 'streamed 200/s, real token pace', sim: 'real', mode: 'stream', rate: 200, connections: 256 },
];

const started = performance.now();
const timeLeft = () => DEADLINE_MS - (performance.now() - started);

function hasAutocannon(): boolean {
  try {
    createRequire(import.meta.url).resolve('autocannon');
    return true;
  } catch {
    return false;
  }
}

/** An earlier chatbench measured beside this one (see the header), or null. */
const BASELINE = process.env.CHATBENCH_BENCH_BASELINE || null;
type CpuTool = ToolJob['tool'] | 'baseline';

/**
 * Runs one tool in its own process (this checkout's load/tool-child.ts; chatbench from the compiled
 * dist/ of `root`: this checkout, or the baseline's) and reads its result.
 */
async function runTool(job: ToolJob, root: string = ROOT, profileAs: string | null = null): Promise<ToolResult> {
  const files = toolJobFiles(job, 'chatbench-tool-');
  // chatbench's use-case starts as the CLI does (load/tool-args.ts), the baseline's with its own
  // checkout's cap (cli-start.mjs reads CHATBENCH_TOOL_ROOT).
  const profile =
    CPU_PROF === null || profileAs === null
      ? []
      : ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', join(CPU_PROF, profileAs)];
  const child = spawn(process.execPath, toolChildArgs(job, files, { flags: profile }), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CHATBENCH_TOOL_ROOT: root },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  if (code !== 0 || !existsSync(files.result))
    throw new Error(`${job.tool} (${job.mode} ${job.rate}/s) exited ${code}:\n${stderr.slice(-2000)}`);
  return JSON.parse(readFileSync(files.result, 'utf8')) as ToolResult;
}

interface Measured extends Omit<ToolResult, 'tool'> {
  readonly tool: CpuTool;
  readonly round: number;
  readonly cpu_ms_per_request: number | null;
}

interface ScenarioFigures {
  scenario: Scenario;
  runs: Measured[];
  /** Per tool: medians over the rounds. */
  medians: { tool: string; cpu_ms_per_request: number | null; achieved_rate: number | null; ok_share: number | null }[];
  /** chatbench ÷ floor CPU per request, per round, and their median. */
  ratios: number[];
  ratio: number | null;
  /** With --floor-record: floor+record ÷ floor and chatbench ÷ floor+record, per round, and their medians. */
  recorded_ratios: number[];
  recorded_ratio: number | null;
  over_recorded_ratios: number[];
  over_recorded_ratio: number | null;
  /** With a baseline: baseline ÷ floor and chatbench ÷ baseline, per round, and their medians. */
  baseline_ratios: number[];
  baseline_ratio: number | null;
  change_ratios: number[];
  change_ratio: number | null;
}

async function cpuSection(
  sims: Record<SimKind, SimProcess>,
  bodies: Record<Mode, string[]>,
  autocannon: boolean,
): Promise<ScenarioFigures[]> {
  const out: ScenarioFigures[] = [];
  for (const scenario of SCENARIOS.filter((s) => s.name.includes(ONLY))) {
    const runs: Measured[] = [];
    const ratios: number[] = [];
    const baselineRatios: number[] = [];
    const changeRatios: number[] = [];
    const recordedRatios: number[] = [];
    const overRecordedRatios: number[] = [];
    for (let round = 1; round <= ROUNDS && timeLeft() > 15_000; round++) {
      const job = (tool: ToolJob['tool']): ToolJob => ({
        tool,
        baseUrl: sims[scenario.sim].baseUrl,
        token: TOKEN,
        mode: scenario.mode,
        rate: scenario.rate,
        durationMs: RUN_MS,
        connections: scenario.connections,
        bodies: bodies[scenario.mode],
        settleMs: STEADY_MS,
      });
      // Alternate the order so neither tool always runs on the machine the other just warmed.
      const tools: CpuTool[] = [
        'floor',
        ...(FLOOR_RECORD ? (['floor+record'] as const) : []),
        'chatbench',
        ...(BASELINE === null ? [] : (['baseline'] as const)),
      ];
      const order: CpuTool[] = round % 2 === 1 ? tools : [...tools].reverse();
      if (autocannon && scenario.mode === 'full' && !QUICK) order.push('autocannon');
      const byTool = new Map<string, Measured>();
      for (const tool of order) {
        // `chatbench-full-1-000-s-r1`: one folder per run (a scenario's name holds a slash).
        const profileAs =
          tool === 'autocannon' ? null : `${tool} ${scenario.name} r${round}`.replaceAll(/[^\w.]+/g, '-');
        const r =
          tool === 'baseline'
            ? await runTool(job('chatbench'), BASELINE!, profileAs)
            : await runTool(job(tool), ROOT, profileAs);
        const m: Measured = { ...r, tool, round, cpu_ms_per_request: r.sent > 0 ? r.cpu_ms / r.sent : null };
        byTool.set(tool, m);
        runs.push(m);
      }
      const ours = byTool.get('chatbench')?.cpu_ms_per_request;
      const floor = byTool.get('floor')?.cpu_ms_per_request;
      const before = byTool.get('baseline')?.cpu_ms_per_request;
      const recorded = byTool.get('floor+record')?.cpu_ms_per_request;
      if (recorded != null && floor != null && floor > 0) recordedRatios.push(recorded / floor);
      if (ours != null && recorded != null && recorded > 0) overRecordedRatios.push(ours / recorded);
      if (ours != null && floor != null && floor > 0) ratios.push(ours / floor);
      if (before != null && floor != null && floor > 0) baselineRatios.push(before / floor);
      if (ours != null && before != null && before > 0) changeRatios.push(ours / before);
    }
    const tools = [...new Set(runs.map((r) => r.tool))];
    out.push({
      scenario,
      runs,
      ratios,
      ratio: median(ratios),
      baseline_ratios: baselineRatios,
      baseline_ratio: median(baselineRatios),
      change_ratios: changeRatios,
      change_ratio: median(changeRatios),
      recorded_ratios: recordedRatios,
      recorded_ratio: median(recordedRatios),
      over_recorded_ratios: overRecordedRatios,
      over_recorded_ratio: median(overRecordedRatios),
      medians: tools.map((tool) => {
        const mine = runs.filter((r) => r.tool === tool);
        return {
          tool,
          cpu_ms_per_request: median(
            mine.flatMap((r) => (r.cpu_ms_per_request === null ? [] : [r.cpu_ms_per_request])),
          ),
          achieved_rate: median(mine.map((r) => r.achieved_rate)),
          ok_share: median(mine.map((r) => (r.sent > 0 ? r.ok / r.sent : 0))),
        };
      }),
    });
    process.stderr.write(
      `bench:load: ${scenario.name}: chatbench ÷ floor ${fmt(median(ratios), 2)}× (${ratios.map((r) => r.toFixed(2)).join(', ')})${BASELINE === null ? '' : `; baseline ÷ floor ${fmt(median(baselineRatios), 2)}×; chatbench ÷ baseline ${fmt(median(changeRatios), 2)}× (${changeRatios.map((r) => r.toFixed(2)).join(', ')})`}${FLOOR_RECORD ? `; floor+record ÷ floor ${fmt(median(recordedRatios), 2)}×; chatbench ÷ floor+record ${fmt(median(overRecordedRatios), 2)}× (${overRecordedRatios.map((r) => r.toFixed(2)).join(', ')})` : ''}\n`,
    );
  }
  return out;
}

interface RampStep {
  mode: Mode;
  rate: number;
  duration_ms: number;
  sent: number;
  dropped: number;
  lag_p99_ms: number | null;
  steady_lag_p99_ms: number | null;
  loop_delay_p99_ms: number | null;
  verdict: Verdict;
}

/** ×2 steps until one fails, then one bisection between the last good and the first bad rate. */
async function ramp(
  sim: SimProcess,
  bodies: string[],
  mode: Mode,
): Promise<{ steps: RampStep[]; sustained: number | null }> {
  const steps: RampStep[] = [];
  const step = async (rate: number) => {
    const durationMs = stepMs(rate);
    const r = await runTool({
      tool: 'chatbench',
      baseUrl: sim.baseUrl,
      token: TOKEN,
      mode,
      rate,
      durationMs,
      connections: 64,
      bodies,
      settleMs: STEADY_MS,
    });
    const verdict = judgeStep({
      rate,
      durationMs,
      sent: r.sent,
      dropped: r.dropped,
      steadyLagP99Ms: r.steady_lag_p99_ms,
      loopDelayP99Ms: r.loop_delay_p99_ms,
    });
    steps.push({
      mode,
      rate,
      duration_ms: durationMs,
      sent: r.sent,
      dropped: r.dropped,
      lag_p99_ms: r.lag_p99_ms,
      steady_lag_p99_ms: r.steady_lag_p99_ms,
      loop_delay_p99_ms: r.loop_delay_p99_ms,
      verdict,
    });
    process.stderr.write(`bench:load: rate search ${mode} ${rate}/s: ${verdict}\n`);
    return verdict === 'kept up';
  };
  let good: number | null = null;
  let bad: number | null = null;
  for (const rate of RAMP_RATES) {
    if (timeLeft() < 30_000) break;
    if (await step(rate)) good = rate;
    else {
      bad = rate;
      break;
    }
  }
  if (bad !== null && timeLeft() > 30_000) {
    const middle = Math.round(((good ?? 0) + bad) / 2);
    if (await step(middle)) good = middle;
  }
  return { steps, sustained: good };
}

const fmt = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? '–' : v.toFixed(digits));

function renderMd(o: {
  cpu: ScenarioFigures[];
  ramps: Partial<Record<Mode, { steps: RampStep[]; sustained: number | null }>>;
  kit: KitFigures | null;
  truth: TruthFigures | null;
  machine: string;
  load: string;
  autocannon: boolean;
}): string {
  const lines = [
    "# bench:load — the load generator's own cost, against the floor",
    '',
    `Machine: ${o.machine}. ${o.load}.`,
    `Each tool in its own process, the simulator in another; CPU = the tool process's user + system time from its first send to its last byte. ${ROUNDS} round(s) of ${RUN_MS / 1000} s per tool, medians; ratio = chatbench ÷ floor CPU per request, paired per round (target ≤ 1.3×).`,
    '',
  ];
  if (o.cpu.length > 0) {
    lines.push(
      '## CPU per request',
      '',
      '| scenario | connections | tool | CPU ms / request | achieved (ended ÷ last end) | ok | chatbench ÷ floor |',
      '|:---|---:|:---|---:|---:|---:|---:|',
    );
    for (const s of o.cpu) {
      for (const m of s.medians) {
        const ratio =
          m.tool === 'chatbench'
            ? `**${fmt(s.ratio, 2)}×** (${s.ratios.map((r) => r.toFixed(2)).join(', ')})`
            : m.tool === 'floor+record'
              ? `${fmt(s.recorded_ratio, 2)}× (${s.recorded_ratios.map((r) => r.toFixed(2)).join(', ')}); chatbench ÷ floor+record **${fmt(s.over_recorded_ratio, 2)}×** (${s.over_recorded_ratios.map((r) => r.toFixed(2)).join(', ')})`
              : m.tool === 'baseline'
                ? `${fmt(s.baseline_ratio, 2)}× (${s.baseline_ratios.map((r) => r.toFixed(2)).join(', ')}); chatbench ÷ baseline **${fmt(s.change_ratio, 2)}×** (${s.change_ratios.map((r) => r.toFixed(2)).join(', ')})`
                : '';
        lines.push(
          `| ${s.scenario.name} | ${s.scenario.connections} | ${m.tool} | ${fmt(m.cpu_ms_per_request)} | ${fmt(m.achieved_rate, 0)}/s of ${s.scenario.rate}/s | ${m.ok_share === null ? '–' : `${(m.ok_share * 100).toFixed(1)}%`} | ${ratio} |`,
        );
      }
    }
    lines.push(
      '',
      o.autocannon
        ? 'autocannon (context, full only): sends one body and parses nothing.'
        : 'autocannon is not installed (optional dev dependency): its rows are missing.',
      '',
    );
    if (FLOOR_RECORD)
      lines.push(
        "floor+record: the floor writing each request's record (its timings, status, answer and cited ids) as one JSON line, in the same rounds; its last column gives floor+record ÷ floor, then chatbench ÷ floor+record paired per round.",
        '',
      );
    if (BASELINE !== null)
      lines.push(
        `baseline: the load use-case of ${BASELINE} (CHATBENCH_BENCH_BASELINE), in the same rounds; its last column gives baseline ÷ floor, then chatbench ÷ baseline paired per round.`,
        '',
      );
  }
  const modes = (['full', 'stream'] as const).filter((m) => o.ramps[m] !== undefined);
  if (modes.length > 0) {
    lines.push('## Highest rate one generator sustains', '');
    lines.push(
      modes.map((m) => `${m === 'full' ? 'Full' : 'Streamed'}: **${o.ramps[m]!.sustained ?? 'none'}/s**`).join(' · ') +
        ` (×2 steps from ${RAMP_RATES[0]}/s then one bisection; each step ≥ 3 s and ≥ 1,000 sends; kept up = nothing dropped, ≥ 98% sent and lag p99 < 5 ms over the sends after the first ${STEADY_MS} ms; the generator's own event-loop delay says why a step fell behind).`,
      '',
    );
    lines.push(
      '| mode | rate | step | sent | dropped | lag p99, whole (ms) | lag p99, steady (ms) | loop delay p99 (ms) | verdict |',
      '|:---|---:|---:|---:|---:|---:|---:|---:|:---|',
    );
    for (const m of modes)
      for (const s of o.ramps[m]!.steps)
        lines.push(
          `| ${s.mode} | ${s.rate}/s | ${s.duration_ms / 1000} s | ${s.sent} | ${s.dropped} | ${fmt(s.lag_p99_ms, 2)} | ${fmt(s.steady_lag_p99_ms, 2)} | ${fmt(s.loop_delay_p99_ms, 2)} | ${s.verdict} |`,
        );
    lines.push('');
  } else lines.push(`Rate search skipped (${QUICK ? '--quick' : KIT_ONLY ? '--kit-only' : '--skip-ramp'}).`, '');
  if (o.kit !== null) lines.push(...renderKitMd(o.kit));
  if (o.truth !== null) lines.push(...renderTruthMd(o.truth));
  return lines.join('\n');
}

async function main(): Promise<void> {
  // chatbench is measured from its compiled dist/ (load/tool-child.ts), and the simulator runs from it too.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('bench:load: `node scripts/build-cli.mjs` failed');
  if (BASELINE !== null && !existsSync(join(BASELINE, 'dist', 'app', 'load', 'run-load.js')))
    throw new Error(`bench:load: the baseline ${BASELINE} has no dist/: run \`node scripts/build-cli.mjs\` there`);
  const loadBefore = loadavg();
  // --kit-only needs neither (the kit's section starts its own): no idle simulators beside the tools measured.
  const sims = KIT_ONLY
    ? null
    : { fast: await startSimProcess(SIM_CONFIGS.fast), real: await startSimProcess(SIM_CONFIGS.real) };
  try {
    const bodies = { full: await planBodies('full'), stream: await planBodies('stream') };
    const autocannon = hasAutocannon();
    const cpu = SKIP_CPU || sims === null ? [] : await cpuSection(sims, bodies, autocannon);
    const ramps: Partial<Record<Mode, { steps: RampStep[]; sustained: number | null }>> = {};
    if (!SKIP_RAMP && sims !== null) {
      ramps.full = await ramp(sims.fast, bodies.full, 'full');
      ramps.stream = await ramp(sims.fast, bodies.stream, 'stream');
    }
    let kit: KitFigures | null = null;
    if (!SKIP_KIT) {
      const sim = await startSimProcess(KIT_SIM_CONFIG);
      // A budget of its own (the rounds are a fixed list; this bounds a machine too slow for them).
      const kitStarted = performance.now();
      try {
        kit = await kitSection(
          sim.baseUrl,
          TOKEN,
          KIT_ROUNDS,
          QUICK ? KIT_TIMING_QUICK : KIT_TIMING,
          (line) => process.stderr.write(`${line}\n`),
          () => performance.now() - kitStarted < KIT_BUDGET_MS,
          KIT_TOGETHER,
          BASELINE ?? undefined,
        );
      } finally {
        await sim.close();
      }
    }
    let truth: TruthFigures | null = null;
    if (!SKIP_TRUTH) {
      const truthStarted = performance.now();
      // Short answers at real token pace (SIM_CONFIGS.real), so each run pairs hundreds of requests.
      truth = await truthSection(
        SIM_CONFIGS.real,
        TOKEN,
        ROUNDS,
        QUICK ? TRUTH_TIMING_QUICK : TRUTH_TIMING,
        (line) => process.stderr.write(`${line}\n`),
        () => performance.now() - truthStarted < KIT_BUDGET_MS,
      );
    }
    const loadAfter = loadavg();
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
    const load = `Load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} at the start, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} at the end`;
    const out = join(ROOT, 'reports', 'bench');
    mkdirSync(out, { recursive: true });
    const json = {
      generated_at: new Date().toISOString(),
      machine,
      loadavg_start: loadBefore,
      loadavg_end: loadAfter,
      quick: QUICK,
      rounds: ROUNDS,
      run_ms: RUN_MS,
      target_ratio: 1.3,
      cpu,
      ramps,
      kit,
      truth,
      duration_s: (performance.now() - started) / 1000,
    };
    writeFileSync(join(out, 'load.json'), `${JSON.stringify(json, null, 2)}\n`);
    const md = renderMd({ cpu, ramps, kit, truth, machine, load, autocannon });
    writeFileSync(join(out, 'load.md'), md);
    process.stdout.write(
      `${md}\nwritten: reports/bench/load.json, reports/bench/load.md (${json.duration_s.toFixed(0)} s)\n`,
    );
  } finally {
    await Promise.all([sims?.fast.close(), sims?.real.close()]);
  }
}

await main();

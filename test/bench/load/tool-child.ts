/**
 * @module bench/load/tool-child
 * One benchmark run of one tool in its own process, so that no tool pays for another's work (or the
 * benchmark's): `node --import tsx tool-child.ts <job.json> <result.json>`. The job names the tool
 * (`floor`, `floor+record`, `chatbench`, `autocannon`), the simulator's URL, the mode, rate, duration and
 * connections; the result carries the CPU time this process spent from its first send to its last
 * byte (process.cpuUsage, user + system), what was sent and how late. chatbench runs its real
 * load use-case (runLoad: decode, time, score and write every record) into a temporary run dir,
 * from the compiled dist/ of CHATBENCH_TOOL_ROOT (this checkout or the baseline) as the CLI does;
 * the floor is bundled as plain JavaScript (plain-module.ts: what tsx adds to every named closure).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile } from '../../../src/metrics/stats.js';
import type { Mode } from '../../../src/records/record.js';
import type * as RunLoadModule from '../../../src/app/load/run-load.js';
import type * as FloorModule from '../floor/floor-client.js';
import { importPlain } from './plain-module.js';

export interface ToolJob {
  /** `floor+record`: the floor writing each request's record as a JSON line (floor-client.ts). */
  readonly tool: 'floor' | 'floor+record' | 'chatbench' | 'autocannon';
  readonly baseUrl: string;
  readonly token: string;
  readonly mode: Mode;
  readonly rate: number;
  readonly durationMs: number;
  readonly connections: number;
  /** The plan's bodies (floor and autocannon send them; chatbench builds its own, the same ones). */
  readonly bodies: readonly string[];
  /** Ms after the start from which the steady lag is counted (chatbench). */
  readonly settleMs: number;
}

export interface ToolResult {
  readonly tool: ToolJob['tool'];
  readonly sent: number;
  readonly ok: number;
  readonly cpu_ms: number;
  /** Requests ended ÷ the time from the schedule's start to the last one's end, per second. */
  readonly achieved_rate: number;
  readonly lag_p99_ms: number | null;
  /** chatbench: lag p99 over the sends scheduled after settleMs. */
  readonly steady_lag_p99_ms: number | null;
  /** chatbench: its own event-loop delay p99 (generator.json). */
  readonly loop_delay_p99_ms: number | null;
  readonly dropped: number;
}

const ROOT = resolve(import.meta.dirname, '../../..');
/** The chatbench measured: this checkout, or the baseline's (CHATBENCH_TOOL_ROOT, set by load.bench.ts). */
const TOOL_ROOT = process.env.CHATBENCH_TOOL_ROOT ?? ROOT;

/**
 * chatbench's load use-case as the CLI runs it: tsc's output in TOOL_ROOT/dist (built by
 * `node scripts/build-cli.mjs`), not the sources through tsx (plain-module.ts says what tsx adds).
 */
async function loadChatbench(): Promise<typeof RunLoadModule> {
  const file = join(TOOL_ROOT, 'dist', 'app', 'load', 'run-load.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`node scripts/build-cli.mjs\` in ${TOOL_ROOT}`);
  return (await import(pathToFileURL(file).href)) as typeof RunLoadModule;
}

async function runChatbench(job: ToolJob): Promise<ToolResult> {
  const { prepareLoad, runLoad, LoadSpecSchema } = await loadChatbench();
  const prepared = await prepareLoad({
    operation: 'chat',
    mode: job.mode,
    datasetPath: 'datasets/sample.csv',
    setFlags: [],
    cwd: TOOL_ROOT,
  });
  const spec = LoadSpecSchema.parse({
    operation: 'chat',
    mode: job.mode,
    model: 'open',
    rate: job.rate,
    arrival: 'constant',
    max_in_flight: 5000,
    connections: job.connections,
    stages: null,
    duration_ms: job.durationMs,
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
  const outDir = join(mkdtempSync(join(tmpdir(), 'chatbench-bench-')), 'run');
  const { generator: g } = await runLoad({
    spec,
    baseUrl: job.baseUrl,
    tokens: [job.token],
    prepared,
    target: 'service',
    cwd: TOOL_ROOT,
    outDir,
    signal: new AbortController().signal,
    graceMs: 5000,
    timeoutMs: 30_000,
    retries: 0,
    retry429: false,
    version: 'bench',
    cpuUsage: () => process.cpuUsage(),
  });
  const records = readFileSync(join(outDir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          outcome: string;
          scheduled_offset_ms: number | null;
          queue_ms: number | null;
          response_ms: number | null;
        },
    );
  const steady = records
    .filter((r) => (r.scheduled_offset_ms ?? 0) >= job.settleMs && r.queue_ms !== null)
    .map((r) => r.queue_ms!)
    .sort((a, b) => a - b);
  const lastEnd = records.reduce((end, r) => Math.max(end, (r.scheduled_offset_ms ?? 0) + (r.response_ms ?? 0)), 0);
  return {
    tool: 'chatbench',
    sent: g.sent,
    ok: records.filter((r) => r.outcome === 'ok').length,
    cpu_ms: (g.cpu_user_ms ?? 0) + (g.cpu_system_ms ?? 0),
    achieved_rate: records.length / (Math.max(job.durationMs, lastEnd) / 1000),
    lag_p99_ms: g.schedule_lag_ms.p99,
    steady_lag_p99_ms: percentile(steady, 0.99) ?? null,
    loop_delay_p99_ms: g.loop_delay_ms?.p99 ?? null,
    dropped: g.dropped.length,
  };
}

async function runFloorJob(job: ToolJob): Promise<ToolResult> {
  // The floor as plain JavaScript too (plain-module.ts), bundled before its CPU is counted.
  const entry = join(ROOT, 'test', 'bench', 'floor', 'floor-client.ts');
  const { runFloor } = await importPlain<typeof FloorModule>(ROOT, entry);
  const recordsPath =
    job.tool === 'floor+record' ? join(mkdtempSync(join(tmpdir(), 'chatbench-floor-')), 'records.jsonl') : undefined;
  const before = process.cpuUsage();
  const r = await runFloor({
    baseUrl: job.baseUrl,
    token: job.token,
    bodies: job.bodies,
    rate: job.rate,
    durationMs: job.durationMs,
    connections: job.connections,
    recordsPath,
  });
  const used = process.cpuUsage(before);
  if (recordsPath !== undefined) rmSync(dirname(recordsPath), { recursive: true, force: true });
  return {
    tool: job.tool,
    sent: r.sent,
    ok: r.ok,
    cpu_ms: (used.user + used.system) / 1000,
    achieved_rate: r.sent / (Math.max(job.durationMs, r.duration_ms) / 1000),
    lag_p99_ms: r.lag_p99_ms,
    steady_lag_p99_ms: null,
    loop_delay_p99_ms: null,
    dropped: 0,
  };
}

type Autocannon = (options: Record<string, unknown>) => Promise<{ requests: { total: number }; '2xx': number }>;

async function runAutocannon(job: ToolJob): Promise<ToolResult> {
  const name = 'autocannon'; // an optional dev dependency: the parent checks it resolves first
  const autocannon = ((await import(name)) as { default: Autocannon }).default;
  const url = new URL(job.baseUrl);
  const before = process.cpuUsage();
  const result = await autocannon({
    url: `${url.origin}${url.pathname.replace(/\/+$/, '')}/chat/send-chat-message`,
    method: 'POST',
    body: job.bodies[0],
    connections: job.connections,
    overallRate: job.rate,
    duration: job.durationMs / 1000,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${job.token}` },
  });
  const used = process.cpuUsage(before);
  return {
    tool: 'autocannon',
    sent: result.requests.total,
    ok: result['2xx'],
    cpu_ms: (used.user + used.system) / 1000,
    achieved_rate: result.requests.total / (job.durationMs / 1000),
    lag_p99_ms: null,
    steady_lag_p99_ms: null,
    loop_delay_p99_ms: null,
    dropped: 0,
  };
}

const [jobFile, resultFile] = process.argv.slice(2);
if (jobFile === undefined || resultFile === undefined) throw new Error('usage: tool-child.ts <job.json> <result.json>');
const job = JSON.parse(readFileSync(jobFile, 'utf8')) as ToolJob;
const run =
  job.tool === 'floor' || job.tool === 'floor+record'
    ? runFloorJob
    : job.tool === 'chatbench'
      ? runChatbench
      : runAutocannon;
writeFileSync(resultFile, JSON.stringify(await run(job)));

/**
 * @module bench/load/kit
 * The service's own load kit (Locust, onyx-dot-app/onyx `loadtest/`) beside chatbench, in `npm run
 * bench:load` (issue 24 §2): the same simulated service at its realistic pace, 20 streaming users
 * each sending its next question when its last answer ended (the kit with ONYX_WAIT_SECONDS=0,
 * chatbench's closed model with --concurrency 20), each tool in its own process, runs of RUN_S
 * seconds. CPU per streamed request = the tool process's utime + stime (/proc/PID/stat, every
 * thread) over the steady window (windowFromS to windowToS after the start, and from a second after
 * the tool's first answer ended), ÷ the streamed
 * requests that ended ok inside that window. Also chatbench's own event-loop delay over the whole
 * run (generator.json, its first second included) and each process's peak RSS (VmHWM).
 *
 * The kit is never copied into this repository: `git archive HEAD loadtest` of a clone named by
 * CHATBENCH_ONYX_REPO (a clone or a bare mirror of onyx-dot-app/onyx) is unpacked into a temporary
 * directory at bench time, and kit_locustfile.py beside this file picks its BasicChatUser; chatbench
 * asks the kit's own questions (its DEFAULT_MESSAGES, read at bench time), so both read the same streams. Locust
 * is CHATBENCH_LOCUST, else `locust` on PATH (Debian's python3-locust). Either missing: the
 * section is skipped, saying why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const LOCUSTFILE = join(import.meta.dirname, 'kit_locustfile.py');
const SAMPLE_MS = 200;
/** /proc/PID/stat counts CPU in clock ticks: 100 a second on Linux (getconf CLK_TCK). */
const TICKS_PER_S = 100;

export interface KitTiming {
  readonly runS: number;
  readonly windowFromS: number;
  readonly windowToS: number;
  readonly users: number;
}
export const KIT_TIMING: KitTiming = { runS: 40, windowFromS: 5, windowToS: 35, users: 20 };
export const KIT_TIMING_QUICK: KitTiming = { runS: 14, windowFromS: 3, windowToS: 12, users: 20 };

export type KitSetup =
  | { readonly ok: true; readonly locust: string; readonly loadtestDir: string; readonly dataset: string }
  | { readonly ok: false; readonly reason: string };

/** Finds Locust and unpacks the kit; says why not when either is missing. */
export function prepareKit(): KitSetup {
  const locust = process.env.CHATBENCH_LOCUST ?? 'locust';
  const found = spawnSync(locust, ['--version'], { encoding: 'utf8' });
  if (found.error !== undefined || found.status !== 0)
    return {
      ok: false,
      reason: `no Locust (${locust}: ${found.error?.message ?? `exit ${found.status}`}); install Debian's python3-locust or set CHATBENCH_LOCUST`,
    };
  const repo = process.env.CHATBENCH_ONYX_REPO;
  if (repo === undefined || repo === '')
    return {
      ok: false,
      reason:
        'CHATBENCH_ONYX_REPO is not set (a clone or bare mirror of onyx-dot-app/onyx, whose loadtest/ is the kit)',
    };
  if (!existsSync(repo)) return { ok: false, reason: `CHATBENCH_ONYX_REPO=${repo} does not exist` };
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-kit-'));
  const unpacked = spawnSync('sh', ['-c', 'git -C "$1" archive HEAD loadtest | tar -x -C "$2"', 'sh', repo, dir], {
    encoding: 'utf8',
  });
  const loadtestDir = join(dir, 'loadtest');
  if (unpacked.status !== 0 || !existsSync(join(loadtestDir, 'onyx_client', 'chat_user.py'))) {
    return {
      ok: false,
      reason: `could not unpack loadtest/ from ${repo}: ${unpacked.stderr.trim().slice(0, 300) || 'no onyx_client/chat_user.py in it'}`,
    };
  }
  // chatbench asks what the kit asks (its DEFAULT_MESSAGES, read with Locust's own Python), so both read the same streams.
  const python = interpreterOf(locust);
  const read = spawnSync(
    python,
    [
      '-c',
      'import json, sys; sys.path.insert(0, sys.argv[1]); from onyx_client.chat_user import DEFAULT_MESSAGES; print(json.dumps(DEFAULT_MESSAGES))',
      loadtestDir,
    ],
    { encoding: 'utf8' },
  );
  let messages: unknown;
  try {
    messages = JSON.parse(read.stdout);
  } catch {
    messages = undefined;
  }
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every((m) => typeof m === 'string')) {
    return {
      ok: false,
      reason: `could not read the kit's DEFAULT_MESSAGES with ${python}: ${read.stderr.trim().slice(-300)}`,
    };
  }
  const dataset = join(dir, 'kit-questions.csv');
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
  writeFileSync(dataset, `id,question\n${messages.map((m, i) => `kit-${i + 1},${quote(m as string)}`).join('\n')}\n`);
  return { ok: true, locust, loadtestDir, dataset };
}

/** The Python that runs `locust` (its script's #! line), so the kit's modules are read by the same one. */
function interpreterOf(locust: string): string {
  const path = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', locust], { encoding: 'utf8' }).stdout.trim();
  try {
    const shebang = readFileSync(path, 'utf8').split('\n', 1)[0] ?? '';
    const words = shebang.startsWith('#!') ? shebang.slice(2).trim().split(/\s+/) : [];
    return words[0]?.endsWith('/env') ? (words[1] ?? 'python3') : (words[0] ?? 'python3');
  } catch {
    return 'python3';
  }
}

interface Sample {
  /** Epoch ms. */
  readonly at: number;
  /** utime + stime, ms. */
  readonly cpuMs: number;
  readonly hwmMb: number | null;
}

function sample(pid: number): Sample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after its closing parenthesis: utime is field 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    return { at: Date.now(), cpuMs, hwmMb: hwm ? Number(hwm[1]) / 1024 : null };
  } catch {
    return null; // exited
  }
}

/** `baseline`: an earlier chatbench checkout (CHATBENCH_BENCH_BASELINE), measured as chatbench is. */
export type KitTool = 'kit' | 'chatbench' | 'baseline';

export interface KitToolRun {
  readonly tool: KitTool;
  readonly round: number;
  /** The steady window as sampled, s. */
  readonly window_s: number;
  readonly requests_in_window: number;
  readonly cpu_ms_in_window: number;
  readonly cpu_ms_per_request: number | null;
  readonly peak_rss_mb: number | null;
  /** chatbench only: its event-loop delay over the whole run, first second included (generator.json). */
  readonly loop_delay_ms: { p50: number; p99: number; max: number } | null;
  readonly exit_code: number | null;
}

/** One streamed request's milestones as a tool measured them, keyed by the assistant message id the stream reserved. */
export interface ToolTiming {
  readonly message_id: number;
  readonly ttfp_ms: number | null;
  readonly ttft_ms: number | null;
}

/**
 * Runs one tool against `baseUrl` (with its /api prefix) for timing.runS and measures it. With
 * `timings`, each ok streamed request's TTFP and TTFT as the tool measured them are pushed to it
 * (the kit's milestone events, chatbench's records), for truth.ts.
 */
export async function runKitTool(
  tool: KitTool,
  round: number,
  setup: Extract<KitSetup, { ok: true }>,
  baseUrl: string,
  token: string,
  timing: KitTiming,
  timings?: ToolTiming[],
  baseline?: string,
): Promise<KitToolRun> {
  const work = mkdtempSync(join(tmpdir(), `chatbench-kit-${tool}-`));
  const endsFile = join(work, 'ends.txt');
  const timingsFile = join(work, 'timings.txt');
  const outDir = join(work, 'run');
  const started = Date.now();
  const child: ChildProcess =
    tool === 'kit'
      ? spawn(
          setup.locust,
          [
            '-f',
            LOCUSTFILE,
            '--headless',
            '-u',
            String(timing.users),
            '-r',
            String(timing.users),
            '-t',
            `${timing.runS}s`,
            '-H',
            new URL(baseUrl).origin,
            '--only-summary',
            '--loglevel',
            'WARNING',
          ],
          {
            cwd: work,
            stdio: ['ignore', 'ignore', 'pipe'],
            env: {
              ...process.env,
              PYTHONPATH: setup.loadtestDir,
              ONYX_API_KEY: token,
              ONYX_WAIT_SECONDS: '0',
              CHATBENCH_KIT_ENDS: endsFile,
              CHATBENCH_KIT_TIMINGS: timingsFile,
            },
          },
        )
      : spawn(
          process.execPath,
          [
            'bin/chatbench.js',
            'load',
            '--base-url',
            baseUrl,
            '--token',
            token,
            '--dataset',
            setup.dataset,
            '--concurrency',
            String(timing.users),
            '--duration',
            `${timing.runS}s`,
            '--out',
            outDir,
            '--quiet',
          ],
          {
            cwd: tool === 'baseline' ? baseline : ROOT,
            stdio: ['ignore', 'ignore', 'pipe'],
            env: { ...process.env, NODE_OPTIONS: '' },
          },
        );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const samples: Sample[] = [];
  const timer = setInterval(() => {
    const s = child.pid === undefined ? null : sample(child.pid);
    if (s) samples.push(s);
  }, SAMPLE_MS);
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  clearInterval(timer);
  // The samples that bound the steady window; its requests are those that ended between them. It
  // opens no earlier than a second after the tool's first answer ended, so that a start-up slowed
  // by a busy machine (loading, warming) is never counted as the cost of requests.
  const ends = tool === 'kit' ? kitEnds(endsFile) : chatbenchEnds(outDir);
  if (timings !== undefined) timings.push(...(tool === 'kit' ? kitTimings(timingsFile) : chatbenchTimings(outDir)));
  const firstEnd = ends.length > 0 ? Math.min(...ends) : Infinity;
  const opens = Math.max(started + timing.windowFromS * 1000, firstEnd + 1000);
  const from = samples.find((s) => s.at >= opens);
  const to = [...samples].reverse().find((s) => s.at <= started + timing.windowToS * 1000);
  if (from === undefined || to === undefined || to.at <= from.at)
    throw new Error(`${tool} round ${round}: no steady window sampled (exit ${code}):\n${stderr}`);
  const inWindow = ends.filter((t) => t >= from.at && t <= to.at).length;
  const cpu = to.cpuMs - from.cpuMs;
  const hwms = samples.flatMap((s) => (s.hwmMb === null ? [] : [s.hwmMb]));
  return {
    tool,
    round,
    window_s: (to.at - from.at) / 1000,
    requests_in_window: inWindow,
    cpu_ms_in_window: cpu,
    cpu_ms_per_request: inWindow > 0 ? cpu / inWindow : null,
    peak_rss_mb: hwms.length > 0 ? Math.max(...hwms) : null,
    loop_delay_ms: tool === 'kit' ? null : loopDelayOf(outDir),
    exit_code: code,
  };
}

function kitEnds(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => Number(l) * 1000);
}

const orNull = (word: string | undefined): number | null =>
  word === undefined || word === '-' || word === 'None' ? null : Number(word);

/** kit_locustfile.py's `message_id ttfp_ms ttft_ms` lines. */
function kitTimings(file: string): ToolTiming[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const [id, ttfp, ttft] = line.split(' ');
      return { message_id: Number(id), ttfp_ms: orNull(ttfp), ttft_ms: orNull(ttft) };
    });
}

function chatbenchTimings(outDir: string): ToolTiming[] {
  const file = join(outDir, 'results.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((line) => {
      const r = JSON.parse(line) as {
        outcome: string;
        message_id: number | null;
        ttfp_ms: number | null;
        ttft_ms: number | null;
      };
      return r.outcome === 'ok' && r.message_id !== null
        ? [{ message_id: r.message_id, ttfp_ms: r.ttfp_ms, ttft_ms: r.ttft_ms }]
        : [];
    });
}

/** Epoch ms at which each ok record ended: its send's wall time plus its total. */
function chatbenchEnds(outDir: string): number[] {
  const file = join(outDir, 'results.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((line) => {
      const r = JSON.parse(line) as { outcome: string; started_at: string; total_ms: number | null };
      return r.outcome === 'ok' && r.total_ms !== null ? [Date.parse(r.started_at) + r.total_ms] : [];
    });
}

function loopDelayOf(outDir: string): KitToolRun['loop_delay_ms'] {
  try {
    return (
      JSON.parse(readFileSync(join(outDir, 'generator.json'), 'utf8')) as { loop_delay_ms: KitToolRun['loop_delay_ms'] }
    ).loop_delay_ms;
  } catch {
    return null;
  }
}

export interface KitFigures {
  readonly skipped: string | null;
  /** Both tools ran at once in each round (--kit-together), else one after the other. */
  readonly together: boolean;
  readonly timing: KitTiming;
  readonly runs: KitToolRun[];
  /** Per tool: medians over the rounds. */
  readonly medians: {
    tool: KitTool;
    cpu_ms_per_request: number | null;
    requests_in_window: number | null;
    peak_rss_mb: number | null;
  }[];
  /** chatbench ÷ kit CPU per streamed request, per round (target < 1.0), and their median. */
  readonly ratios: number[];
  readonly ratio: number | null;
  /** With a baseline: baseline ÷ kit and chatbench ÷ baseline per round, and their medians. */
  readonly baseline_ratios: number[];
  readonly baseline_ratio: number | null;
  readonly change_ratios: number[];
  readonly change_ratio: number | null;
  /** chatbench's event-loop delay per round (target max ≤ 10 ms, p99 ≤ 2 ms on a quiet machine). */
  readonly loop_delay_ms: ({ p50: number; p99: number; max: number } | null)[];
}

const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * `rounds` rounds against the simulator at `baseUrl`: the tools one after the other, their order
 * alternating, or (`together`) both at once, each with its own users, so that on a machine shared
 * with other work both meet the same contention at the same moments (the simulator then serves
 * twice the users).
 */
export async function kitSection(
  baseUrl: string,
  token: string,
  rounds: number,
  timing: KitTiming,
  log: (line: string) => void,
  hasTime: () => boolean,
  together = false,
  baseline?: string,
): Promise<KitFigures> {
  const setup = prepareKit();
  const none = { baseline_ratios: [], baseline_ratio: null, change_ratios: [], change_ratio: null };
  if (!setup.ok) {
    log(`bench:load: the service's kit skipped: ${setup.reason}`);
    return {
      skipped: setup.reason,
      together,
      timing,
      runs: [],
      medians: [],
      ratios: [],
      ratio: null,
      loop_delay_ms: [],
      ...none,
    };
  }
  const runs: KitToolRun[] = [];
  const ratios: number[] = [];
  const baselineRatios: number[] = [];
  const changeRatios: number[] = [];
  const tools: KitTool[] = baseline === undefined ? ['kit', 'chatbench'] : ['kit', 'chatbench', 'baseline'];
  for (let round = 1; round <= rounds && hasTime(); round++) {
    const order: KitTool[] = round % 2 === 1 ? tools : [...tools].reverse();
    const mine: Partial<Record<KitTool, KitToolRun>> = {};
    const measured: KitToolRun[] = [];
    if (together)
      measured.push(
        ...(await Promise.all(
          order.map((tool) => runKitTool(tool, round, setup, baseUrl, token, timing, undefined, baseline)),
        )),
      );
    else
      for (const tool of order)
        measured.push(await runKitTool(tool, round, setup, baseUrl, token, timing, undefined, baseline));
    for (const run of measured) {
      mine[run.tool] = run;
      runs.push(run);
      log(
        `bench:load: kit round ${round}${together ? ' (together)' : ''} ${run.tool}: ${run.cpu_ms_per_request?.toFixed(2) ?? '–'} ms CPU per streamed request (${run.requests_in_window} in ${run.window_s.toFixed(1)} s), peak RSS ${run.peak_rss_mb?.toFixed(0) ?? '–'} MB`,
      );
    }
    const ours = mine.chatbench?.cpu_ms_per_request;
    const theirs = mine.kit?.cpu_ms_per_request;
    const before = mine.baseline?.cpu_ms_per_request;
    if (ours != null && theirs != null && theirs > 0) ratios.push(ours / theirs);
    if (before != null && theirs != null && theirs > 0) baselineRatios.push(before / theirs);
    if (ours != null && before != null && before > 0) changeRatios.push(ours / before);
  }
  return {
    skipped: null,
    together,
    timing,
    runs,
    ratios,
    ratio: median(ratios),
    baseline_ratios: baselineRatios,
    baseline_ratio: median(baselineRatios),
    change_ratios: changeRatios,
    change_ratio: median(changeRatios),
    medians: tools.map((tool) => {
      const of = runs.filter((r) => r.tool === tool);
      return {
        tool,
        cpu_ms_per_request: median(of.flatMap((r) => (r.cpu_ms_per_request === null ? [] : [r.cpu_ms_per_request]))),
        requests_in_window: median(of.map((r) => r.requests_in_window)),
        peak_rss_mb: median(of.flatMap((r) => (r.peak_rss_mb === null ? [] : [r.peak_rss_mb]))),
      };
    }),
    loop_delay_ms: runs.filter((r) => r.tool === 'chatbench').map((r) => r.loop_delay_ms),
  };
}

const fmt = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? '–' : v.toFixed(digits));

/** The section of load.md. */
export function renderKitMd(k: KitFigures): string[] {
  const lines = ["## Against the service's own kit (Locust), streamed at realistic pace", ''];
  if (k.skipped !== null) return [...lines, `Skipped: ${k.skipped}.`, ''];
  const t = k.timing;
  lines.push(
    `${t.users} streaming users, each sending its next question when its answer ended (the kit's BasicChatUser with ONYX_WAIT_SECONDS=0; chatbench \`load --concurrency ${t.users}\`), ${t.runS} s runs, the simulator at time_scale 1 in its own process. CPU = the tool process's utime + stime over the steady window (${t.windowFromS}–${t.windowToS} s after the start, and from a second after the tool's first answer ended), ÷ the streamed requests that ended ok in it; ${k.together ? 'both tools at once in each round (each with its own users: the same contention at the same moments)' : 'rounds in alternating order'}, medians, ratio chatbench ÷ kit paired per round (target < 1.0).`,
    '',
    '| tool | CPU ms / streamed request | requests in the window | peak RSS (MB) | chatbench ÷ kit |',
    '|:---|---:|---:|---:|---:|',
  );
  for (const m of k.medians) {
    const ratio =
      m.tool === 'chatbench'
        ? `**${fmt(k.ratio)}×** (${k.ratios.map((r) => r.toFixed(2)).join(', ')})`
        : m.tool === 'baseline'
          ? `${fmt(k.baseline_ratio)}× (${k.baseline_ratios.map((r) => r.toFixed(2)).join(', ')}); chatbench ÷ baseline **${fmt(k.change_ratio)}×** (${k.change_ratios.map((r) => r.toFixed(2)).join(', ')})`
          : '';
    lines.push(
      `| ${m.tool === 'kit' ? 'the kit (Locust, Python)' : m.tool} | ${fmt(m.cpu_ms_per_request)} | ${fmt(m.requests_in_window, 0)} | ${fmt(m.peak_rss_mb, 0)} | ${ratio} |`,
    );
  }
  const delays = k.loop_delay_ms.map(
    (d, i) => `round ${i + 1}: ${d === null ? '–' : `p50 ${fmt(d.p50)} / p99 ${fmt(d.p99)} / max ${fmt(d.max)} ms`}`,
  );
  lines.push(
    '',
    `chatbench's event-loop delay over each ${t.users}-user run, its first second included (target: max ≤ 10 ms, p99 ≤ 2 ms on a quiet machine): ${delays.join('; ')}.`,
    '',
  );
  return lines;
}

/**
 * Where the measuring thread's event loop stands still during a 20-user streamed `chatbench load`
 * at the simulator's realistic pace (issue 24 §2: loop delay max ≤ 10 ms, p99 ≤ 2 ms). On a busy
 * machine the loop's wall-clock delay is the scheduler's, so each run is watched from inside by
 * loop-spans/preload.mjs and counted by loop-spans/summary.ts: gaps where the main thread ran over
 * 5 / 10 ms of its own CPU, GCs by kind and pause, and what the long gaps were made of (own CPU,
 * waiting for a core, blocked). The simulator runs in its own process; loopback only.
 *
 *   npx tsx test/bench/loop-spans.bench.ts [--runs 3] [--duration 20] [--users 20] [--nice-sim N] [-- NODE_FLAG…]
 *
 * `--nice-sim N` runs the simulator at nice N (a question of method: the simulator stands in for a
 * remote service, whose CPU a real run would not share with the generator; 0, the default, keeps
 * it an equal competitor for the two cores). The product never changes any process's priority.
 * NODE_FLAGs go to the chatbench process (e.g. `-- --cpu-prof --cpu-prof-interval 200`, or a V8
 * flag to compare). Needs a built CLI (node scripts/build-cli.mjs). Linux (schedstat).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSimProcess, type SimProcess } from './load/sim-process.js';
import { GROUPS } from './loop-spans/held.mjs';
import { summarise, windowOf, type LoggedLine, type RunSummary } from './loop-spans/summary.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PRELOAD = join(import.meta.dirname, 'loop-spans', 'preload.mjs');
const TOKEN = 'onyx_pat_chatbench_demo';

const dash = process.argv.indexOf('--');
const args = dash < 0 ? process.argv.slice(2) : process.argv.slice(2, dash);
const nodeFlags = dash < 0 ? [] : process.argv.slice(dash + 1);
const numberArg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  const value = i < 0 ? fallback : Number(args[i + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name}: a whole number above 0, not ${args[i + 1]}`);
  return value;
};
const RUNS = numberArg('--runs', 3);
const DURATION_S = numberArg('--duration', 20);
const USERS = numberArg('--users', 20);
const NICE_SIM = args.includes('--nice-sim') ? numberArg('--nice-sim', 0) : 0;

interface Run extends RunSummary {
  readonly loop: { p50: number; p99: number; max: number } | null;
  readonly load: string;
}

async function runOnce(sim: SimProcess, dataset: string, work: string, index: number): Promise<Run> {
  const out = join(work, `run-${index}`);
  const log = join(work, `run-${index}.jsonl`);
  const before = loadavg()[0]!.toFixed(1);
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      '--import',
      PRELOAD,
      'bin/chatbench.js',
      'load',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKEN,
      '--dataset',
      dataset,
      '--concurrency',
      String(USERS),
      '--duration',
      `${DURATION_S}s`,
      '--out',
      out,
      '--quiet',
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', LOOP_SPANS_OUT: log, LOOP_SPANS_PEER_PID: String(sim.pid) },
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`run ${index}: chatbench exited ${code}:\n${stderr}`);
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LoggedLine);
  const generator = JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')) as {
    started_at: string;
    duration_ms: number;
    loop_delay_ms: Run['loop'];
  };
  return {
    ...summarise(lines, windowOf(lines, generator)),
    loop: generator.loop_delay_ms,
    load: `${before} → ${loadavg()[0]!.toFixed(1)}`,
  };
}

const work = mkdtempSync(join(tmpdir(), 'chatbench-loop-spans-'));
const dataset = join(work, 'questions.csv');
writeFileSync(
  dataset,
  `id,question\n${['features', 'search', 'connectors', 'permissions', 'pricing', 'deployment']
    .map((topic, i) => `q${i + 1},"What should I know about ${topic}?"`)
    .join('\n')}\n`,
);
const sim = await startSimProcess({ chat: { time_scale: 1 } });
// Linux sets a nice value per thread: every thread the simulator has (it makes none later).
if (NICE_SIM > 0) for (const tid of readdirSync(`/proc/${sim.pid}/task`)) setPriority(Number(tid), NICE_SIM);
try {
  const header = `| run | own CPU > 5 ms (waited less than ran) | > 10 ms | > 3 ms | GCs | pauses 0-1/1-2/2-5/5-10/10-20/20+ ms | gaps > 6 ms: count, own CPU / run-queue wait / blocked (ms), blocked > 5 ms | loop delay p99 / max | load avg |`;
  console.log(
    `${USERS} users, ${DURATION_S} s runs${nodeFlags.length > 0 ? `, node ${nodeFlags.join(' ')}` : ''}${NICE_SIM > 0 ? `, simulator at nice ${NICE_SIM}` : ''}\n`,
  );
  console.log(`${header}\n|${'---|'.repeat(9)}`);
  const runs: Run[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const r = await runOnce(sim, dataset, work, i);
    runs.push(r);
    const gcs = Object.entries(r.gcByKind)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ');
    console.log(
      `| ${i} | ${r.cpuOver[5]} (${r.ownOver5}) | ${r.cpuOver[10]} | ${r.cpuOver[3]} | ${gcs || 'none'} | ${r.gcPauses.join('/')} | ${r.longGaps.count}: ${r.longGaps.cpu} / ${r.longGaps.wait} / ${r.longGaps.blocked}, ${r.blockedOver5} | ${r.loop ? `${r.loop.p99} / ${r.loop.max}` : '-'} | ${r.load} |`,
    );
  }
  // Who held the cores while the main thread waited over 2 ms for one: CPU by group within the
  // brackets around those waits (2 cores: the brackets' span × 2 is all there was).
  console.log(
    `\nWho held the cores while the main thread waited (CPU ms within the brackets around its waits > 2 ms)\n`,
  );
  console.log(
    `| run | waits | brackets' span | ${[...GROUPS, 'other processes'].join(' | ')} | waits mostly ours: count, longest |\n|${'---|'.repeat(GROUPS.length + 5)}`,
  );
  runs.forEach((r, i) =>
    console.log(
      `| ${i + 1} | ${r.held.count} | ${r.held.span} | ${[...r.held.groups, r.held.other].join(' | ')} | ${r.held.ours.count}, ${r.held.ours.maxWait} ms |`,
    ),
  );
} finally {
  await sim.close();
}

/**
 * `npm run bench:memory`: peak memory of an evaluation at any plan size (issue 17 §3). The
 * simulator runs in its own process (load/sim-process.ts, the built-in profiles at time_scale 1e-6:
 * a full answer in well under a millisecond); chatbench runs as a user runs it
 * (`node bin/chatbench.js eval`, full mode, no --max-old-space-size) in a child whose RSS is read
 * from /proc every 50 ms (VmRSS, and the kernel's high-water mark VmHWM): planned sizes 20k, 200k
 * and 1,000,000, then a resume of the largest run after a SIGKILL at 10% of its records.
 * Then `chatbench load --mode full --rate 1000 --duration 20s --workers 2` (issue 24 §3), three
 * rounds, its whole process's VmHWM beside what its generator.json says it sent, dropped and reached.
 * `--quick`: 5k and 20k (and the resume of 20k), and one 3 s load round at 200/s, to check the
 * benchmark works; `--sizes a,b,…` other sizes (multiples of 1,000; the largest is killed and
 * resumed, unless `--no-resume`); `--load-rounds N` (0: no load table); `--only eval|load`. Writes
 * reports/bench/memory.json and memory.md and prints the table. Bounded: every child is killed
 * past its own deadline, and the whole benchmark past DEADLINE_MS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_TOKEN } from '../../src/sim/index.js';
import { runLoadMemory, type LoadMemoryRow } from './lib/load-memory.js';
import { runMemoryTable, type MemoryRow } from './lib/memory-run.js';
import { startSimProcess } from './load/sim-process.js';

const QUICK = process.argv.includes('--quick');
const ROOT = resolve(import.meta.dirname, '../..');
/** Distinct questions of the generated dataset; a plan of N requests asks each N / QUESTIONS times. */
const QUESTIONS = 1_000;
// --quick is small because a full-mode eval against the simulator runs at a few hundred requests a
// second on a shared 2-core machine (about 1,000/s on a quiet one): 200k alone would take minutes.
/** `--sizes 20000,200000`: other planned sizes (the largest is the one killed and resumed). */
const SIZES_FLAG = process.argv.includes('--sizes') ? (process.argv[process.argv.indexOf('--sizes') + 1] ?? '') : null;
const SIZES =
  SIZES_FLAG !== null
    ? SIZES_FLAG.split(',')
        .map((s) => Number(s.trim()))
        .filter((n) => Number.isInteger(n) && n > 0)
        .sort((a, b) => a - b)
    : QUICK
      ? [5_000, 20_000]
      : [20_000, 200_000, 1_000_000];
/** `--no-resume`: skip the kill-and-resume of the largest size (it doubles the benchmark's time). */
const RESUME = !process.argv.includes('--no-resume');
const flag = (name: string): string | undefined =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const ONLY = flag('--only') ?? null;
if (ONLY !== null && ONLY !== 'eval' && ONLY !== 'load') throw new Error(`--only "${ONLY}": give eval or load`);
/** `load --workers 2` at 1,000/s for 20 s, as issue 24 §3 asks; --quick checks the table works. */
const LOAD = QUICK ? { workers: 2, rate: 200, durationS: 3 } : { workers: 2, rate: 1_000, durationS: 20 };
const LOAD_ROUNDS = ONLY === 'eval' ? 0 : Number(flag('--load-rounds') ?? (QUICK ? 1 : 3));
if (!Number.isInteger(LOAD_ROUNDS) || LOAD_ROUNDS < 0) throw new Error('--load-rounds: give a whole number, 0 or more');
if (SIZES.length === 0)
  throw new Error(`--sizes "${SIZES_FLAG}": give planned sizes separated by commas, e.g. 20000,200000`);
const CONCURRENCY = 64;
const DEADLINE_MS = QUICK ? 600_000 : 4 * 3_600_000;
const load = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

async function main(): Promise<void> {
  const loadBefore = load();
  const work = await mkdtemp(join(tmpdir(), 'chatbench-memory-'));
  const dataset = join(work, 'questions.csv');
  writeFileSync(
    dataset,
    `id,question\n${Array.from({ length: QUESTIONS }, (_, i) => `m${String(i).padStart(4, '0')},What does the travel policy say about case ${i}?`).join('\n')}\n`,
  );
  const sim = await startSimProcess({ chat: { time_scale: 1e-6 } });
  const children = new Set<ChildProcess>();
  const deadline = setTimeout(() => {
    console.error(`bench:memory: over its ${DEADLINE_MS / 1000} s bound, stopping`);
    process.exitCode = 1;
    for (const child of children) child.kill('SIGKILL');
  }, DEADLINE_MS);
  deadline.unref();
  let rows: MemoryRow[] = [];
  let loadRows: LoadMemoryRow[] = [];
  const spawnChatbench = (command: string, args: string[]) => {
    const child = spawn(process.execPath, ['bin/chatbench.js', command, '--base-url', sim.baseUrl, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', CHATBENCH_TOKEN: DEMO_TOKEN },
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };
  try {
    if (ONLY !== 'load')
      rows = await runMemoryTable({
        sizes: SIZES,
        questions: QUESTIONS,
        concurrency: CONCURRENCY,
        resumeOf: RESUME ? SIZES[SIZES.length - 1]! : null,
        killAt: 0.1,
        spawnEval: (args) =>
          spawnChatbench('eval', [
            '--dataset',
            dataset,
            '--mode',
            'full',
            '--concurrency',
            String(CONCURRENCY),
            ...args,
          ]),
        outDir: (name) => join(work, name),
        log: (line) => console.log(line),
      });
    if (LOAD_ROUNDS > 0)
      loadRows = await runLoadMemory({
        ...LOAD,
        rounds: LOAD_ROUNDS,
        spawnLoad: (args) => spawnChatbench('load', ['--dataset', dataset, ...args]),
        outDir: (name) => join(work, name),
        log: (line) => console.log(line),
      });
  } finally {
    clearTimeout(deadline);
    await sim.close();
    await rm(work, { recursive: true, force: true });
  }
  const report = {
    generated_at: new Date().toISOString(),
    quick: QUICK,
    machine: {
      cores: cpus().length,
      cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
      node: process.version,
      load_before: loadBefore,
      load_after: load(),
    },
    method: `chatbench eval --mode full --concurrency ${CONCURRENCY} against the simulator in its own process (time_scale 1e-6), ${QUESTIONS} questions × repeats; RSS from /proc every 50 ms`,
    rows,
    load_method: `chatbench load --mode full --rate ${LOAD.rate} --duration ${LOAD.durationS}s --workers ${LOAD.workers} against the same simulator; VmHWM of the whole process (every thread) from /proc every 50 ms`,
    load_rows: loadRows,
  };
  mkdirSync(join(ROOT, 'reports/bench'), { recursive: true });
  writeFileSync(join(ROOT, 'reports/bench/memory.json'), `${JSON.stringify(report, null, 2)}\n`);
  const md = renderMarkdown(report);
  writeFileSync(join(ROOT, 'reports/bench/memory.md'), md);
  console.log(md);
  console.log('wrote reports/bench/memory.json and reports/bench/memory.md');
}

function renderMarkdown(report: {
  generated_at: string;
  quick: boolean;
  machine: { cores: number; cpu_model: string; node: string; load_before: number; load_after: number };
  method: string;
  rows: MemoryRow[];
  load_method: string;
  load_rows: LoadMemoryRow[];
}): string {
  const m = report.machine;
  const n = (x: number) => x.toLocaleString('en-US');
  return [
    `# Memory at any plan size${report.quick ? ' (--quick)' : ''}`,
    '',
    `${report.generated_at}; ${m.cores} cores (${m.cpu_model}), Node ${m.node}, load average ${m.load_before} before, ${m.load_after} after.`,
    ...(report.rows.length === 0
      ? []
      : [
          `Method: ${report.method}. Target: flat, under 300 MB.`,
          '',
          '| run | planned | records | time | rate | peak RSS (VmHWM) | RSS at 50% / 90% of records | results.jsonl |',
          '|---|---:|---:|---:|---:|---:|---:|---:|',
          ...report.rows.map(
            (r) =>
              `| ${r.run} | ${n(r.planned)} | ${n(r.records)} | ${r.seconds} s | ${n(r.per_second)}/s | ${r.peak_rss_mb} MB | ${r.rss_at_half_mb ?? '–'} / ${r.rss_at_90_mb ?? '–'} MB | ${r.results_mb} MB |`,
          ),
          '',
        ]),
    ...(report.load_rows.length === 0
      ? []
      : [
          `Load: ${report.load_method}. Target: under 300 MB at the asked rate.`,
          '',
          '| round | peak RSS (VmHWM) | sent / planned | reached | dropped | late sends | schedule lag p99 | load average |',
          '|---:|---:|---:|---:|---:|---:|---:|---:|',
          ...report.load_rows.map(
            (r) =>
              `| ${r.round} | ${r.peak_rss_mb} MB | ${n(r.sent)} / ${n(r.planned)} | ${n(r.reached_per_s)}/s | ${n(r.dropped)} | ${n(r.late_sends)} | ${r.schedule_lag_p99_ms ?? '–'} ms | ${r.load_average} |`,
          ),
          '',
        ]),
  ].join('\n');
}

await main();

/**
 * `npm run bench:dataset-memory`: peak memory (the kernel's high-water RSS, from each child's own
 * resource usage at exit) of `chatbench validate` and of `chatbench eval` on generated CSVs of
 * 10,000, 100,000 and 1,000,000 questions (about 64 MB at a million), each in its own Node process
 * without --max-old-space-size (issue 23 item 3), so that the slope shows. The eval builds its whole
 * plan (validation, the row index, the plan digest, the manifest), then runs against the simulator
 * (its own process, answers at time_scale 1e-6) and is stopped with SIGINT SEND_SECONDS after its
 * first send: the first ten to twenty thousand requests are sent, recorded and reported. The load
 * (`load --rate LOAD_RATE --duration LOAD_SECONDS --question-order random`, one thread) validates and
 * indexes the whole dataset, builds its plan over every row and sends a few hundred requests drawn
 * from all of them, then finishes on its own.
 *
 * `--rows a,b,…` other sizes; `--root DIR` measures another checkout of chatbench (built, e.g. main,
 * for the figures before a change); `--send-seconds N`; `--commands validate,eval,load` (all three by default);
 * `--trace DIR` (each child's memory every 250 ms, its major collections and its stderr, timestamped);
 * `--malloc-env` (glibc's arenas and trim threshold set: MALLOC_ENV). Writes reports/bench/dataset-memory.json and
 * prints the table. Bounded: each child is killed after CHILD_DEADLINE_MS.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { DEMO_TOKEN } from '../../src/sim/index.js';
import { startSimProcess } from './load/sim-process.js';

const arg = (name: string): string | undefined =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const HERE = resolve(import.meta.dirname, '../..');
const ROOT = resolve(arg('--root') ?? HERE);
const SIZES = (arg('--rows') ?? '10000,100000,1000000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const SEND_SECONDS = Number(arg('--send-seconds') ?? 15);
const CONCURRENCY = 32;
const COMMANDS = new Set((arg('--commands') ?? 'validate,eval,load').split(','));
const LOAD_RATE = 100;
const LOAD_SECONDS = 3;
const CHILD_DEADLINE_MS = 25 * 60_000;
const load = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/** Preloaded into each child: prints its peak RSS (KiB) as the last line of stderr when it exits. */
const MAX_RSS_HOOK = `process.on('exit', () => process.stderr.write('\\nmax_rss_kib=' + process.resourceUsage().maxRSS + '\\n'));\n`;
/** `--trace DIR`: each child also writes DIR/PID.log, its memory every 250 ms, its major collections and its stderr lines, each with seconds since its start. */
const TRACE_DIR = arg('--trace');
const TRACE_HOOK = (dir: string): string => `
const fs = require('node:fs');
const t0 = Date.now();
const fd = fs.openSync(${JSON.stringify(dir)} + '/' + process.pid + '.log', 'w');
const line = (text) => fs.writeSync(fd, ((Date.now() - t0) / 1000).toFixed(2) + ' ' + text + '\\n');
const mb = (bytes) => Math.round(bytes / 1048576);
setInterval(() => {
  const u = process.memoryUsage();
  line('rss=' + mb(u.rss) + ' heapTotal=' + mb(u.heapTotal) + ' heapUsed=' + mb(u.heapUsed) + ' external=' + mb(u.external) + ' arrayBuffers=' + mb(u.arrayBuffers));
}, 250).unref();
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => (line('stderr ' + String(chunk).slice(0, 160).replace(/\\n/g, ' | ')), write(chunk, ...rest));
const { PerformanceObserver, constants } = require('node:perf_hooks');
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) line('major gc ' + e.duration.toFixed(0) + ' ms');
}).observe({ entryTypes: ['gc'] });
`;
/** `--malloc-env`: the children run with glibc's MALLOC_ARENA_MAX=2 and MALLOC_TRIM_THRESHOLD_=131072 (docs/limits.md). */
const MALLOC_ENV = process.argv.includes('--malloc-env')
  ? { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' }
  : {};

async function writeDataset(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,question,expected_documents,category\n');
  for (let i = 0; i < rows; i++) {
    const line = `q${i},What does the travel policy say about case ${i} of the year?,doc-${i % 997}|ref-${i % 991},cat${i % 7}\n`;
    if (!out.write(line)) await new Promise<void>((done) => out.once('drain', () => done()));
  }
  out.end();
  await finished(out);
}

interface Measured {
  name: string;
  rows: number;
  exit: number | null;
  seconds: number;
  peak_rss_mb: number | null;
  /** eval, load: records in results.jsonl when it stopped. */
  sent?: number;
}

/** Runs `args` in a child; `interruptAfter`: SIGINT that many ms after stderr first says `requests,` (the eval's start line). */
async function measure(
  name: string,
  rows: number,
  args: string[],
  hook: string,
  interruptAfter?: number,
): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--require', hook, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', NODE_OPTIONS: '', CHATBENCH_TOKEN: DEMO_TOKEN, ...MALLOC_ENV },
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_DEADLINE_MS);
  let stderr = '';
  let interrupt: NodeJS.Timeout | undefined;
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
    if (interruptAfter !== undefined && interrupt === undefined && /requests?,/.test(stderr))
      interrupt = setTimeout(() => child.kill('SIGINT'), interruptAfter);
  });
  const exit = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  clearTimeout(timer);
  clearTimeout(interrupt);
  const kib = /max_rss_kib=(\d+)/.exec(stderr)?.[1];
  if (exit !== 0 && exit !== 130) console.error(stderr.split('\n').slice(-6).join('\n'));
  return {
    name,
    rows,
    exit,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    peak_rss_mb: kib === undefined ? null : Math.round(Number(kib) / 102.4) / 10,
  };
}

async function main(): Promise<void> {
  const loadBefore = load();
  const work = await mkdtemp(join(tmpdir(), 'chatbench-dataset-memory-'));
  const sim = await startSimProcess({ chat: { time_scale: 1e-6 } });
  const results: Measured[] = [];
  try {
    const hook = join(work, 'max-rss.cjs');
    if (TRACE_DIR !== undefined) mkdirSync(TRACE_DIR, { recursive: true });
    writeFileSync(hook, MAX_RSS_HOOK + (TRACE_DIR === undefined ? '' : TRACE_HOOK(resolve(TRACE_DIR))));
    for (const rows of SIZES) {
      const dataset = join(work, `questions-${rows}.csv`);
      await writeDataset(dataset, rows);
      if (COMMANDS.has('validate'))
        results.push(await measure('validate', rows, ['bin/chatbench.js', 'validate', '--dataset', dataset], hook));
      if (COMMANDS.has('load')) {
        const loadOut = join(work, `load-${rows}`);
        const loadArgs = [
          'bin/chatbench.js',
          'load',
          '--base-url',
          sim.baseUrl,
          '--dataset',
          dataset,
          '--mode',
          'full',
        ];
        loadArgs.push('--rate', String(LOAD_RATE), '--duration', `${LOAD_SECONDS}s`, '--question-order', 'random');
        const run = await measure('load (every row planned)', rows, [...loadArgs, '--out', loadOut], hook);
        results.push({ ...run, sent: linesOf(join(loadOut, 'results.jsonl')) });
        console.log(
          `${rows.toLocaleString('en-US')} rows: load ${run.peak_rss_mb} MB in ${run.seconds} s, ${results.at(-1)!.sent} requests sent, exit ${run.exit}`,
        );
        await rm(loadOut, { recursive: true, force: true });
      }
      if (!COMMANDS.has('eval')) {
        await rm(dataset, { force: true });
        continue;
      }
      const out = join(work, `run-${rows}`);
      const evalArgs = [
        'bin/chatbench.js',
        'eval',
        '--base-url',
        sim.baseUrl,
        '--dataset',
        dataset,
        '--mode',
        'full',
        '--concurrency',
        String(CONCURRENCY),
        '--out',
        out,
      ];
      const run = await measure('eval (whole plan, then SIGINT)', rows, evalArgs, hook, SEND_SECONDS * 1000);
      const sent = linesOf(join(out, 'results.jsonl'));
      results.push({ ...run, sent });
      console.log(
        `${rows.toLocaleString('en-US')} rows (${Math.round(statSync(dataset).size / 1e5) / 10} MB): eval ${run.peak_rss_mb} MB in ${run.seconds} s, ${sent} requests sent, exit ${run.exit}`,
      );
      await rm(out, { recursive: true, force: true });
      await rm(dataset, { force: true });
    }
    const report = {
      generated_at: new Date().toISOString(),
      root: ROOT,
      sizes: SIZES,
      send_seconds: SEND_SECONDS,
      concurrency: CONCURRENCY,
      machine: { cores: cpus().length, node: process.version, load_before: loadBefore, load_after: load() },
      results,
    };
    mkdirSync(join(HERE, 'reports/bench'), { recursive: true });
    writeFileSync(join(HERE, 'reports/bench/dataset-memory.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`load ${loadBefore} → ${report.machine.load_after}`);
    console.log('| rows | command | peak RSS | requests sent | seconds |');
    console.log('|--:|--|--:|--:|--:|');
    for (const r of results)
      console.log(
        `| ${r.rows.toLocaleString('en-US')} | ${r.name} | ${r.peak_rss_mb} MB | ${r.sent ?? '–'} | ${r.seconds} |`,
      );
  } finally {
    await sim.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();

/** Lines of a results.jsonl (0 when there is none: nothing was sent). */
function linesOf(path: string): number {
  let lines = 0;
  try {
    // As bytes: the results of 200,000 distinct questions pass V8's longest string (~512 MB), and a
    // text read threw, so the count read 0.
    for (let at = -1, bytes = readFileSync(path); (at = bytes.indexOf(0x0a, at + 1)) !== -1;) lines += 1;
  } catch {
    // no results.jsonl
  }
  return lines;
}

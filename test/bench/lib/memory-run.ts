/**
 * @module bench/lib/memory-run
 * Peak memory of a large evaluation run through the real use-case (runEval: plan, client, runner,
 * scoring, results.jsonl, then every report), in a fresh child process started with `--expose-gc`
 * so that nothing else this benchmark did sits in its heap. Memory is read two ways:
 * - at checkpoints (e.g. 5k, 10k, 20k records), after a full GC: what the run still holds. Records
 *   stream to disk, so this must stay flat as the run grows;
 * - every 50 ms without GC, and the kernel's max RSS: the peaks, garbage included, split into the
 *   run and the report rendering that follows it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareEval, runEval } from '../../../src/app/eval/run-eval.js';
import { procMemory } from './proc-memory.js';

export interface MemoryRunOptions {
  readonly baseUrl: string;
  readonly token: string;
  /** The repository root: datasets/ is read from here. */
  readonly cwd: string;
  readonly requests: number;
  readonly concurrency: number;
  /** Record counts at which to GC and sample, ascending; the last is usually `requests`. */
  readonly checkpoints: readonly number[];
}

/** Megabytes, to 0.1. */
export interface MemorySample {
  rss_mb: number;
  heap_used_mb: number;
  heap_total_mb: number;
  /** Buffers and other memory outside the JS heap that JS objects hold. */
  external_mb: number;
}

export interface MemoryRun {
  requests: number;
  concurrency: number;
  /** Requests of the run by outcome. */
  outcomes: Record<string, number>;
  run_s: number;
  /** CPU of this process over the run, % of one core. */
  run_cpu_percent: number;
  reports_s: number;
  results_jsonl_mb: number;
  /** Before the first request, the plan built, after a GC. */
  baseline: MemorySample;
  /** After a GC, at each checkpoint (`done` = records written by then). */
  checkpoints: Array<MemorySample & { done: number }>;
  /** Highest values seen by the 50 ms sampler, garbage included. */
  peak_run: { rss_mb: number; heap_used_mb: number };
  peak_reports: { rss_mb: number; heap_used_mb: number };
  /** The kernel's high-water RSS of the process at the end of everything. */
  max_rss_mb: number;
}

export type ToMemory = { type: 'run'; options: MemoryRunOptions };
export type FromMemory =
  { type: 'ready' } | { type: 'result'; result: MemoryRun } | { type: 'failed'; message: string };

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function sample(): MemorySample {
  const m = process.memoryUsage();
  return {
    rss_mb: mb(m.rss),
    heap_used_mb: mb(m.heapUsed),
    heap_total_mb: mb(m.heapTotal),
    external_mb: mb(m.external),
  };
}

/** Runs the measured evaluation; needs `--expose-gc` (throws without it). */
export async function runMemoryRun(options: MemoryRunOptions): Promise<MemoryRun> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('the memory run needs node --expose-gc');
  const inputs = {
    datasetPath: 'datasets/sample.csv',
    setFlags: ['fast=openai:gpt-4o-mini', 'accurate=openai:gpt-4o'],
    mode: 'both' as const,
    cwd: options.cwd,
  };
  // 75 questions × 2 sets × 2 modes = 300 requests per repeat: enough repeats, then cut to size.
  const whole = await prepareEval({ ...inputs, repeat: Math.ceil(options.requests / 300) });
  const plan = [...whole.plan].slice(0, options.requests);
  const prepared = {
    ...whole,
    plan: { ...whole.plan, length: plan.length, total: plan.length, [Symbol.iterator]: () => plan.values() },
    plannedTotal: options.requests,
  };
  const dir = await mkdtemp(join(tmpdir(), 'chatbench-bench-'));
  const peaks = { run: { rss_mb: 0, heap_used_mb: 0 }, reports: { rss_mb: 0, heap_used_mb: 0 } };
  let phase: 'run' | 'reports' = 'run';
  const sampler = setInterval(() => {
    const now = sample();
    peaks[phase].rss_mb = Math.max(peaks[phase].rss_mb, now.rss_mb);
    peaks[phase].heap_used_mb = Math.max(peaks[phase].heap_used_mb, now.heap_used_mb);
  }, 50);
  try {
    gc();
    const baseline = sample();
    const checkpoints: MemoryRun['checkpoints'] = [];
    const pending = [...options.checkpoints];
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    let runCpuMs = 0;
    let runEnded = started;
    const result = await runEval(
      {
        ...inputs,
        repeat: 1,
        baseUrl: options.baseUrl,
        token: options.token,
        target: 'simulator',
        concurrency: options.concurrency,
        timeoutMs: 60_000,
        retries: 0,
        retry429: false,
        outDir: join(dir, 'run'),
        graceMs: 1_000,
        signal: new AbortController().signal,
        version: 'bench',
        onProgress: (p) => {
          while (pending[0] !== undefined && p.done >= pending[0]) {
            pending.shift();
            gc();
            checkpoints.push({ done: p.done, ...sample() });
          }
          if (p.done === p.total && phase === 'run') {
            phase = 'reports';
            runEnded = performance.now();
            const cpu = process.cpuUsage(cpuStart);
            runCpuMs = (cpu.user + cpu.system) / 1000;
          }
        },
      },
      prepared,
    );
    const reportsEnded = performance.now();
    const jsonl = await stat(join(result.outDir, 'results.jsonl'));
    return {
      requests: prepared.plan.length,
      concurrency: options.concurrency,
      outcomes: Object.fromEntries(Object.entries(result.run.outcomes).filter(([, n]) => n > 0)),
      run_s: Math.round((runEnded - started) / 100) / 10,
      run_cpu_percent: Math.round((runCpuMs / (runEnded - started)) * 100),
      reports_s: Math.round((reportsEnded - runEnded) / 100) / 10,
      results_jsonl_mb: mb(jsonl.size),
      baseline,
      checkpoints,
      peak_run: peaks.run,
      peak_reports: peaks.reports,
      max_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    };
  } finally {
    clearInterval(sampler);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The child's main: one run on request, then exit. */
export function runMemoryChild(): void {
  const send = (message: FromMemory): void => void process.send?.(message);
  process.once('message', (message: ToMemory) => {
    runMemoryRun(message.options)
      .then(
        (result) => send({ type: 'result', result }),
        (error: unknown) =>
          send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      )
      .finally(() => process.disconnect());
  });
  send({ type: 'ready' });
}

/** One row of `npm run bench:memory`: a whole `chatbench eval` process, as a user runs it. */
export interface MemoryRow {
  /** `20k`, `resume of 1M after a kill at 10%`, ... */
  run: string;
  planned: number;
  /** Lines in results.jsonl when the process ended. */
  records: number;
  seconds: number;
  /** Records written per second over the process's life. */
  per_second: number;
  /** The kernel's high-water RSS of the process (VmHWM), MB. */
  peak_rss_mb: number;
  /** VmRSS when results.jsonl reached half and 90% of what this process was to write; null if never. */
  rss_at_half_mb: number | null;
  rss_at_90_mb: number | null;
  results_mb: number;
  exit_code: number | null;
}

export interface MemoryTableOptions {
  readonly sizes: readonly number[];
  readonly questions: number;
  readonly concurrency: number;
  /** The size killed at `killAt` and resumed; null: none. */
  readonly resumeOf: number | null;
  readonly killAt: number;
  /** Starts `chatbench eval` with these extra arguments (its stderr piped). */
  spawnEval(args: string[]): ChildProcess;
  outDir(name: string): string;
  log(line: string): void;
}

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);

/** Every size once, then the kill at `killAt` and the resume of `resumeOf`. */
export async function runMemoryTable(options: MemoryTableOptions): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  for (const size of options.sizes) {
    const out = options.outDir(`run-${size}`);
    const row = await watchEval(
      options,
      size,
      ['--repeat', String(size / options.questions), '--out', out],
      join(out, 'results.jsonl'),
      { run: label(size), expect: size },
    );
    rows.push(row);
    options.log(
      `${row.run}: ${row.records} records in ${row.seconds} s, peak RSS ${row.peak_rss_mb} MB (exit ${row.exit_code})`,
    );
    await rm(out, { recursive: true, force: true });
  }
  const size = options.resumeOf;
  if (size === null) return rows;
  const out = options.outDir(`resume-${size}`);
  const args = ['--repeat', String(size / options.questions)];
  const killed = await watchEval(options, size, [...args, '--out', out], join(out, 'results.jsonl'), {
    run: `${label(size)}, killed at ${options.killAt * 100}%`,
    expect: size,
    killAt: Math.ceil(size * options.killAt),
  });
  rows.push(killed);
  options.log(`${killed.run}: ${killed.records} records in ${killed.seconds} s, peak RSS ${killed.peak_rss_mb} MB`);
  const resumed = await watchEval(options, size, [...args, '--resume', out], join(out, 'results.jsonl'), {
    run: `resume of ${label(size)}`,
    expect: size,
    from: killed.records,
  });
  rows.push(resumed);
  options.log(
    `${resumed.run}: ${resumed.records} records in ${resumed.seconds} s, peak RSS ${resumed.peak_rss_mb} MB (exit ${resumed.exit_code})`,
  );
  await rm(out, { recursive: true, force: true });
  return rows;
}

/** Runs one eval child to its end (or kills it at `killAt` lines), sampling its memory every 50 ms. */
async function watchEval(
  options: MemoryTableOptions,
  planned: number,
  args: string[],
  results: string,
  what: { run: string; expect: number; killAt?: number; from?: number },
): Promise<MemoryRow> {
  const started = performance.now();
  const child = options.spawnEval(args);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const from = what.from ?? 0;
  const toWrite = what.expect - from;
  let lines = from;
  let offset = 0;
  let peak = 0;
  let half: number | null = null;
  let ninety: number | null = null;
  let killed = false;
  const buffer = Buffer.alloc(1 << 20);
  let ended = false;
  void exit.then(() => {
    ended = true;
  });
  // The existing lines of a resumed run are counted in `from`, not read again.
  if (from > 0) offset = (await stat(results)).size;
  while (!ended) {
    await new Promise((done) => setTimeout(done, 50));
    const memory = child.pid === undefined ? null : procMemory(child.pid);
    if (memory !== null) peak = Math.max(peak, memory.hwm);
    const handle = await open(results, 'r').catch(() => undefined);
    if (handle !== undefined) {
      try {
        for (;;) {
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
          if (bytesRead === 0) break;
          offset += bytesRead;
          for (let i = buffer.indexOf(0x0a); i !== -1 && i < bytesRead; i = buffer.indexOf(0x0a, i + 1)) lines += 1;
        }
      } finally {
        await handle.close();
      }
    }
    if (memory !== null && half === null && lines - from >= toWrite * 0.5) half = memory.rss;
    if (memory !== null && ninety === null && lines - from >= toWrite * 0.9) ninety = memory.rss;
    if (what.killAt !== undefined && !killed && lines >= what.killAt) {
      killed = true;
      child.kill('SIGKILL');
    }
  }
  const code = await exit;
  if (!killed && code !== 0) options.log(`${what.run}: chatbench exited ${code}:\n${stderr}`);
  const seconds = (performance.now() - started) / 1000;
  const size = await stat(results).then(
    (s) => s.size,
    () => 0,
  );
  return {
    run: what.run,
    planned,
    records: lines,
    seconds: Math.round(seconds * 10) / 10,
    per_second: Math.round((lines - from) / seconds),
    peak_rss_mb: peak,
    rss_at_half_mb: half,
    rss_at_90_mb: ninety,
    results_mb: mb(size),
    exit_code: code,
  };
}

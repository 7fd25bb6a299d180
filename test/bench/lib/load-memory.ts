/**
 * @module bench/lib/load-memory
 * Peak memory of `chatbench load --workers N` at a fixed open-loop rate (issue 24 §3: "`load
 * --workers 2` at 1,000/s under 300 MB"), for `npm run bench:memory`. The generator runs as a user
 * runs it, in a child whose kernel high-water RSS (VmHWM: the main thread and every worker, one
 * process) is read from /proc every 50 ms. A peak means little without the load that made it, so
 * each row also carries what the run's generator.json says it did: sent, dropped at the in-flight
 * cap, late sends, the schedule lag and the rate actually reached.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { GeneratorHealthSchema } from '../../../src/records/generator-health.js';
import { procMemory } from './proc-memory.js';

export interface LoadMemoryRow {
  round: number;
  workers: number;
  /** Asked arrivals a second, and for how long. */
  rate: number;
  duration_s: number;
  /** The kernel's high-water RSS of the whole process (every thread), MB. */
  peak_rss_mb: number;
  planned: number;
  sent: number;
  dropped: number;
  late_sends: number;
  schedule_lag_p99_ms: number | null;
  /** Sent ÷ the schedule's length. */
  reached_per_s: number;
  /** 1-minute load average when the round started. */
  load_average: number;
  exit_code: number | null;
}

export interface LoadMemoryOptions {
  readonly rounds: number;
  readonly workers: number;
  readonly rate: number;
  readonly durationS: number;
  /** Starts `chatbench load` with these extra arguments (its stderr piped). */
  spawnLoad(args: string[]): ChildProcess;
  outDir(name: string): string;
  log(line: string): void;
}

export async function runLoadMemory(options: LoadMemoryOptions): Promise<LoadMemoryRow[]> {
  const rows: LoadMemoryRow[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const out = options.outDir(`load-${round}`);
    const loadAverage = Math.round((loadavg()[0] ?? 0) * 100) / 100;
    const child = options.spawnLoad([
      '--mode',
      'full',
      '--rate',
      String(options.rate),
      '--duration',
      `${options.durationS}s`,
      '--workers',
      String(options.workers),
      '--out',
      out,
    ]);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    let ended = false;
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    void exit.then(() => {
      ended = true;
    });
    let peak = 0;
    while (!ended) {
      await new Promise((done) => setTimeout(done, 50));
      const memory = child.pid === undefined ? null : procMemory(child.pid);
      if (memory !== null) peak = Math.max(peak, memory.hwm);
    }
    const code = await exit;
    // A failed run has no generator.json to read: say why and stop, rather than print a row of zeros.
    if (code !== 0 && code !== 1) throw new Error(`chatbench load exited ${code} in round ${round}:\n${stderr}`);
    const health = GeneratorHealthSchema.parse(JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')));
    const row: LoadMemoryRow = {
      round,
      workers: options.workers,
      rate: options.rate,
      duration_s: options.durationS,
      peak_rss_mb: peak,
      planned: health.planned_arrivals,
      sent: health.sent,
      dropped: health.dropped.length,
      late_sends: health.late_sends,
      schedule_lag_p99_ms: health.schedule_lag_ms?.p99 ?? null,
      reached_per_s: Math.round(health.sent / ((health.schedule_ms ?? health.duration_ms) / 1000)),
      load_average: loadAverage,
      exit_code: code,
    };
    rows.push(row);
    options.log(
      `load --workers ${row.workers} at ${row.rate}/s, round ${round}: peak RSS ${row.peak_rss_mb} MB, sent ${row.sent} of ${row.planned} (${row.reached_per_s}/s), dropped ${row.dropped}, load average ${row.load_average}`,
    );
  }
  return rows;
}

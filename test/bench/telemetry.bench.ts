/**
 * `npm run bench:telemetry` (also at the end of `bench:load`; issue 28 §5): what the live series
 * cost the load generator. The same `chatbench load` run (streamed, 200/s, 4 s, a simulator in its
 * own process with delays scaled to ~0) with no telemetry flag and with `--metrics-listen` scraped
 * every second by this process and `--dashboard` polled every second as its page does, in
 * alternating rounds; CPU per request from each run's
 * generator.json (the process's CPU between the first send and the last byte, every thread), the
 * median of each arm, and the paired ratio on ÷ off per round. Target: within 5% (≤ 1.05×).
 * Flags: --quick (2 rounds of 2 s). Bounded: a fixed number of runs. Writes reports/bench/telemetry.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './load/judge.js';
import { startSimProcess } from './load/sim-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 2 : 5;
const DURATION = QUICK ? '2s' : '4s';
const RATE = 200;

const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

/** One `chatbench load` run; with ports, a scraper reads its /metrics and its dashboard's /api/snapshot every second. Resolves to CPU ms per sent request. */
async function run(
  baseUrl: string,
  ports: { metrics: number; dashboard: number } | null,
): Promise<{ cpuPerRequestMs: number; sent: number; scrapes: number }> {
  const metricsPort = ports?.metrics ?? null;
  const out = join(mkdtempSync(join(tmpdir(), 'chatbench-telemetry-bench-')), 'run');
  const args = [
    'bin/chatbench.js',
    'load',
    '--base-url',
    baseUrl,
    '--token',
    'onyx_pat_chatbench_demo',
    '--dataset',
    'datasets/sample.csv',
    '--rate',
    String(RATE),
    '--duration',
    DURATION,
    '--connections',
    '16',
    '--workers',
    '1',
    '--out',
    out,
    ...(ports === null
      ? []
      : [
          '--metrics-listen',
          `127.0.0.1:${ports.metrics}`,
          '--dashboard',
          `127.0.0.1:${ports.dashboard}`,
          '--dashboard-linger',
          '0',
        ]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  let scrapes = 0;
  const scraper =
    metricsPort === null
      ? undefined
      : setInterval(() => {
          void fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
            async (r) => {
              await r.text();
              if (r.ok) scrapes += 1;
            },
            () => {},
          );
          void fetch(`http://127.0.0.1:${ports!.dashboard}/api/snapshot`).then(
            (r) => r.text(),
            () => {},
          );
        }, 1000);
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  clearInterval(scraper);
  if (code !== 0) throw new Error(`chatbench load exited ${code}:\n${stderr}`);
  const g = JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')) as {
    sent: number;
    cpu_user_ms: number;
    cpu_system_ms: number;
  };
  return { cpuPerRequestMs: (g.cpu_user_ms + g.cpu_system_ms) / g.sent, sent: g.sent, scrapes };
}

const sim = await startSimProcess({ chat: { time_scale: 1e-6 } });
const rounds: Array<{ off: number; on: number; ratio: number; scrapes: number }> = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    // Alternating order, so a machine getting busier favours neither arm.
    const ports = { metrics: await freePort(), dashboard: await freePort() };
    const [first, second] = r % 2 === 0 ? [null, ports] : [ports, null];
    const a = await run(sim.baseUrl, first);
    const b = await run(sim.baseUrl, second);
    const [off, on] = first === null ? [a, b] : [b, a];
    rounds.push({
      off: off.cpuPerRequestMs,
      on: on.cpuPerRequestMs,
      ratio: on.cpuPerRequestMs / off.cpuPerRequestMs,
      scrapes: on.scrapes,
    });
    console.log(
      `round ${r + 1}: off ${off.cpuPerRequestMs.toFixed(3)} ms/req, --metrics-listen --dashboard ${on.cpuPerRequestMs.toFixed(3)} ms/req (${on.scrapes} scrapes), ×${(on.cpuPerRequestMs / off.cpuPerRequestMs).toFixed(3)}`,
    );
  }
} finally {
  await sim.close();
}
const result = {
  rate: RATE,
  duration: DURATION,
  rounds,
  load_average: loadavg(),
  off_ms_per_request: median(rounds.map((r) => r.off))!,
  on_ms_per_request: median(rounds.map((r) => r.on))!,
  ratio_median: median(rounds.map((r) => r.ratio))!,
};
mkdirSync(join(ROOT, 'reports', 'bench'), { recursive: true });
writeFileSync(join(ROOT, 'reports', 'bench', 'telemetry.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `median CPU per request: off ${result.off_ms_per_request.toFixed(3)} ms, on ${result.on_ms_per_request.toFixed(3)} ms; paired ratio median ×${result.ratio_median.toFixed(3)} (target ≤ 1.05); load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

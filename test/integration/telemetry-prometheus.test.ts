/**
 * `load --metrics-listen` and `--metrics-remote-write` against Debian's real Prometheus (issue 28):
 * one Prometheus on a loopback port scrapes the run's /metrics (job `scrape`, every second) and
 * takes its remote write (job `chatbench`, set by the writer); after a short run against the
 * simulator, PromQL over the HTTP API gives the request counts by outcome of summary.json and a
 * TTFT p50 in the bucket of the run's own, from both. Skipped where prometheus is not installed
 * (.ci/run installs the `prometheus` package).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { waitFor } from '../helpers/spawn-cli.js';
import { bucketOf } from '../../src/telemetry/series.js';

const PROMETHEUS = '/usr/bin/prometheus';
const hasPrometheus = existsSync(PROMETHEUS);
if (!hasPrometheus) console.warn(`skipped: ${PROMETHEUS} is absent (Debian's prometheus package; .ci/run installs it)`);

/** A port free now (the system's pick for port 0), for a config written before the listener starts. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const dir = mkdtempSync(join(tmpdir(), 'chatbench-prom-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function query(
  base: string,
  promql: string,
): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as {
    status: string;
    data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
  };
  expect(body.status).toBe('success');
  return body.data.result;
}

describe.skipIf(!hasPrometheus)('Prometheus scrape and remote write (Debian prometheus)', () => {
  it("PromQL gives the run's counts by outcome and its TTFT p50 within a bucket, from the scrape and from the remote write", async () => {
    const [metricsPort, promPort] = [await freePort(), await freePort()];
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: scrape\n    static_configs:\n      - targets: ['127.0.0.1:${metricsPort}']\n`,
    );
    const prom = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        '--web.enable-remote-write-receiver',
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let promLog = '';
    prom.stderr.on('data', (b: Buffer) => (promLog += b.toString()));
    onTestFinished(() => void prom.kill('SIGKILL'));
    const base = `http://127.0.0.1:${promPort}`;
    let ready = false;
    const poll = setInterval(
      () =>
        void fetch(`${base}/-/ready`).then(
          (r) => (ready = r.ok),
          () => {},
        ),
      100,
    );
    await waitFor(
      () => ready,
      () => `prometheus ready (${promLog})`,
    ).finally(() => clearInterval(poll));
    // Its scrape loop running before the run starts (a first scrape of the still closed port: up 0):
    // Prometheus starts a new target's loop at an offset of up to an interval, and a 2 s run that
    // began before it could end unscraped, with no scraper for the metrics server to wait for.
    let scraping = false;
    const scrapes = setInterval(
      () =>
        void query(base, 'up{job="scrape"}').then(
          (r) => (scraping = r.length > 0),
          () => {},
        ),
      100,
    );
    await waitFor(
      () => scraping,
      () => `prometheus scraping (${promLog})`,
    ).finally(() => clearInterval(scrapes));

    const out = join(dir, 'run');
    // In-process: what is tested is what the receiver gets, not a process edge.
    const fake = createFakeIo();
    const code = await main(
      [
        'load',
        '--sim',
        '--dataset',
        'datasets/sample.csv',
        '--rate',
        '8',
        '--duration',
        '2s',
        '--out',
        out,
        '--metrics-listen',
        `127.0.0.1:${metricsPort}`,
        '--metrics-remote-write',
        `${base}/api/v1/write`,
      ],
      fake.io,
    );
    expect(code, fake.stderr()).toBe(0);
    expect(fake.stderr()).not.toMatch(/pushes failed/);

    const measured = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).windows.measured;
    const expected = Object.fromEntries(
      Object.entries(measured.outcomes as Record<string, number>).filter(([, n]) => n > 0),
    );
    const trueP50 = measured.latency.ttft_ms.p50 / 1000;
    for (const job of ['scrape', 'chatbench']) {
      const counts = await query(base, `sum by (outcome) (chatbench_requests_total{job="${job}"}) > 0`);
      expect(Object.fromEntries(counts.map((r) => [r.metric['outcome'], Number(r.value[1])])), job).toEqual(expected);
      const [p50] = await query(
        base,
        `histogram_quantile(0.5, sum by (le) (chatbench_ttft_seconds_bucket{job="${job}"}))`,
      );
      // histogram_quantile interpolates inside the bucket its rank falls in: the true p50's, or next to it when the p50 sits on an edge.
      expect(
        Math.abs(bucketOf(Number(p50!.value[1])) - bucketOf(trueP50)),
        `${job}: ${p50!.value[1]} s vs ${trueP50} s`,
      ).toBeLessThanOrEqual(1);
    }
  }, 180_000); // against a hang: two 60 s waits for Prometheus on a busy machine, then the run
});

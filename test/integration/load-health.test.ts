/**
 * `chatbench load --health-probe` end to end, in-process through main(), over real loopback HTTP:
 * the load against the simulator, the probe against a small node:http server standing for the
 * service's `/health/ready`, which answers 200 and then, mid-run, 503 with v4.7's body. The 503s
 * land in timeline.csv, summary.json, the terminal summary, report.html, and a gate on them fails.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { LoadSummarySchema } from '../../src/records/load-summary.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const SATURATED = {
  error_code: 'SERVICE_UNAVAILABLE',
  detail: 'Request threadpool saturated for 12.3s (5 requests queued)',
};

/** Answers GET /health/ready 200 to the first `healthy` probes, then 503 with the service's body. */
async function readiness(healthy: number): Promise<{ url: string; probes: () => number }> {
  let probes = 0;
  const server = createServer((req, res) => {
    if (req.url !== '/health/ready') return void res.writeHead(404).end();
    probes += 1;
    const ok = probes <= healthy;
    res
      .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
      .end(JSON.stringify(ok ? { success: true, message: 'ok' } : SATURATED));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  onTestFinished(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health/ready`, probes: () => probes };
}

describe('chatbench load --health-probe', () => {
  it('records the readiness probe turning 503 mid-run in the timeline, the summary and the reports', async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.05 } } });
    const probe = await readiness(4);
    const out = join(mkdtempSync(join(tmpdir(), 'chatbench-health-')), 'run');
    const fake = createFakeIo();
    const code = await main(
      [
        'load',
        '--dataset',
        'datasets/sample.csv',
        '--out',
        out,
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--rate',
        '10',
        '--duration',
        '1500ms',
        '--health-probe',
        probe.url,
        '--health-interval',
        '250ms',
        '--gate',
        'health_failures <= 0',
      ],
      fake.io,
    );
    expect(code, fake.stderr()).toBe(1); // the gate on the probe failed; the requests did not
    const summary = LoadSummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    const h = summary.health!;
    expect(h.path).toBe(probe.url);
    expect(h.probes).toBeGreaterThanOrEqual(5);
    expect(h.statuses['200']).toBe(4);
    expect(h.failures).toBe(h.probes - 4);
    expect(h.statuses['503']).toBe(h.failures);
    expect(h.first_failure).toBe('503: SERVICE_UNAVAILABLE Request threadpool saturated for 12.3s (5 requests queued)');
    expect(h.health_ms?.count).toBe(h.probes);
    expect(summary.windows.measured.outcomes.ok).toBe(15);

    const csv = readFileSync(join(out, 'timeline.csv'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const header = csv[0]!;
    const col = (name: string) => header.indexOf(name);
    expect(col('health_status')).toBeGreaterThan(0);
    const statuses = csv.slice(1).map((r) => r[col('health_status')]);
    const samples = (
      JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')) as {
        health_probe: { samples: Array<{ offset_ms: number; status: number }> };
      }
    ).health_probe.samples;
    expect(statuses[0], JSON.stringify(samples)).toBe('200');
    expect(statuses).toContain('503');
    expect(csv.slice(1).reduce((n, r) => n + Number(r[col('health_failures')]), 0)).toBeGreaterThanOrEqual(h.failures);

    expect(fake.stdout()).toMatch(
      /health .*\/health\/ready, every 250 ms \(measured window\): \d+ probes, \d+ failed \(200 4, 503 \d+\)/,
    );
    expect(fake.stdout()).toContain('first failing probe at');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('data-chart="health"');
    expect(html).toMatch(/class="health-failure" data-second="\d+" data-status="503"/);
    const generator = JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')) as {
      health_probe: { samples: unknown[] };
    };
    expect(generator.health_probe.samples).toHaveLength(probe.probes());
  });

  it('refuses a probe path that is neither a path nor a URL, before anything is sent', async () => {
    const fake = createFakeIo();
    const code = await main(
      [
        'load',
        '--sim',
        '--dataset',
        'datasets/sample.csv',
        '--rate',
        '1',
        '--duration',
        '1s',
        '--health-probe',
        'health',
      ],
      fake.io,
    );
    expect(code).toBe(2);
    expect(fake.stderr()).toContain('--health-probe "health": give a path starting with /');
  });
});

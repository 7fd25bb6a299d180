/**
 * The readiness probe against the simulator's own `GET /health/ready` (sim/threadpool), end to end:
 * a request thread pool of 2 that queues what it cannot take, saturated by a load of long answers,
 * answers 503 with the service's body once saturated for 200 ms. `load --health-probe` records the
 * 503s in the timeline and the summary; `capacity` stops at the step whose probe failed, naming it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { LoadSummarySchema } from '../../src/records/load-summary.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

// A pool of 2 and answers of ~0.5–1 s (time scale 0.2): a few requests a second saturate it.
const SATURATING = {
  chat: { time_scale: 0.2 },
  threadpool: { size: 2, unready_after_ms: 200, unready_queue_depth: 1, queue_requests: true },
};

// Two answered and four queued: the pool reads saturated at every probe until the last answers,
// however late a loaded machine sends each next request. With two queued, two answers that ended
// before the next sends left none queued at a probe, which reset the streak: a CI run at full load
// saw no 503. The run ends with three rounds of answers to wait for, not a drained queue of ten.
const SIX_IN_FLIGHT = ['--max-in-flight', '6'];

// The load's answers ~1.25–2.5 s (time scale 0.5): the queue then holds a waiter for ~4 s, where
// answers of ~0.5–1 s held one for ~1.5 s, and a clean clone's CI run (every cache cold, the fork
// paused for long stretches, the paced answers then ending together) saw no two saturated probes
// 200 ms apart in it (session 53).
const SATURATING_SLOWLY = { ...SATURATING, chat: { time_scale: 0.5 } };

// Side by side: each its own simulator and directory, and each mostly waits on its answers.
describe.concurrent('the readiness probe against the simulator', () => {
  it("load --health-probe /health/ready: the saturated pool's 503s in timeline.csv and summary.json", async ({
    onTestFinished,
  }) => {
    const sim = await startSim({ config: SATURATING_SLOWLY }, onTestFinished);
    const out = join(mkdtempSync(join(tmpdir(), 'chatbench-health-sim-')), 'run');
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
        '12',
        '--duration',
        '1s',
        '--health-probe',
        '/health/ready',
        '--health-interval',
        '200ms',
        ...SIX_IN_FLIGHT,
      ],
      fake.io,
    );
    expect(code, fake.stderr()).toBe(0);
    const h = LoadSummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).health!;
    expect(h.statuses['503'] ?? 0, JSON.stringify(h)).toBeGreaterThan(0);
    expect(h.first_failure).toMatch(
      /^503: SERVICE_UNAVAILABLE Request threadpool saturated for \d+\.\ds \(\d+ requests queued\)$/,
    );
    const csv = readFileSync(join(out, 'timeline.csv'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const status = csv[0]!.indexOf('health_status');
    expect(csv.slice(1).map((r) => r[status])).toContain('503');
  });

  it('capacity --health-probe: the step whose readiness probe failed is saturation, and the search stops there', async ({
    onTestFinished,
  }) => {
    const sim = await startSim({ config: SATURATING }, onTestFinished);
    const out = join(mkdtempSync(join(tmpdir(), 'chatbench-health-cap-')), 'run');
    const fake = createFakeIo();
    const code = await main(
      [
        'capacity',
        '--dataset',
        'datasets/sample.csv',
        '--out',
        out,
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--start-rate',
        '12',
        // 2 s, not 1: under load (test:stress) a 1 s step could end before its probes saw the pool
        // saturated for 200 ms, in both steps, and the search stopped at max_steps.
        '--step-duration',
        '2s',
        '--step-warmup',
        '0s',
        '--max-steps',
        '2',
        '--health-probe',
        '/health/ready',
        '--health-interval',
        '200ms',
        ...SIX_IN_FLIGHT,
      ],
      fake.io,
    );
    expect([0, 1], fake.stderr()).toContain(code);
    const capacity = JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')) as { stopped: string };
    expect(capacity.stopped).toBe('unhealthy');
    expect(fake.stdout()).toMatch(/unhealthy: \/health\/ready failed \d+ of \d+ probes \(first: 503/);
  });
});

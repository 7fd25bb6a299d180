/**
 * `chatbench capacity` end to end, in-process through main(), against the simulator behind a
 * gateway limiter of 20 requests per second (issue 5 §5). The simulator runs in its own process.
 * What is checked is what the search decided, which holds on any machine: every step judged by
 * its own figures, the sustainable rate the highest good step, the knee the lowest bad one above
 * it, and nothing above what the limiter lets through. How close the search comes to 20/s on a
 * quiet machine is a benchmark figure (a busy machine bunches arrivals, and a token bucket with a
 * small burst refuses bunched arrivals below its rate), not a test's.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CapacityResultSchema, LoadSummarySchema } from '../../src/records/load-summary.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';
import { startSimProcess } from '../bench/load/sim-process.js';

const LIMIT = 20;

it(
  `searches up to a ${LIMIT}/s gateway limit and judges every step by its own figures`,
  { timeout: 180_000 },
  async () => {
    const sim = await startSimProcess({
      rate_limits: { requests_per_second: { global: { rate: LIMIT, burst: 2 } } },
      chat: { time_scale: 0.02 },
    });
    onTestFinished(() => sim.close());
    const out = join(mkdtempSync(join(tmpdir(), 'chatbench-capacity-')), 'cap');
    const fake = createFakeIo();
    const code = await main(
      [
        'capacity',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        'datasets/sample.csv',
        '--start-rate',
        '12',
        // A second measured per step after its warm-up: 12 arrivals already tell 12/s from 24/s at a 20/s limit.
        '--step-duration',
        '1500ms',
        '--step-warmup',
        '500ms',
        // Four steps: the ramp's 12 and 24/s, then two of the bisection (a fifth would only converge).
        '--max-steps',
        '4',
        '--max-duration',
        '60s',
        '--slo',
        'error_rate<=0.01',
        '--out',
        out,
      ],
      fake.io,
    );
    expect(fake.stderr()).not.toMatch(/E_/);
    expect(code, fake.stderr()).toBe(0);
    const result = CapacityResultSchema.parse(JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')));
    expect(['converged', 'max_steps']).toContain(result.stopped);
    const good = result.steps.filter((step) => step.good);
    const bad = result.steps.filter((step) => !step.good);
    expect(good.length).toBeGreaterThan(0);
    expect(bad.length).toBeGreaterThan(0); // 24/s, the second step, is past the limit on any machine
    expect(result.sustainable).toBe(Math.max(...good.map((step) => step.target)));
    expect(result.knee).toBe(
      Math.min(...bad.filter((step) => step.target > result.sustainable!).map((step) => step.target)),
    );
    // A limiter of 20/s with a burst of 2 cannot accept more, however fast the machine.
    expect(result.sustainable!).toBeLessThanOrEqual(LIMIT * 1.1);
    for (const step of result.steps) {
      // A good step accepted 95% of what was offered within the SLO; a bad one says why, and a step
      // that accepted under 95% is never good.
      const accepted = step.ok_rate_per_s! >= 0.95 * step.offered_rate!;
      if (step.good)
        expect({ target: step.target, accepted, error_rate: step.error_rate, reasons: step.reasons }).toEqual({
          target: step.target,
          accepted: true,
          error_rate: 0,
          reasons: [],
        });
      else expect(step.reasons.length).toBeGreaterThan(0);
      if (!accepted) expect(step.reasons.join(' ')).toMatch(/accepted .* under 95% of the offered/);
    }
    expect(result.steps[0]?.phase).toBe('ramp');
    expect(result.steps.some((s) => s.phase === 'bisect')).toBe(true);
    // Every step is a load run with its own reports.
    const first = LoadSummarySchema.parse(
      JSON.parse(readFileSync(join(out, result.steps[0]!.dir, 'summary.json'), 'utf8')),
    );
    expect(first.windows.measured.rates.offered).toBeCloseTo(12, 0);
    expect(first.windows.warmup.end_ms).toBe(500);
    expect(readFileSync(join(out, 'capacity.html'), 'utf8')).toContain('class="knee"');
    expect(fake.stdout()).toMatch(/highest sustainable: [\d.]+ requests\/s; knee at/);
  },
);

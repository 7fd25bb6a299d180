/**
 * `chatbench capacity` end to end, in-process through main(), against the simulator behind a
 * gateway limiter of 20 requests per second (issue 5 §5): the search must find 20/s within 10%.
 * The simulator runs in its own process: sharing the event loop would bunch its view of the
 * arrivals, and a token bucket with a small burst refuses bunched arrivals below its rate. Short
 * steps (3 s, the first second left out so the bucket's burst is spent) and a fast simulator
 * (time_scale 0.02) keep it bounded; max-steps and max-duration bound it again.
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

it(`finds a ${LIMIT}/s gateway limit within 10%`, { timeout: 90_000 }, async () => {
  const sim = await startSimProcess({ rate_limits: { requests_per_second: { global: { rate: LIMIT, burst: 2 } } }, chat: { time_scale: 0.02 } });
  onTestFinished(() => sim.close());
  const out = join(mkdtempSync(join(tmpdir(), 'chatbench-capacity-')), 'cap');
  const fake = createFakeIo();
  const code = await main(
    [
      'capacity', '--base-url', sim.baseUrl, '--token', TOKENS.demo, '--dataset', 'datasets/sample.csv', '--start-rate', '12',
      '--step-duration', '3s', '--step-warmup', '1s', '--max-steps', '10', '--max-duration', '80s', '--slo', 'error_rate<=0.01', '--out', out,
    ],
    fake.io,
  );
  expect(fake.stderr()).not.toMatch(/E_/);
  expect(code, fake.stderr()).toBe(0);
  const result = CapacityResultSchema.parse(JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')));
  expect(result.stopped).toBe('converged');
  expect(result.sustainable).not.toBeNull();
  expect(result.sustainable!).toBeGreaterThanOrEqual(LIMIT / 1.1);
  expect(result.sustainable!).toBeLessThanOrEqual(LIMIT * 1.1);
  expect(result.knee!).toBeGreaterThan(result.sustainable!);
  // Bad steps were bad for the limiter's 429s, not for errors.
  for (const step of result.steps.filter((s) => !s.good)) expect(step.reasons.join(' ')).toMatch(/accepted .* under 95% of the offered/);
  expect(result.steps[0]?.phase).toBe('ramp');
  expect(result.steps.some((s) => s.phase === 'bisect')).toBe(true);
  // Every step is a load run with its own reports.
  const first = LoadSummarySchema.parse(JSON.parse(readFileSync(join(out, result.steps[0]!.dir, 'summary.json'), 'utf8')));
  expect(first.windows.measured.rates.offered).toBeCloseTo(12, 0);
  expect(first.windows.warmup.end_ms).toBe(1000);
  expect(readFileSync(join(out, 'capacity.html'), 'utf8')).toContain('class="knee"');
  expect(fake.stdout()).toMatch(/highest sustainable: [\d.]+ requests\/s; knee at/);
});

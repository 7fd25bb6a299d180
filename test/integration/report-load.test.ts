/**
 * `chatbench report DIR` on a load run rebuilds its reports (with the run's SLOs and gates) byte for
 * byte, as it does for an eval run.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

it('rebuilds a load run’s reports identically, SLOs and gates included', async () => {
  const sim = await startSim();
  const out = join(mkdtempSync(join(tmpdir(), 'chatbench-report-load-')), 'run');
  const run = createFakeIo();
  const code = await main(
    [
      'load',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      join(import.meta.dirname, '../../datasets/sample.csv'),
      '--rate',
      '20',
      '--duration',
      '2s',
      '--slo',
      'ttft_ms<=5000',
      '--gate',
      'error_rate <= 0.01',
      '--gate',
      'ttft_ms.p99 <= 1',
      '--out',
      out,
    ],
    run.io,
  );
  expect(code).toBe(1);
  expect(run.stderr()).toContain('gate failed: ttft_ms.p99 <= 1');
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  expect(manifest.options).toMatchObject({
    slos: ['ttft_ms<=5000'],
    gates: ['error_rate <= 0.01', 'ttft_ms.p99 <= 1'],
  });
  const files = readdirSync(out).sort();
  expect(files).toEqual([
    'generator.json',
    'manifest.json',
    'report.html',
    'report.md',
    'results.jsonl',
    'summary.json',
    'timeline.csv',
    'verdict.json',
    'viewer.html',
  ]);
  const before = Object.fromEntries(files.map((f) => [f, readFileSync(join(out, f))]));
  const again = createFakeIo();
  expect(await main(['report', out], again.io)).toBe(0);
  for (const f of files) expect({ f, same: readFileSync(join(out, f)).equals(before[f]!) }).toEqual({ f, same: true });
});

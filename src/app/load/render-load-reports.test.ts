import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { parseLoadGateFlag } from '../../gates/load.js';
import { parseSlo } from '../../metrics/load-slo.js';
import { makeRecord } from '../../metrics/test-records.js';
import { LoadSummarySchema } from '../../records/load-summary.js';
import { renderLoadReports } from './render-load-reports.js';

const load = {
  operation: 'chat',
  mode: 'stream',
  model: 'open',
  rate: 10,
  arrival: 'constant',
  max_in_flight: 100,
  connections: null,
  stages: null,
  duration_ms: 2000,
  requests: null,
  warmup_ms: 0,
  cooldown_ms: 0,
  seed: 1,
  question_order: 'sequential',
  set: 'default',
  tokens: 1,
  token_weights: null,
  shard: null,
  start_at: null,
};

function runDir(manifest: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-loadreport-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const lines = Array.from({ length: 20 }, (_, i) =>
    JSON.stringify(
      makeRecord({
        question_id: `q${i}`,
        repeat: i,
        scheduled_offset_ms: i * 100,
        sent_offset_ms: i * 100 + 2,
        queue_ms: 2,
        response_ms: 1002,
        outcome: i === 5 ? 'rate_limited' : 'ok',
      }),
    ),
  );
  writeFileSync(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

describe('renderLoadReports', () => {
  it('writes the four reports from results.jsonl and the manifest alone (no generator.json)', async () => {
    const dir = runDir({ manifest_version: 1, load });
    const rendered = await renderLoadReports(dir, {
      version: 'test',
      slos: [parseSlo('rate_limited_rate<=0.01')],
      gates: [parseLoadGateFlag('ttfp_ms.p99 <= 3000')],
    });
    expect(rendered.files.map((f) => f.split('/').at(-1))).toEqual([
      'summary.json',
      'timeline.csv',
      'report.md',
      'report.html',
      'verdict.json',
      'viewer.html',
    ]);
    // The verdict the reports open with, as a file: the broken SLO fails the run.
    expect(JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8'))).toEqual(rendered.verdict);
    expect(rendered.verdict).toMatchObject({ status: 'failed', exit_code: 1 });
    const summary = LoadSummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')));
    expect(summary.generator.from_generator).toBe(false);
    expect(summary.windows.measured.sent).toBe(20);
    expect(summary.slos[0]).toMatchObject({ passed: false, value: 0.05 });
    expect(rendered.gates[0]?.passed).toBe(true);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(
      '- ttfp\\_ms.p99 \\<= 3000 passed for the measured window',
    );
    // Same files in, same reports out.
    const again = await renderLoadReports(dir, {
      version: 'test',
      slos: [parseSlo('rate_limited_rate<=0.01')],
      gates: [parseLoadGateFlag('ttfp_ms.p99 <= 3000')],
    });
    expect(JSON.stringify(again.summary)).toBe(JSON.stringify(rendered.summary));
  });

  it('refuses a run directory without a load spec, naming the file', async () => {
    const dir = runDir({ manifest_version: 1, command: 'eval' });
    await expect(renderLoadReports(dir, { version: 'test' })).rejects.toThrow(InputError);
    await expect(renderLoadReports(dir, { version: 'test' })).rejects.toThrow(/manifest\.json: load/);
  });
});

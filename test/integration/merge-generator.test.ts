/**
 * The load part of a merge on crafted data: the merged generator health (counts add up, the
 * busiest generator's peak, schedule lag from the records or, when arrivals queued for a
 * connection, the worst shard's), start warnings, and crafted load shards through the CLI (merged,
 * refused for another load spec, refused without generator.json).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShardRun } from '../../src/app/store/merge-checks.js';
import { mergeGeneratorHealth, startWarnings } from '../../src/app/load/merge-load.js';
import type { LoadSpec } from '../../src/app/load/run-load.js';
import { main } from '../../src/cli/main.js';
import { makeRecord } from '../../src/metrics/test-records.js';
import type { GeneratorHealth } from '../../src/records/generator-health.js';
import { createFakeIo } from '../helpers/fake-io.js';

function health(over: Partial<GeneratorHealth> = {}): GeneratorHealth {
  return {
    planned_arrivals: 10,
    sent: 9,
    dropped: [{ scheduled_offset_ms: 500 }],
    unsent: 0,
    queued: 0,
    late_sends: 1,
    schedule_lag_ms: { p50: 1, p99: 4, max: 7 },
    peak_in_flight: 3,
    cpu_user_ms: 100,
    cpu_system_ms: 10,
    interrupted: false,
    started_at: '2026-01-01T00:00:00.000Z',
    start_delay_ms: 0,
    schedule_ms: 1000,
    duration_ms: 1200,
    ...over,
  };
}

const run = (label: string) => ({ label }) as ShardRun;

describe('mergeGeneratorHealth', () => {
  it('adds the counts, keeps the busiest peak and the latest end, and takes the lag from the records', () => {
    const merged = mergeGeneratorHealth(
      [
        health(),
        health({
          dropped: [{ scheduled_offset_ms: 100 }],
          peak_in_flight: 5,
          cpu_user_ms: 50,
          started_at: '2026-01-01T00:00:00.010Z',
          start_delay_ms: 10,
          schedule_lag_ms: { p50: 2, p99: 9, max: 12 },
        }),
      ],
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 100],
    );
    expect(merged).toEqual({
      planned_arrivals: 20,
      sent: 18,
      dropped: [{ scheduled_offset_ms: 100 }, { scheduled_offset_ms: 500 }],
      unsent: 0,
      queued: 0,
      late_sends: 2,
      schedule_lag_ms: { p50: 4.5, p99: 91.72, max: 12 },
      peak_in_flight: 5,
      cpu_user_ms: 150,
      cpu_system_ms: 20,
      interrupted: false,
      started_at: '2026-01-01T00:00:00.000Z',
      start_delay_ms: 10,
      schedule_ms: 1000,
      duration_ms: 1210,
    });
  });

  it("gives the worst shard's lag when arrivals waited for a connection (their queue_ms is not generator lag), null in the closed model", () => {
    const queued = mergeGeneratorHealth(
      [health({ queued: 2, schedule_lag_ms: { p50: 1, p99: 30, max: 40 } }), health()],
      [0, 500, 900],
    );
    expect(queued.schedule_lag_ms).toEqual({ p50: 1, p99: 30, max: 40 });
    const closed = mergeGeneratorHealth(
      [health({ schedule_lag_ms: { p50: null, p99: null, max: null }, cpu_user_ms: null })],
      [0, 0],
    );
    expect(closed).toMatchObject({ schedule_lag_ms: { p50: null, p99: null, max: null }, cpu_user_ms: null });
  });
});

describe('startWarnings', () => {
  it.each([
    ['together', [health(), health({ started_at: '2026-01-01T00:00:00.300Z' })], []],
    [
      'late after --start-at',
      [health(), health({ start_delay_ms: 2500 })],
      ['b/ started its schedule 2500 ms after --start-at'],
    ],
    [
      'apart without --start-at',
      [health(), health({ started_at: '2026-01-01T00:00:04.000Z' })],
      [
        "the shards started their schedules up to 4000 ms apart (no --start-at?): the merged timeline overlays them from each one's start",
      ],
    ],
  ])('%s', (_name, shards, want) => expect(startWarnings([run('a/'), run('b/')], shards)).toEqual(want));
});

describe('chatbench merge of crafted load shards', () => {
  const spec: LoadSpec = {
    operation: 'chat',
    mode: 'stream',
    model: 'open',
    rate: 4,
    arrival: 'constant',
    max_in_flight: 100,
    stages: null,
    duration_ms: 1000,
    requests: null,
    warmup_ms: 0,
    cooldown_ms: 0,
    seed: 1,
    question_order: 'sequential',
    set: 'default',
    tokens: 1,
    token_weights: null,
    shard: null,
    start_at: '2026-01-01T00:00:00.000Z',
    conversations: false,
    think_time: null,
  };
  /** Shard i of 2 sends arrivals i-1 and i+1 (every 250 ms). */
  function shard(root: string, i: number, over: Partial<LoadSpec> = {}, withGenerator = true) {
    const dir = join(root, `s${i}`);
    mkdirSync(dir);
    const manifest = {
      manifest_version: 1,
      chatbench_version: '0.1.0',
      command: 'load',
      started_at: '2026-01-01T00:00:00.000Z',
      base_url: 'http://127.0.0.1:1/api',
      target: 'simulator',
      plan_version: 1,
      planned_requests: 2,
      planned_total: 4,
      shard: { index: i, count: 2 },
      dataset: { path: 'q.csv', sha256: 'a'.repeat(64), questions: 1 },
      models: null,
      sets: [{ name: 'default', multi: false, models: ['m'] }],
      defaults: {},
      options: { timeout_ms: 1000 },
      load: { ...spec, shard: { index: i, count: 2 }, ...over },
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const records = [i - 1, i + 1].map((n) =>
      makeRecord({
        repeat: n,
        scheduled_offset_ms: n * 250,
        sent_offset_ms: n * 250 + 1,
        queue_ms: 1,
        response_ms: 101,
        total_ms: 100,
      }),
    );
    writeFileSync(join(dir, 'results.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    if (withGenerator)
      writeFileSync(
        join(dir, 'generator.json'),
        JSON.stringify(health({ planned_arrivals: 2, sent: 2, dropped: [], late_sends: 0 })),
      );
  }
  async function merge(root: string, args: string[]) {
    const fake = createFakeIo({ cwd: root });
    const code = await main(['merge', 's1', 's2', '--out', 'merged', ...args], fake.io);
    return { code, stdout: fake.stdout(), stderr: fake.stderr() };
  }

  it('merges records, generator.json and the load reports; a load gate on the whole', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-merge-gen-'));
    [1, 2].forEach((i) => shard(root, i));
    const { code, stdout, stderr } = await merge(root, ['--gate', 'sent_per_s >= 4', '--slo', 'ttfp_ms <= 2000']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Gates: all 1 passed.');
    const merged = JSON.parse(readFileSync(join(root, 'merged', 'generator.json'), 'utf8'));
    expect(merged).toMatchObject({ planned_arrivals: 4, sent: 4, schedule_lag_ms: { p50: 1, p99: 1 } });
    const summary = JSON.parse(readFileSync(join(root, 'merged', 'summary.json'), 'utf8'));
    expect(summary.windows.measured).toMatchObject({ sent: 4, rates: { sent: 4 } });
    const manifest = JSON.parse(readFileSync(join(root, 'merged', 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ command: 'load', shard: null, load: { shard: null, rate: 4 } });
    rmSync(join(root, 'merged'), { recursive: true });
    const failing = await merge(root, ['--gate', 'sent_per_s >= 5']);
    expect(failing.code).toBe(1);
  });

  it.each([
    [
      'another load spec',
      (root: string) => [shard(root, 1), shard(root, 2, { rate: 8 })],
      's2/ planned other requests than s1/',
    ],
    [
      'no generator.json',
      (root: string) => [shard(root, 1), shard(root, 2, {}, false)],
      's2/generator.json: no such file',
    ],
  ])('refuses %s with exit 2', async (_name, make, message) => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-merge-gen-'));
    make(root);
    const { code, stderr } = await merge(root, []);
    expect(stderr).toContain(message);
    expect(code).toBe(2);
  });

  it('refuses a gates file for load runs (it holds eval gates)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-merge-gen-'));
    [1, 2].forEach((i) => shard(root, i));
    const file = await merge(root, ['--gates-file', 'gates.json']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('--gates-file holds the gates of eval runs');
  });
});

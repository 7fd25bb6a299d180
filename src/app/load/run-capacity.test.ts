import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeLoadFigures } from '../../metrics/load.js';
import { parseSlo } from '../../metrics/load-slo.js';
import { toLoadRecord } from '../../metrics/load-window.js';
import { makeRecord } from '../../metrics/test-records.js';
import { DEFAULT_SATURATION } from '../../plan/capacity.js';
import { CapacityResultSchema } from '../../records/load-summary.js';
import { runCapacity, stepDirName, stepSpec, type CapacityOptions, type StepRunner } from './run-capacity.js';
import { LoadSpecSchema } from './run-load.js';

const BASE = LoadSpecSchema.parse({
  operation: 'chat',
  mode: 'stream',
  model: 'open',
  rate: 1,
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
  start_at: null,
});

/** A fake service that accepts up to `limit` per second for one second; the rest get 429s. */
const fakeService =
  (limit: number, seen: number[]): StepRunner =>
  async (spec) => {
    const rate = spec.rate ?? 0;
    seen.push(rate);
    const n = Math.round(rate);
    const records = Array.from({ length: n }, (_, i) =>
      toLoadRecord(
        makeRecord({
          question_id: `q${i}`,
          repeat: i,
          scheduled_offset_ms: (i * 1000) / n,
          sent_offset_ms: (i * 1000) / n,
          outcome: i < limit ? 'ok' : 'rate_limited',
        }),
      ),
    );
    return computeLoadFigures({ records, spec, generator: null, slos: [parseSlo('error_rate<=0.01')] }).summary;
  };

function options(over: Partial<CapacityOptions>): CapacityOptions {
  return {
    load: {
      baseUrl: 'http://127.0.0.1:1/api',
      tokens: [''],
      prepared: {} as CapacityOptions['load']['prepared'],
      target: 'service',
      cwd: mkdtempSync(join(tmpdir(), 'chatbench-cap-')),
      signal: new AbortController().signal,
      graceMs: 0,
      timeoutMs: 1000,
      retries: 0,
      retry429: false,
      version: 'test',
    },
    spec: BASE,
    users: false,
    search: { start: 10, factor: 2, precision: 0.1, maxSteps: 12, integer: false },
    saturation: DEFAULT_SATURATION,
    stepDurationMs: 1000,
    stepWarmupMs: 0,
    maxDurationMs: null,
    slos: [],
    outDir: 'cap',
    ...over,
  };
}

describe('runCapacity with a fake service', () => {
  it('finds the limit, names the step directories and writes capacity.json/md/html', async () => {
    const seen: number[] = [];
    const o = options({ runStep: fakeService(37, seen) });
    const { result, files } = await runCapacity(o);
    expect(result.stopped).toBe('converged');
    expect(result.sustainable!).toBeGreaterThanOrEqual(37 / 1.1);
    expect(result.sustainable!).toBeLessThanOrEqual(37 / 0.95);
    expect(seen.slice(0, 3)).toEqual([10, 20, 40]);
    expect(result.steps[0]?.dir).toBe(join('steps', '01-rate-10'));
    expect(files.map((f) => f.split('/').at(-1))).toEqual(['capacity.json', 'capacity.md', 'capacity.html']);
    expect(CapacityResultSchema.parse(JSON.parse(readFileSync(files[0]!, 'utf8'))).steps).toHaveLength(
      result.steps.length,
    );
  });

  it('does not start a step that would end after --max-duration', async () => {
    let t = 0;
    const slow: StepRunner = async (spec, dir) => {
      t += 5000;
      return fakeService(1000, [])(spec, dir);
    };
    const { result } = await runCapacity(options({ runStep: slow, now: () => t, maxDurationMs: 12_000 }));
    expect(result.stopped).toBe('max_duration');
    expect(result.steps).toHaveLength(2);
  });

  it('stops when interrupted', async () => {
    const controller = new AbortController();
    const o = options({
      runStep: async (spec, dir) => {
        controller.abort();
        return fakeService(1000, [])(spec, dir);
      },
    });
    const { result } = await runCapacity({ ...o, load: { ...o.load, signal: controller.signal } });
    expect(result.stopped).toBe('interrupted');
    expect(result.steps).toHaveLength(0);
  });
});

/** A fake service that takes every request, and whose readiness probe fails (503, as v4.7's saturated pool does) from `unhealthyAt` per second on. */
const unhealthyService =
  (unhealthyAt: number, seen: number[]): StepRunner =>
  async (spec) => {
    const rate = spec.rate ?? 0;
    seen.push(rate);
    const n = Math.round(rate);
    const records = Array.from({ length: n }, (_, i) =>
      toLoadRecord(
        makeRecord({
          question_id: `q${i}`,
          repeat: i,
          scheduled_offset_ms: (i * 1000) / n,
          sent_offset_ms: (i * 1000) / n,
          outcome: 'ok',
        }),
      ),
    );
    const failing = rate >= unhealthyAt;
    const samples = [0, 500].map((offset_ms) => ({
      offset_ms,
      ms: 3,
      status: failing ? 503 : 200,
      error: failing ? 'SERVICE_UNAVAILABLE Request threadpool saturated for 12.3s (5 requests queued)' : null,
    }));
    const generator = {
      planned_arrivals: n,
      sent: n,
      dropped: [],
      late_sends: 0,
      schedule_lag_ms: { p50: 0, p99: 0, max: 0 },
      peak_in_flight: 1,
      cpu_user_ms: null,
      cpu_system_ms: null,
      interrupted: false,
      started_at: '2026-01-01T00:00:00.000Z',
      start_delay_ms: 0,
      schedule_ms: 1000,
      loop_delay_ms: null,
      health_probe: { path: '/health/ready', interval_ms: 500, samples },
    };
    return computeLoadFigures({ records, spec, generator, slos: [] }).summary;
  };

describe('runCapacity and the health probe', () => {
  it('a failing readiness probe makes the step bad and stops the search there, naming why', async () => {
    const seen: number[] = [];
    const { result, files } = await runCapacity(options({ runStep: unhealthyService(40, seen) }));
    expect(seen).toEqual([10, 20, 40]);
    expect(result.stopped).toBe('unhealthy');
    expect(result.sustainable).toBe(20);
    expect(result.knee).toBe(40);
    const last = result.steps.at(-1)!;
    expect(last).toMatchObject({ good: false, health_failures: 2, health_probes: 2 });
    expect(last.reasons).toEqual([
      'unhealthy: /health/ready failed 2 of 2 probes (first: 503: SERVICE_UNAVAILABLE Request threadpool saturated for 12.3s (5 requests queued))',
    ]);
    expect(result.steps[1]).toMatchObject({ good: true, health_failures: 0 });
    expect(readFileSync(files[1]!, 'utf8')).toContain(
      'stopped: the service reported itself unhealthy at 40 requests/s (unhealthy: /health/ready failed 2 of 2 probes',
    );
  });
});

describe('stepSpec', () => {
  it('holds one constant target for the step, unsharded; users switch to the closed model', () => {
    const open = stepSpec(BASE, 12.5, { users: false, stepDurationMs: 3000, stepWarmupMs: 1000 });
    expect(open).toMatchObject({
      model: 'open',
      rate: 12.5,
      duration_ms: 3000,
      warmup_ms: 1000,
      cooldown_ms: 0,
      stages: null,
      requests: null,
    });
    const closed = stepSpec(BASE, 8, { users: true, stepDurationMs: 3000, stepWarmupMs: 0 });
    expect(closed).toMatchObject({ model: 'closed', concurrency: 8 });
    expect(closed.rate).toBeUndefined();
    expect(stepDirName(2, 8, true)).toBe(join('steps', '03-users-8'));
  });
});

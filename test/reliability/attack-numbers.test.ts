/**
 * Issue 12, numbers and time: every count, rate and duration has a documented maximum (README
 * "Limits") checked before anything is sent, so an absurd value is one line and exit 2, never a
 * hang, a heap exhausted or a timer that fires at once. A plan larger than memory is refused with
 * its size. Durations are checked in one parser (negative, zero where time must pass, past a
 * timer's reach). A --start-at weeks ahead is refused, and a wait longer than a Node timer holds is
 * chained, not cut short. A missing or corrupt --baseline is found before the first request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prepareEval } from '../../src/app/eval/run-eval.js';
import { UsageError } from '../../src/errors.js';
import { scheduleTooLarge, type LoadSpec } from '../../src/plan/load-plan.js';
import { abortableSleep } from '../../src/runner/sleep.js';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { runCli, scratch, STACK_LINE, writeCsv } from './helpers.js';

const DAY_MS = 86_400_000;

/** [name, the command's own flags, the one line expected]. */
const ABSURD: Array<[string, string[], string]> = [
  [
    'eval --repeat 1e12',
    ['eval', '--repeat', '1e12'],
    '--repeat must be a whole number from 1 to 1,000, got 1000000000000',
  ],
  [
    'eval --concurrency 1e9',
    ['eval', '--concurrency', '1e9'],
    '--concurrency must be a whole number from 1 to 10,000, got 1000000000',
  ],
  ['eval --retries 1e6', ['eval', '--retries', '1e6'], '--retries must be a whole number from 0 to 10, got 1000000'],
  [
    'load --rate 1e9',
    ['load', '--rate', '1e9', '--duration', '10s'],
    '--rate must be a number above 0 and at most 100,000 per second, got 1000000000',
  ],
  [
    'load --requests 1e12',
    ['load', '--rate', '10', '--requests', '1e12'],
    '--requests must be a whole number from 1 to 10,000,000, got 1000000000000',
  ],
  [
    'load --duration 99999999h',
    ['load', '--rate', '10', '--duration', '99999999h'],
    '--duration: "99999999h" is over the maximum of 7 days',
  ],
  [
    'load --rate × --duration past the request limit',
    ['load', '--rate', '9000', '--duration', '6h'],
    'the schedule plans about 194,400,000 requests (rate × duration), over the limit of 10,000,000: lower the rate or the duration',
  ],
  [
    'load --stages to a rate of 1e9',
    ['load', '--stages', '10s:1e9'],
    '--stages: stage 1 "10s:1e9": the target is over the maximum of 100,000',
  ],
  [
    'load --concurrency 1e6',
    ['load', '--concurrency', '1000000', '--duration', '10s'],
    '--concurrency must be a whole number from 1 to 10,000, got 1000000',
  ],
  [
    'load --max-in-flight 1e9',
    ['load', '--rate', '10', '--duration', '1s', '--max-in-flight', '1e9'],
    '--max-in-flight must be a whole number from 1 to 10,000, got 1000000000',
  ],
  [
    'capacity --start-rate 1e12',
    ['capacity', '--start-rate', '1e12'],
    '--start-rate must be a number above 0 and at most 100,000 per second, got 1000000000000',
  ],
  [
    'capacity --max-steps 1e9',
    ['capacity', '--max-steps', '1e9'],
    '--max-steps must be a whole number from 1 to 100, got 1000000000',
  ],
  ['eval --shards 1e9', ['eval', '--shards', '1e9'], '--shards must be a whole number from 1 to 1,000, got 1000000000'],
  [
    'eval --timeout 0',
    ['eval', '--timeout', '0'],
    '--timeout: "0" is no time at all; give a duration above 0 (e.g. 500ms, 60s, 2m, 1m30s)',
  ],
  [
    'eval --timeout -1s',
    ['eval', '--timeout', '-1s'],
    '--timeout: "-1s" is negative; a duration is 0 or more (e.g. 500ms, 60s, 2m, 1m30s)',
  ],
  ['eval --timeout 999999h', ['eval', '--timeout', '999999h'], '--timeout: "999999h" is over the maximum of 24.9 days'],
  [
    'eval --grace -5s',
    ['eval', '--grace', '-5s'],
    '--grace: "-5s" is negative; a duration is 0 or more (e.g. 500ms, 60s, 2m, 1m30s)',
  ],
  [
    'load --warmup -1s',
    ['load', '--rate', '1', '--duration', '10s', '--warmup', '-1s'],
    '--warmup: "-1s" is negative; a duration is 0 or more (e.g. 500ms, 60s, 2m, 1m30s)',
  ],
  [
    'load --duration 0s',
    ['load', '--rate', '1', '--duration', '0s'],
    '--duration: "0s" is no time at all; give a duration above 0 (e.g. 500ms, 60s, 2m, 1m30s)',
  ],
  [
    'capacity --step-duration 0s',
    ['capacity', '--step-duration', '0s'],
    '--step-duration: "0s" is no time at all; give a duration above 0 (e.g. 500ms, 60s, 2m, 1m30s)',
  ],
  [
    'capacity --max-duration -1m',
    ['capacity', '--max-duration', '-1m'],
    '--max-duration: "-1m" is negative; a duration is 0 or more (e.g. 500ms, 60s, 2m, 1m30s)',
  ],
  [
    'load --start-at 30 days ahead',
    ['load', '--rate', '1', '--duration', '10s', '--start-at', new Date(Date.now() + 30 * DAY_MS).toISOString()],
    '--start-at',
  ],
];

describe('absurd counts, rates and durations', () => {
  it.each(ABSURD)('%s: exit 2, one line, nothing sent', async (_name, args, line) => {
    const server = await startHostileServer(() => ({
      headers: { 'content-type': 'application/json' },
      body: fullAnswer({ answer: 'x' }),
    }));
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const run = await runCli([
      ...args,
      '--base-url',
      server.baseUrl,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--out',
      join(dir, 'run'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`chatbench: ${line}`);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(server.requests).toHaveLength(0);
  });

  it('a plan larger than the memory it may use is refused with its size', async () => {
    const dir = scratch();
    const dataset = writeCsv(
      dir,
      Array.from({ length: 50 }, (_, i) => [`q${i}`, `Question ${i}?`, '', '', 'false', 'x']),
    );
    const plan = prepareEval({
      datasetPath: dataset,
      setFlags: ['a=openai:gpt-4o', 'b=openai:gpt-4o-mini'],
      mode: 'both',
      repeat: 1000,
      cwd: dir,
      heapBytes: 64 * 1024 * 1024,
    });
    await expect(plan).rejects.toThrow(UsageError);
    await expect(plan).rejects.toThrow(
      'the plan holds 200,000 requests (50 questions × 4 set and mode pairs × 1000 repeats) and would need about 205 MB of memory, more than the 34 MB this process may use (half its heap): lower --repeat or ask fewer questions',
    );
  });

  it('a load schedule whose records would not fit in memory is refused with its size', () => {
    const spec = {
      model: 'open',
      rate: 1000,
      stages: null,
      duration_ms: 3_600_000,
      requests: null,
      shard: null,
    } as LoadSpec;
    expect(scheduleTooLarge(spec, 8 * 1024 ** 3)).toBeUndefined();
    expect(scheduleTooLarge(spec, 1024 ** 3)).toBe(
      'the schedule plans about 3,600,000 requests (rate × duration), whose records would need about 3.7 GB of memory for the load figures, more than the 537 MB this process may use (half its heap): split it with --shard',
    );
    expect(scheduleTooLarge({ ...spec, shard: { index: 1, count: 8 } }, 1024 ** 3)).toBeUndefined();
  });
});

describe('time', () => {
  afterEach(() => void vi.useRealTimers());

  it('a wait longer than a Node timer holds (24.8 days) lasts its whole length', async () => {
    vi.useFakeTimers();
    let done = false;
    void abortableSleep(30 * DAY_MS, new AbortController().signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(25 * DAY_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(5 * DAY_MS);
    expect(done).toBe(true);
  });

  it('a missing or corrupt --baseline is found before anything is sent', async () => {
    const server = await startHostileServer(() => ({
      headers: { 'content-type': 'application/json' },
      body: fullAnswer({ answer: 'x' }),
    }));
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const corrupt = join(dir, 'corrupt');
    mkdirSync(corrupt);
    writeFileSync(join(corrupt, 'results.jsonl'), '{"record_version":1,"key":"q1"}\nnot json\n');
    for (const [baseline, message] of [
      [join(dir, 'missing'), 'no such run or baseline directory'],
      [corrupt, `${join(corrupt, 'results.jsonl')}:1: `],
    ] as const) {
      const run = await runCli([
        'eval',
        '--base-url',
        server.baseUrl,
        '--token',
        'tok-1234',
        '--dataset',
        dataset,
        '--baseline',
        baseline,
        '--out',
        join(dir, 'run'),
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`chatbench: --baseline ${baseline}: ${message}`);
    }
    expect(server.requests).toHaveLength(0);
  });
});

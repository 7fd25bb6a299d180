/**
 * `chatbench load` end to end, in-process through main(), over real HTTP against the simulator:
 * queueing behind the connections in the open model versus the closed model's lower send rate,
 * drops at the in-flight cap, several tokens (round-robin, by weight) against a per-token limit,
 * Ctrl-C, bad flags, an unreachable target and a late --start-at.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeneratorHealthSchema } from '../../src/app/load/run-load.js';
import { main } from '../../src/cli/main.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'chatbench-load-'));
const fixed = (ms: number) => ({ median: ms, p99: ms });
/** Every answer takes ~200 ms to its first token: a stalled service. */
const stalled = {
  chat: {
    time_scale: 1,
    profiles: {
      default: { pre_answer_ms: fixed(10), first_token_ms: fixed(200), token_ms: fixed(1), answer_sentences: 1 },
    },
  },
};
const records = (out: string): RequestRecord[] =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => RequestRecordSchema.parse(JSON.parse(line)));
const generator = (out: string) =>
  GeneratorHealthSchema.parse(JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')));

/** Lines in results.jsonl so far (the file may not exist yet). */
const lineCount = (out: string) => {
  try {
    return readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

/** Runs `chatbench load`; `interruptAfterRecords`: plays Ctrl-C once that many records are written (polled, bounded). */
async function load(args: string[], options: { interruptAfterRecords?: number } = {}) {
  const fake = createFakeIo();
  const out = join(scratch(), 'run');
  let polls = 0;
  const poller =
    options.interruptAfterRecords === undefined
      ? undefined
      : setInterval(() => {
          if (lineCount(out) >= options.interruptAfterRecords! || ++polls > 200) {
            clearInterval(poller);
            fake.interrupt();
          }
        }, 50);
  const code = await main(['load', '--dataset', 'datasets/sample.csv', '--out', out, ...args], fake.io);
  clearInterval(poller);
  return { code, out, stdout: fake.stdout(), stderr: fake.stderr() };
}

// Side by side: each case its own simulator (closed by its own onTestFinished), directory and io.
describe.concurrent('chatbench load against the simulator', () => {
  it('open model: response_ms holds the wait behind the connections, total_ms does not; the closed model sends less', async ({
    onTestFinished,
  }) => {
    const sim = await startSim({ config: stalled }, onTestFinished);
    const target = ['--base-url', sim.baseUrl, '--token', TOKENS.demo];
    const [open, closed] = await Promise.all([
      load([...target, '--rate', '20', '--duration', '1s', '--connections', '2']),
      load([...target, '--concurrency', '2', '--duration', '1s']),
    ]);
    expect([open.code, closed.code]).toEqual([0, 0]);
    const openRecords = records(open.out).sort((a, b) => a.scheduled_offset_ms! - b.scheduled_offset_ms!);
    expect(openRecords).toHaveLength(20);
    const last = openRecords.at(-1)!;
    expect(last.queue_ms!).toBeGreaterThan(1000); // 20 requests through 2 connections at ~210 ms each
    expect(last.total_ms!).toBeLessThan(last.queue_ms!); // the wait is in queue_ms, not in total_ms
    expect(last.response_ms! - last.total_ms!).toBeCloseTo(last.queue_ms!, 0);
    expect(generator(open.out).queued).toBeGreaterThan(10);
    // The closed model waits for each answer: about 2 users × 1 s / 210 ms sends instead of 20.
    const closedRecords = records(closed.out);
    expect(closedRecords.length).toBeLessThan(14);
    expect(closedRecords.length).toBeGreaterThanOrEqual(2);
    expect(closedRecords.every((r) => r.queue_ms === 0 && r.scheduled_offset_ms === r.sent_offset_ms)).toBe(true);
  });

  it('drops arrivals at the in-flight cap and lists them; records + dropped = planned', async ({ onTestFinished }) => {
    const sim = await startSim({ config: stalled }, onTestFinished);
    const { code, out, stdout } = await load([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--rate',
      '50',
      '--duration',
      '1s',
      '--max-in-flight',
      '3',
    ]);
    expect(code).toBe(0);
    const g = generator(out);
    expect(g.planned_arrivals).toBe(50);
    expect(g.dropped.length).toBeGreaterThan(30);
    expect(records(out).length + g.dropped.length + g.unsent).toBe(50);
    expect(g.peak_in_flight).toBe(3);
    expect(stdout).toContain(`${g.dropped.length} dropped at the in-flight cap`);
  });

  it('spreads requests over several tokens, and a per-token limit lands its 429s on the busiest token', async ({
    onTestFinished,
  }) => {
    // A budget of 15 per token that does not refill within the run: the token sending 48 meets 429s
    // and the one sending 12 never does, however late a busy machine sends them.
    const sim = await startSim(
      { config: { rate_limits: { requests_per_second: { per_token: { rate: 0.001, burst: 15 } } } } },
      onTestFinished,
    );
    // Round-robin against a service without a limiter: its gateway would answer a bunched arrival
    // (a busy machine sends late, then several at once) with 429 before auth could refuse it.
    const open = await startSim({}, onTestFinished);
    const dir = scratch();
    writeFileSync(join(dir, 'tokens.txt'), `${TOKENS.demo} 4\n${TOKENS.secondUser} 1\n`);
    const [weighted, roundRobin] = await Promise.all([
      load([
        '--base-url',
        sim.baseUrl,
        '--token-file',
        join(dir, 'tokens.txt'),
        '--mode',
        'full',
        '--rate',
        '40',
        '--duration',
        '1500ms',
      ]),
      load([
        '--base-url',
        open.baseUrl,
        '--token',
        TOKENS.chatOnly,
        '--token',
        'onyx_pat_unknown',
        '--mode',
        'full',
        '--rate',
        '10',
        '--requests',
        '10',
      ]),
    ]);
    expect(weighted.code).toBe(0);
    const all = records(weighted.out);
    expect(all.filter((r) => r.token_index === 0)).toHaveLength(48);
    expect(all.filter((r) => r.token_index === 1)).toHaveLength(12);
    const limited = all.filter((r) => r.outcome === 'rate_limited');
    expect(limited.length).toBe(48 - 15);
    expect(limited.every((r) => r.token_index === 0)).toBe(true);
    expect(readFileSync(join(weighted.out, 'results.jsonl'), 'utf8')).not.toContain(TOKENS.demo);
    // Round-robin: alternate tokens; the unknown one is refused (403) on every request it sends.
    const rr = records(roundRobin.out).sort((a, b) => a.repeat - b.repeat);
    expect(rr.map((r) => r.token_index)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    expect(rr.filter((r) => r.token_index === 1).every((r) => r.http_status === 403)).toBe(true);
  });

  it('on Ctrl-C exits 130 with a record for every sent request', async ({ onTestFinished }) => {
    const sim = await startSim({ config: stalled }, onTestFinished);
    const { code, out, stderr } = await load(
      ['--base-url', sim.baseUrl, '--token', TOKENS.demo, '--rate', '20', '--duration', '10s', '--grace', '100ms'],
      { interruptAfterRecords: 3 },
    );
    expect(code).toBe(130);
    const g = generator(out);
    expect(g.interrupted).toBe(true);
    expect(records(out)).toHaveLength(g.sent);
    expect(g.sent).toBeGreaterThanOrEqual(3);
    expect(g.sent).toBeLessThan(200);
    expect(g.sent + g.dropped.length + g.unsent).toBe(200);
    expect(stderr).toContain('interrupted');
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toMatchObject({
      command: 'load',
      planned_requests: 200,
      load: { model: 'open', rate: 20 },
    });
  });

  it('refuses conflicting flags before sending (exit 2), and stops on an unreachable target (exit 3)', async () => {
    const bad = await load(['--sim', '--rate', '5', '--concurrency', '2', '--duration', '1s']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rate (open model) and --concurrency (closed model) conflict');
    const noEnd = await load(['--sim', '--rate', '5']);
    expect([noEnd.code, noEnd.stderr]).toEqual([2, expect.stringContaining('give --duration, --requests or --stages')]);
    const stages = await load(['--sim', '--stages', '1s:5,1q:3', '--duration', '1s']);
    expect(stages.stderr).toContain('--stages and --duration conflict');
    const stageText = await load(['--sim', '--stages', '1s:5,1q:3']);
    expect(stageText.stderr).toContain('stage 2 "1q:3": "1q" is not a duration');
    const down = await load([
      '--base-url',
      'http://127.0.0.1:1/api',
      '--token',
      'x',
      '--rate',
      '20',
      '--duration',
      '2s',
    ]);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('cannot reach');
  });

  it('starts late when --start-at has passed, and says so', async ({ onTestFinished }) => {
    const sim = await startSim({}, onTestFinished);
    const past = new Date(Date.now() - 1500).toISOString();
    const { code, out, stderr } = await load([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--mode',
      'full',
      '--rate',
      '10',
      '--requests',
      '3',
      '--start-at',
      past,
      '--shard',
      '1/2',
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/--start-at .* has passed: starting now, \d+ ms late/);
    const g = generator(out);
    expect(g.start_delay_ms).toBeGreaterThan(1400);
    expect(
      records(out)
        .map((r) => r.repeat)
        .sort(),
    ).toEqual([0, 2]); // shard 1 of 2: arrivals 0 and 2 of 3
  });
});

/**
 * Issue 7 §3 with the real process and real signals: SIGINT, SIGTERM or SIGHUP stops scheduling,
 * lets the requests in flight finish within --grace (then cancels them), writes every report,
 * releases the run directory's lock and exits 130, 143 or 129 (issue 23: SIGHUP left no report and
 * its lock behind); a second SIGINT cancels at once and still leaves a readable results.jsonl and
 * the reports.
 * The cases share nothing (each its simulator, directory and process), so they run at once
 * (describe.concurrent): the file's wall time is its longest case, not the sum of their waits.
 * Concurrent tests take `expect` and `onTestFinished` from their context (vitest's global ones
 * attach to whichever test started last).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';
import { readRunRecords, scratch, writeCsv, STACK_LINE } from './helpers.js';
import { completeLines, spawnCli, waitFor, type CliProcess } from '../helpers/spawn-cli.js';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';

const REPORTS = [
  'generator.json',
  'junit.xml',
  'manifest.json',
  'report.html',
  'report.md',
  'results.csv',
  'results.jsonl',
  'summary.json',
  'verdict.json',
  'viewer.html',
];
const fixed = (ms: number) => ({ median: ms, p99: ms });

/** A simulator whose answers take about `answerMs` (the service's configured model), and a run of 12 requests at 3 in flight against it. */
async function startRun(
  answerMs: number,
  grace: string,
  { onTestFinished }: TestContext,
): Promise<{ sim: RunningSimulator; run: CliProcess; out: string }> {
  const tokenMs = Math.max(1, Math.round((answerMs - 200) / 70)); // ~70 answer tokens
  const sim = await startSim(
    {
      config: {
        chat: {
          time_scale: 1,
          profiles: { default: { pre_answer_ms: fixed(100), first_token_ms: fixed(100), token_ms: fixed(tokenMs) } },
        },
      },
    },
    onTestFinished,
  );
  const dir = scratch(onTestFinished);
  const rows = Array.from({ length: 12 }, (_, i) => [
    `q${i}`,
    `How many days of paid time off do employees get? (${i})`,
    '',
    '',
    'false',
    'x',
  ]);
  const out = join(dir, 'run');
  const run = spawnCli(
    [
      'eval',
      '--base-url',
      sim.baseUrl,
      '--dataset',
      writeCsv(dir, rows),
      '--concurrency',
      '3',
      '--grace',
      grace,
      '--out',
      out,
    ],
    { CHATBENCH_TOKEN: TOKENS.demo },
    onTestFinished,
  );
  await waitFor(() => sim.stats().streams_open === 3, 'three streams in flight');
  return { sim, run, out };
}

describe.concurrent('interrupts', () => {
  it(
    'SIGINT: no new requests, the three in flight finish within the grace, every report, exit 130',
    { timeout: 120_000 },
    async (context) => {
      const { expect } = context;
      const { sim, run, out } = await startRun(1_200, '10s', context);
      run.child.kill('SIGINT');
      const end = await run.exited;
      expect(run.stderr()).not.toMatch(STACK_LINE);
      expect(end.code).toBe(130);
      expect(run.stderr()).toMatch(/interrupted — no new requests; those in flight have 10s to finish/);
      expect(run.stderr()).toMatch(/interrupted; 3 of 12 requests were sent and recorded/);
      const records = readRunRecords(out);
      expect(records.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);
      expect(sim.stats().requests).toBe(3);
      expect(readdirSync(out).sort()).toEqual(REPORTS);
      expect(run.stdout()).toContain('reports:');
    },
  );

  it(
    'SIGTERM with a short grace: the requests in flight are cancelled when it ends, reports written, exit 143',
    { timeout: 120_000 },
    async (context) => {
      const { expect } = context;
      // The 8 s answers cost no wait: the 300 ms grace cancels them.
      const { run, out } = await startRun(8_000, '300ms', context);
      run.child.kill('SIGTERM');
      const end = await run.exited;
      expect(end.code).toBe(143);
      // Cancelled, not ok: the grace ended them, long before their 8 s answers could have.
      const records = readRunRecords(out);
      expect(records.map((r) => r.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(readdirSync(out).sort()).toEqual(REPORTS);
    },
  );

  it.for([
    { signal: 'SIGHUP', code: 129 },
    { signal: 'SIGINT', code: 130 },
    { signal: 'SIGTERM', code: 143 },
  ] as const)(
    '$signal once the first records exist: every sent request recorded, the reports, the interrupted line, no lock, exit $code',
    { timeout: 120_000 },
    async ({ signal, code }, context) => {
      const { expect } = context;
      // 0.8 s answers: the signal lands 1.6 s before the last wave could start, however busy the machine.
      const { sim, run, out } = await startRun(800, '10s', context);
      await waitFor(() => completeLines(join(out, 'results.jsonl')) >= 1, 'the first record');
      run.child.kill(signal);
      const end = await run.exited;
      expect(run.stderr()).not.toMatch(STACK_LINE);
      expect(end.code).toBe(code);
      expect(run.stderr()).toMatch(/interrupted; \d+ of 12 requests were sent and recorded/);
      const records = readRunRecords(out);
      expect(records.length).toBe(sim.stats().requests);
      expect(records.length).toBeLessThan(12);
      expect(readdirSync(out).sort()).toEqual(REPORTS); // no .chatbench.lock among them
    },
  );

  it(
    'a second SIGINT cancels at once despite a long grace; results.jsonl is readable and the reports are written',
    { timeout: 120_000 },
    async (context) => {
      const { expect } = context;
      const { run, out } = await startRun(8_000, '60s', context);
      run.child.kill('SIGINT');
      await waitFor(
        () => run.stderr().includes('interrupted — no new requests'),
        'the first interrupt to be announced',
      );
      run.child.kill('SIGINT');
      const end = await run.exited;
      expect(end.code).toBe(130);
      // Cancelled at once, not after the 60 s grace: the test's own timeout would catch a wait that long.
      expect(run.stderr()).toMatch(/cancelling the requests in flight/);
      expect(readRunRecords(out).map((r) => r.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(readdirSync(out).sort()).toEqual(REPORTS);
    },
  );

  it('interrupted before any request was sent: exit 130, not a gate error for the groups nothing reached', async ({
    expect,
    onTestFinished,
  }) => {
    const sim = await startSim({}, onTestFinished);
    const dir = scratch(onTestFinished);
    const out = join(dir, 'run');
    const fake = createFakeIo({ env: { CHATBENCH_TOKEN: TOKENS.demo } });
    fake.interrupt();
    const code = await main(
      [
        'eval',
        '--base-url',
        sim.baseUrl,
        '--dataset',
        writeCsv(dir, [['q1', 'How many days of paid time off do employees get?', '', '', 'false', 'hr']]),
        '--out',
        out,
      ],
      fake.io,
    );
    expect(code, fake.stderr()).toBe(130);
    expect(fake.stderr()).toMatch(/interrupted; 0 of 1 requests were sent and recorded/);
    expect(sim.stats().requests).toBe(0);
  });

  it.for([
    { signal: 'SIGHUP', code: 129 },
    { signal: 'SIGINT', code: 130 },
    { signal: 'SIGTERM', code: 143 },
  ] as const)(
    'report stopped by $signal while it reads the records: exit $code, the old reports untouched, no .tmp file, no lock',
    async ({ signal, code }, { expect, onTestFinished }) => {
      const sim = await startSim({}, onTestFinished);
      const dir = scratch(onTestFinished);
      const out = join(dir, 'run');
      const rows = Array.from({ length: 3 }, (_, i) => [
        `q${i}`,
        `How many days of paid time off do employees get? (${i})`,
        '',
        '',
        'false',
        'hr',
      ]);
      const first = createFakeIo({ env: { CHATBENCH_TOKEN: TOKENS.demo } });
      expect(
        await main(
          ['eval', '--base-url', sim.baseUrl, '--dataset', writeCsv(dir, rows), '--mode', 'full', '--out', out],
          first.io,
        ),
        first.stderr(),
      ).toBe(0);
      const before = readdirSync(out)
        .sort()
        .map((name) => [name, readFileSync(join(out, name), 'utf8')]);
      const fake = createFakeIo();
      fake.interrupt(signal);
      const result = await main(['report', out], fake.io);
      expect(result).toBe(code);
      expect(fake.stderr()).toMatch(/interrupted: .*no report was replaced/);
      expect(fake.stderr()).not.toMatch(STACK_LINE);
      expect(
        readdirSync(out)
          .sort()
          .map((name) => [name, readFileSync(join(out, name), 'utf8')]),
      ).toEqual(before);
    },
  );
});

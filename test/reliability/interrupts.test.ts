/**
 * Issue 7 §3 with the real process and real signals: SIGINT or SIGTERM stops scheduling, lets the
 * requests in flight finish within --grace (then cancels them), writes every report and exits 130;
 * a second SIGINT cancels at once and still leaves a readable results.jsonl and the reports.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';
import { readRunRecords, scratch, writeCsv, STACK_LINE } from './helpers.js';
import { spawnCli, waitFor, type CliProcess } from '../helpers/spawn-cli.js';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';

const REPORTS = ['generator.json', 'junit.xml', 'manifest.json', 'report.html', 'report.md', 'results.csv', 'results.jsonl', 'summary.json', 'viewer.html'];
const fixed = (ms: number) => ({ median: ms, p99: ms });

/** A simulator whose answers take about `answerMs` (the service's configured model), and a run of 12 requests at 3 in flight against it. */
async function startRun(answerMs: number, grace: string): Promise<{ sim: RunningSimulator; run: CliProcess; out: string }> {
  const tokenMs = Math.max(1, Math.round((answerMs - 200) / 70)); // ~70 answer tokens
  const sim = await startSim({ config: { chat: { time_scale: 1, profiles: { default: { pre_answer_ms: fixed(100), first_token_ms: fixed(100), token_ms: fixed(tokenMs) } } } } });
  const dir = scratch();
  const rows = Array.from({ length: 12 }, (_, i) => [`q${i}`, `How many days of paid time off do employees get? (${i})`, '', '', 'false', 'x']);
  const out = join(dir, 'run');
  const run = spawnCli(['eval', '--base-url', sim.baseUrl, '--dataset', writeCsv(dir, rows), '--concurrency', '3', '--grace', grace, '--out', out], { CHATBENCH_TOKEN: TOKENS.demo });
  await waitFor(() => sim.stats().streams_open === 3, 'three streams in flight');
  return { sim, run, out };
}

it('SIGINT: no new requests, the three in flight finish within the grace, every report, exit 130', { timeout: 120_000 }, async () => {
  const { sim, run, out } = await startRun(1_200, '10s');
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
});

it('SIGTERM with a short grace: the requests in flight are cancelled when it ends, reports written, exit 130', { timeout: 120_000 }, async () => {
  const { run, out } = await startRun(8_000, '300ms');
  run.child.kill('SIGTERM');
  const end = await run.exited;
  expect(end.code).toBe(130);
  // Cancelled, not ok: the grace ended them, long before their 8 s answers could have.
  const records = readRunRecords(out);
  expect(records.map((r) => r.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  expect(readdirSync(out).sort()).toEqual(REPORTS);
});

it('a second SIGINT cancels at once despite a long grace; results.jsonl is readable and the reports are written', { timeout: 120_000 }, async () => {
  const { run, out } = await startRun(8_000, '60s');
  run.child.kill('SIGINT');
  await waitFor(() => run.stderr().includes('interrupted — no new requests'), 'the first interrupt to be announced');
  run.child.kill('SIGINT');
  const end = await run.exited;
  expect(end.code).toBe(130);
  // Cancelled at once, not after the 60 s grace: the test's own timeout would catch a wait that long.
  expect(run.stderr()).toMatch(/cancelling the requests in flight/);
  expect(readRunRecords(out).map((r) => r.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  expect(readdirSync(out).sort()).toEqual(REPORTS);
});

it('interrupted before any request was sent: exit 130, not a gate error for the groups nothing reached', async () => {
  const sim = await startSim();
  const dir = scratch();
  const out = join(dir, 'run');
  const fake = createFakeIo({ env: { CHATBENCH_TOKEN: TOKENS.demo } });
  fake.interrupt();
  const code = await main(['eval', '--base-url', sim.baseUrl, '--dataset', writeCsv(dir, [['q1', 'How many days of paid time off do employees get?', '', '', 'false', 'hr']]), '--out', out], fake.io);
  expect(code, fake.stderr()).toBe(130);
  expect(fake.stderr()).toMatch(/interrupted; 0 of 1 requests were sent and recorded/);
  expect(sim.stats().requests).toBe(0);
});

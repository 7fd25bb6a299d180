/**
 * `chatbench load` keeps a constant rate: 200 requests per second for 20 s, achieved within 2%
 * (from the records' sent offsets). The simulator runs in its own process at a fast profile, so the
 * generator is measured, not the simulator sharing its event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { GeneratorHealthSchema } from '../../src/app/run-load.js';
import { main } from '../../src/cli/main.js';
import { RequestRecordSchema } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';

/** `chatbench serve` on 127.0.0.1 and a free port, in a child process ended when the test finishes. */
async function simProcess(config: unknown, dir: string): Promise<string> {
  const configPath = join(dir, 'sim.json');
  writeFileSync(configPath, JSON.stringify(config));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', '0', '--config', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => void child.kill('SIGTERM'));
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the simulator did not start: ${text}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}): ${text}`)));
  });
}

/** Least-squares slope of sent offset against send order: ms per request, robust to a late first or last send. */
function msPerRequest(sent: readonly number[]): number {
  const n = sent.length;
  const meanX = (n - 1) / 2;
  const meanY = sent.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  sent.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

it('achieves 200/s for 20 s within 2%', { timeout: 50_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-load-rate-'));
  const fixed = (ms: number) => ({ median: ms, p99: ms });
  const baseUrl = await simProcess({ chat: { profiles: { default: { pre_answer_ms: fixed(5), first_token_ms: fixed(5), token_ms: fixed(1), answer_sentences: 1 } } } }, dir);
  const out = join(dir, 'run');
  const fake = createFakeIo();
  const code = await main(['load', '--base-url', baseUrl, '--token', TOKENS.demo, '--dataset', 'datasets/sample.csv', '--mode', 'full', '--rate', '200', '--duration', '20s', '--out', out], fake.io);
  expect(fake.stderr()).not.toMatch(/internal error/);
  expect(code).toBe(0);
  const records = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => RequestRecordSchema.parse(JSON.parse(line)));
  const generator = GeneratorHealthSchema.parse(JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')));
  expect(records).toHaveLength(4000);
  expect(generator).toMatchObject({ planned_arrivals: 4000, sent: 4000, dropped: [], unsent: 0 });
  const sent = records.map((r) => r.sent_offset_ms).sort((a, b) => a - b);
  const achieved = 1000 / msPerRequest(sent);
  expect(Math.abs(achieved / 200 - 1)).toBeLessThan(0.02);
  // Whole-run view too: every send within the 20 s schedule plus a little slack.
  expect(sent.at(-1)!).toBeLessThan(20_000 + 500);
  expect(records.filter((r) => r.outcome === 'ok').length).toBeGreaterThan(3960);
});

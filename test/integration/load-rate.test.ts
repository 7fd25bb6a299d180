/**
 * `chatbench load` keeps a constant rate: 200 requests per second for 20 s against the simulator
 * at a fast profile, achieved within 2% (measured from the records' sent offsets).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { GeneratorHealthSchema } from '../../src/app/run-load.js';
import { RequestRecordSchema } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

it('achieves 200/s for 20 s within 2%', { timeout: 45_000 }, async () => {
  const fixed = (ms: number) => ({ median: ms, p99: ms });
  const sim = await startSim({ config: { chat: { time_scale: 1, profiles: { default: { pre_answer_ms: fixed(5), first_token_ms: fixed(5), token_ms: fixed(1), answer_sentences: 1 } } } } });
  const out = join(mkdtempSync(join(tmpdir(), 'chatbench-load-rate-')), 'run');
  const fake = createFakeIo();
  const code = await main(['load', '--base-url', sim.baseUrl, '--token', TOKENS.demo, '--dataset', 'datasets/sample.csv', '--mode', 'full', '--rate', '200', '--duration', '20s', '--out', out], fake.io);
  expect(fake.stderr()).not.toMatch(/internal error/);
  expect(code).toBe(0);
  const records = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => RequestRecordSchema.parse(JSON.parse(line)));
  const generator = GeneratorHealthSchema.parse(JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')));
  expect(records).toHaveLength(4000);
  expect(generator).toMatchObject({ planned_arrivals: 4000, sent: 4000, dropped: [], unsent: 0 });
  const sent = records.map((r) => r.sent_offset_ms).sort((a, b) => a - b);
  const achieved = ((sent.length - 1) / (sent.at(-1)! - sent[0]!)) * 1000;
  expect(Math.abs(achieved / 200 - 1)).toBeLessThan(0.02);
  expect(records.filter((r) => r.outcome === 'ok').length).toBeGreaterThan(3960);
  // Every second of the schedule got its 200 sends, within a few (the machine is shared).
  const perSecond = Array.from({ length: 20 }, (_, s) => sent.filter((t) => t >= s * 1000 && t < (s + 1) * 1000).length);
  for (const count of perSecond.slice(1, 19)) expect(Math.abs(count - 200)).toBeLessThan(20);
});

/**
 * `chatbench load --workers N` against one simulator (loopback, so `--workers` is given): the
 * workers split the plan as shards do, so a run on two workers records the same requests as one
 * thread, and as `--shard 1/2` + `--shard 2/2` merged; a conversation stays in one worker (its
 * turns share a chat session); an interrupt leaves one record per sent request and counts the
 * rest; bad values are refused with exit 2 before anything is sent. No timing is asserted.
 */
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { prepareLoad, runLoad } from '../../src/app/load/run-load.js';
import { GeneratorHealthSchema } from '../../src/records/generator-health.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { loadCorpus, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';
import { LoadSpecSchema } from '../../src/plan/load-plan.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'datasets/sample.csv');
let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ config: { chat: { time_scale: 0.001 } }, corpus: await loadCorpus() });
  dir = mkdtempSync(join(tmpdir(), 'chatbench-load-workers-'));
});
afterAll(() => sim.close());

async function load(name: string, args: readonly string[]) {
  const fake = createFakeIo({ cwd: dir });
  const out = join(dir, name);
  const code = await main(['load', '--base-url', sim.baseUrl, '--token', TOKENS.demo, '--out', out, ...args], fake.io);
  return { code, out, stderr: fake.stderr(), stdout: fake.stdout() };
}
const records = (out: string): RequestRecord[] =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => RequestRecordSchema.parse(JSON.parse(line)));
/** What identifies a planned request and its place on the schedule. */
const planned = (out: string) =>
  records(out)
    .map((r) => `${r.key} @${r.scheduled_offset_ms}`)
    .sort();
const generator = (out: string) =>
  GeneratorHealthSchema.parse(JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')));

describe('load --workers', () => {
  const open = ['--dataset', SAMPLE, '--mode', 'full', '--rate', '400', '--requests', '13'];

  it('records the same requests on two workers as in one thread and as two shards merged', async () => {
    const one = await load('one', [...open, '--workers', '1']);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toContain('1 worker (--workers)');
    const two = await load('two', [...open, '--workers', '2']);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stderr).toContain('2 workers (--workers)');
    const first = await load('shard-1', [...open, '--shard', '1/2']);
    const second = await load('shard-2', [...open, '--shard', '2/2']);
    expect([first.code, second.code]).toEqual([0, 0]);
    const fake = createFakeIo({ cwd: dir });
    expect(await main(['merge', 'shard-1', 'shard-2', '--out', 'merged'], fake.io), fake.stderr()).toBe(0);

    expect(planned(two.out)).toHaveLength(13);
    expect(planned(two.out)).toEqual(planned(one.out));
    // Each worker reads the rows from the file itself: the same expectations score the same answers.
    const scored = (out: string) =>
      records(out)
        .map((r) => `${r.key} ${JSON.stringify(r.scores)}`)
        .sort();
    expect(scored(two.out)).toEqual(scored(one.out));
    expect(records(two.out).some((r) => (r.scores?.answer_f1 ?? null) !== null)).toBe(true); // the reference answers were there
    expect(planned(two.out)).toEqual(planned(join(dir, 'merged')));
    expect(generator(two.out)).toMatchObject({
      planned_arrivals: 13,
      sent: 13,
      unsent: 0,
      dropped: [],
      interrupted: false,
    });
    expect(generator(two.out).loop_delay_ms).not.toBeNull();

    // Inside a shard, the workers split the shard's own requests: the same ones as the shard alone.
    const nested = await load('shard-2-two', [...open, '--shard', '2/2', '--workers', '2']);
    expect(nested.code, nested.stderr).toBe(0);
    expect(planned(nested.out)).toEqual(planned(second.out));
  });

  it('keeps every conversation in one worker: its turns share one chat session', async () => {
    const dataset = join(dir, 'conversations.csv');
    writeFileSync(
      dataset,
      [
        'id,question,expected_documents,conversation,turn',
        'p1,How many days of paid time off does a full-time employee get each year?,hr-pto-policy,pto,1',
        'p2,How many of those can I carry over?,hr-pto-policy,pto,2',
        'v1,What is the VPN policy?,,vpn,1',
        'v2,Does it apply on weekends?,,vpn,2',
        '',
      ].join('\n'),
    );
    const run = await load('conversations', [
      '--dataset',
      dataset,
      '--conversations',
      '--rate',
      '200',
      '--requests',
      '4',
      '--workers',
      '2',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const all = records(run.out);
    expect(all).toHaveLength(8);
    for (const repeat of [0, 1, 2, 3]) {
      const turns = all.filter((r) => r.repeat === repeat).sort((a, b) => a.turn! - b.turn!);
      expect(turns.map((r) => [r.turn, r.session, r.outcome])).toEqual([
        [1, 'new', 'ok'],
        [2, 'continued', 'ok'],
      ]);
      expect(new Set(turns.map((r) => r.chat_session_id)).size).toBe(1);
    }
    expect(generator(run.out).conversations).toEqual({ started: 4, skipped_turns: 0 });
  });

  it('on an interrupt, every worker stops: one record per sent request, the rest counted unsent', async () => {
    const prepared = await prepareLoad({
      operation: 'chat',
      mode: 'full',
      datasetPath: SAMPLE,
      setFlags: [],
      cwd: dir,
    });
    const spec = LoadSpecSchema.parse({
      operation: 'chat',
      mode: 'full',
      model: 'open',
      rate: 20,
      arrival: 'constant',
      max_in_flight: 100,
      connections: null,
      stages: null,
      duration_ms: null,
      requests: 200,
      warmup_ms: 0,
      cooldown_ms: 0,
      seed: 1,
      question_order: 'sequential',
      set: 'default',
      tokens: 1,
      token_weights: null,
      shard: null,
      start_at: null,
      conversations: false,
      think_time: null,
    });
    const controller = new AbortController();
    const result = await runLoad({
      spec,
      baseUrl: sim.baseUrl,
      tokens: [TOKENS.demo],
      prepared,
      target: 'simulator',
      cwd: dir,
      outDir: 'interrupted',
      signal: controller.signal,
      graceMs: 5_000,
      retries: 0,
      retry429: false,
      version: 'test',
      workers: 2,
      onRecord: () => controller.abort(),
    });
    expect(result.interrupted).toBe(true);
    const keys = records(result.outDir).map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(result.generator.sent);
    expect(result.generator.sent + result.generator.unsent + result.generator.dropped.length).toBe(200);
    expect(result.generator.unsent).toBeGreaterThan(0);
  });

  it('refuses a bad --workers before sending anything (exit 2); more workers than requests is fine', async () => {
    for (const [value, message] of [
      ['0', '--workers: 0 is outside 1..64'],
      ['x', '--workers: "x" is not a whole number or auto'],
      ['1.5', 'is not a whole number'],
    ] as const) {
      const run = await load(`bad-${value}`, [...open, '--workers', value]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(existsSync(run.out)).toBe(false);
    }
    // More workers than requests is fine: the idle one sends nothing.
    const many = await load('many', [
      '--dataset',
      SAMPLE,
      '--mode',
      'full',
      '--rate',
      '100',
      '--requests',
      '1',
      '--workers',
      '2',
    ]);
    expect(many.code, many.stderr).toBe(0);
    expect(records(many.out)).toHaveLength(1);
  });
});

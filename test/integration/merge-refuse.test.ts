/**
 * `chatbench merge` in-process on crafted shard directories: every way runs fail to belong
 * together is refused with its message and exit 2 before anything is written; an interrupted
 * shard merges with a warning; gates are checked on the merged whole (exit 1, junit.xml suite);
 * the key order used to sort the merged records.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/app/merge/merge-runs.js';
import { main } from '../../src/cli/main.js';
import { makeRecord, makeScores } from '../../src/metrics/test-records.js';
import type { RequestRecord } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';

/** The plan: 4 questions × stream/full = 8 requests; request n goes to shard n mod 4 + 1. */
const PLAN: RequestRecord[] = [1, 2, 3, 4].flatMap((q) =>
  (['stream', 'full'] as const).map((mode) => makeRecord({ question_id: `q${q}`, mode })),
);
const shardOf = (i: number) => PLAN.filter((_, n) => n % 4 === i - 1);

function manifest(index: number, over: Record<string, unknown> = {}) {
  return {
    manifest_version: 1,
    chatbench_version: '0.1.0',
    command: 'eval',
    started_at: `2026-01-01T00:00:0${index}.000Z`,
    base_url: 'http://127.0.0.1:1/api',
    target: 'simulator',
    plan_version: 1,
    planned_requests: 2,
    planned_total: 8,
    shard: { index, count: 4 },
    dataset: { path: 'q.csv', sha256: 'a'.repeat(64), questions: 4 },
    models: null,
    sets: [{ name: 'default', multi: false, models: ['m'] }],
    defaults: {},
    options: { mode: 'both', repeat: 1, concurrency: 4 },
    ...over,
  };
}

/** Writes a shard directory `name` under `root`: its manifest and its records. */
function shard(
  root: string,
  name: string,
  index: number,
  over: Record<string, unknown> = {},
  records = shardOf(index),
  tail = '',
) {
  mkdirSync(join(root, name));
  writeFileSync(join(root, name, 'manifest.json'), JSON.stringify(manifest(index, over)));
  writeFileSync(join(root, name, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n${tail}`);
}

/** s1..s4: the four good shards of the plan. */
function fourShards(): string {
  const root = mkdtempSync(join(tmpdir(), 'chatbench-merge-refuse-'));
  for (const i of [1, 2, 3, 4]) shard(root, `s${i}`, i);
  return root;
}

async function merge(root: string, args: string[]) {
  const fake = createFakeIo({ cwd: root });
  const code = await main(['merge', ...args], fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('chatbench merge refuses runs that do not belong together', () => {
  it.each([
    [
      'another dataset',
      (r: string) => shard(r, 'x', 2, { dataset: { path: 'q.csv', sha256: 'b'.repeat(64), questions: 4 } }),
      ['s1', 'x', 's3', 's4'],
      'x/ ran another dataset than s1/ (sha256 bbbbbbbbbbbb… vs aaaaaaaaaaaa…)',
    ],
    [
      'another sets file',
      (r: string) => shard(r, 'x', 2, { models: { path: 'm.json', sha256: 'c'.repeat(64) } }),
      ['s1', 'x', 's3', 's4'],
      'x/ used another sets file than s1/ (sha256 cccccccccccc… vs none)',
    ],
    [
      'another command',
      (r: string) => shard(r, 'x', 2, { command: 'load' }),
      ['s1', 'x', 's3', 's4'],
      'x/ is a load run but s1/ is an eval run: only runs of one command merge',
    ],
    [
      'another plan version',
      (r: string) => shard(r, 'x', 2, { plan_version: 2 }),
      ['s1', 'x', 's3', 's4'],
      'x/ has plan version 2 but s1/ has 1',
    ],
    [
      'another shard count',
      (r: string) => shard(r, 'x', 2, { shard: { index: 2, count: 5 } }),
      ['s1', 'x', 's3', 's4'],
      'x/ is shard 2/5 but s1/ is shard 1/4: shard counts differ',
    ],
    [
      'another major version',
      (r: string) => shard(r, 'x', 2, { chatbench_version: '1.0.0' }),
      ['s1', 'x', 's3', 's4'],
      'x/ was written by chatbench 1.0.0 but s1/ by 0.1.0: major versions differ',
    ],
    [
      'another plan',
      (r: string) => shard(r, 'x', 2, { options: { mode: 'stream', repeat: 1 } }),
      ['s1', 'x', 's3', 's4'],
      'x/ planned other requests than s1/',
    ],
    // Sets that differ only in a temperature look alike in every other field: the whole plan's digest tells.
    [
      'a shard of another plan',
      (r: string) => shard(r, 'x', 2, { whole_plan_sha256: 'd'.repeat(64) }),
      ['s1', 'x', 's3', 's4'],
      "x/ is a shard of another plan than s1/ (the whole plans' digests differ",
    ],
    [
      'not a shard',
      (r: string) => shard(r, 'x', 2, { shard: null }),
      ['s1', 'x', 's3', 's4'],
      'x/ is not a shard: merge joins the runs of --shard i/N',
    ],
    ['a missing shard', () => undefined, ['s1', 's2', 's4'], 'missing shard 3/4'],
    ['two missing shards', () => undefined, ['s4', 's2'], 'missing shard 1/4\nmissing shard 3/4'],
    [
      'a shard given twice',
      (r: string) => shard(r, 'again', 2),
      ['s1', 's2', 'again', 's3', 's4'],
      'shard 2/4 given twice: s2/ and again/',
    ],
    [
      'a key in two shards',
      (r: string) => shard(r, 'x', 3, {}, [...shardOf(3), PLAN[0]!]),
      ['s1', 's2', 'x', 's4'],
      'request key q1|default|stream|0 is in both s1/ and x/',
    ],
    ['no manifest', (r: string) => mkdirSync(join(r, 'x')), ['s1', 'x', 's3', 's4'], 'x/manifest.json: no such file'],
    [
      'a bad record',
      (r: string) => shard(r, 'x', 2, {}, shardOf(2), '{"key": 1}\n'),
      ['s1', 'x', 's3', 's4'],
      'x/results.jsonl:3: ',
    ],
  ])('%s: exit 2, nothing written', async (_name, make, dirs, message) => {
    const root = fourShards();
    make(root);
    const { code, stderr, stdout } = await merge(root, [...dirs, '--out', 'merged']);
    expect(stderr).toContain(message);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(existsSync(join(root, 'merged', 'results.jsonl'))).toBe(false);
  });

  it('refuses an output directory that holds a run, a bad gate and --slo before reading any record', async () => {
    const root = fourShards();
    const taken = await merge(root, ['s1', 's2', 's3', 's4', '--out', 's1']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('--out s1 already holds a run (results.jsonl)');
    const badGate = await merge(root, ['s1', 's2', 's3', 's4', '--out', 'merged', '--gate', 'pass_rate >=']);
    expect(badGate.code).toBe(2);
    const slo = await merge(root, ['s1', 's2', 's3', 's4', '--out', 'merged', '--slo', 'ttfp_ms <= 2000']);
    expect(slo.stderr).toContain('--slo applies to load runs; these are eval runs');
    expect(slo.code).toBe(2);
    expect(existsSync(join(root, 'merged'))).toBe(false);
  });
});

describe('chatbench merge of good shards', () => {
  it('merges an interrupted shard with a warning, sorted by key, with a manifest listing the shards', async () => {
    const root = fourShards();
    shard(root, 'short', 2, {}, shardOf(2).slice(0, 1), '{"torn'); // interrupted: 1 of 2 records, a torn last line
    const { code, stderr } = await merge(root, ['s1', 'short', 's3', 's4', '--out', 'merged']);
    expect(code).toBe(0);
    expect(stderr).toContain('warning: short/ (shard 2/4) recorded 1 of its 2 planned requests');
    expect(stderr).toContain('warning: short/results.jsonl: a torn last line was skipped');
    const keys = readFileSync(join(root, 'merged', 'results.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as RequestRecord).key);
    expect(keys).toEqual([
      'q1|default|full|0',
      'q1|default|stream|0',
      'q2|default|full|0',
      'q2|default|stream|0',
      'q3|default|stream|0',
      'q4|default|full|0',
      'q4|default|stream|0',
    ]);
    const merged = JSON.parse(readFileSync(join(root, 'merged', 'manifest.json'), 'utf8'));
    expect(merged).toMatchObject({ shard: null, planned_requests: 8, started_at: '2026-01-01T00:00:01.000Z' });
    expect(merged.merged_from[1]).toEqual({
      dir: 'short/',
      shard: { index: 2, count: 4 },
      chatbench_version: '0.1.0',
      started_at: '2026-01-01T00:00:02.000Z',
      planned_requests: 2,
      records: 1,
      torn_lines: 1,
    });
  });

  it('checks gates on the merged whole: exit 1, the failure printed and in junit.xml', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-merge-gates-'));
    // q1 fails in both modes: shards 1 and 2 alone pass 50% of their group, the whole 3 of 4 = 75%.
    const failing = new Set([0, 1]);
    const records = PLAN.map((r, n) => (failing.has(n) ? { ...r, scores: makeScores({ pass: false }) } : r));
    for (const i of [1, 2, 3, 4])
      shard(
        root,
        `s${i}`,
        i,
        {},
        records.filter((_, n) => n % 4 === i - 1),
      );
    const passing = await merge(root, ['s1', 's2', 's3', 's4', '--out', 'ok', '--gate', 'pass_rate >= 0.75']);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain('Gates: all 2 passed.');
    const failed = await merge(root, ['s1', 's2', 's3', 's4', '--out', 'fail', '--gate', 'pass_rate >= 0.76']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/FAIL pass_rate >= 0.76 failed for set default\/stream: 75%/);
    expect(readFileSync(join(root, 'fail', 'junit.xml'), 'utf8')).toMatch(
      /<testsuite name="gates" tests="2" failures="2"/,
    );
  });
});

describe('compareKeys', () => {
  it.each([
    ['q2|a|stream|0', 'q10|a|stream|0', -1],
    ['q1|a|stream|2', 'q1|a|stream|10', -1],
    ['q1|a|full|0', 'q1|a|stream|0', -1],
    ['q1|b|stream|0', 'q1|a|stream|0', 1],
    ['q01|a|stream|0', 'q1|a|stream|0', -1],
    ['q1|a|stream|0', 'q1|a|stream|0', 0],
    ['x|a|stream|0', 'x1|a|stream|0', 1],
  ])('%s vs %s → %i', (a, b, sign) => {
    expect(Math.sign(compareKeys(a, b))).toBe(sign);
    expect(Math.sign(compareKeys(b, a))).toBe(-sign || 0);
  });
});

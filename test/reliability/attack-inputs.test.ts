/**
 * Issue 23, bounded inputs: a 260 KB "billion laughs" YAML config is refused with exit 2 naming the
 * file, before anything is sent and without expanding it; a `--checks` module that allocates without
 * end is stopped at its worker's heap cap as that check's error, and the worker sees no secret and
 * prints nothing of its own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { readRunRecords, runCli, scratch, STACK_LINE, writeCsv } from './helpers.js';

it('a 260 KB "billion laughs" config: exit 2 naming the file and line, nothing sent', async () => {
  const server = await startHostileServer(() => ({
    headers: { 'content-type': 'application/json' },
    body: fullAnswer({ answer: 'Fine.' }),
  }));
  const dir = scratch();
  const lines = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= 9; i++)
    lines.push(`l${i}: &l${i} [${Array.from({ length: 2_900 }, () => `*l${i - 1}`).join(', ')}]`);
  const config = join(dir, 'laughs.yaml');
  writeFileSync(config, `${lines.join('\n')}\n`.slice(0, 260 * 1024));
  const dataset = writeCsv(dir, [['q1', 'Question?', '', '', 'false', 'x']]);
  const run = await runCli([
    'eval',
    '--config',
    config,
    '--base-url',
    server.baseUrl,
    '--token',
    'tok-1234',
    '--dataset',
    dataset,
    '--mode',
    'full',
    '--out',
    join(dir, 'run'),
  ]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`${config}:1: YAML anchors and aliases`);
  expect(run.stderr).not.toMatch(STACK_LINE);
  expect(server.requests).toHaveLength(0);
});

it('a --checks module that allocates without end: that check errs, the run goes on; its worker holds no secret and its output stays off --json', async () => {
  const TOKEN = 'tok-checks-Zq9xSECRET0123';
  const server = await startHostileServer(() => ({
    headers: { 'content-type': 'application/json' },
    body: fullAnswer({ answer: 'Fine.' }),
  }));
  const dir = scratch();
  const checks = join(dir, 'checks.mjs');
  writeFileSync(
    checks,
    [
      "console.log('noise from a check on stdout'); console.error('noise from a check on stderr');",
      'export const hog = () => { const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); };',
      "export const spy = () => { console.log('more noise'); return { pass: true, reason: JSON.stringify({ env: process.env, argv: process.argv }) }; };",
    ].join('\n'),
  );
  const dataset = writeCsv(dir, [
    ['q1', 'One?', '', '', 'false', 'x'],
    ['q2', 'Two?', '', '', 'false', 'x'],
  ]);
  const out = join(dir, 'run');
  const before = process.memoryUsage().rss;
  const run = await runCli(
    [
      'eval',
      '--base-url',
      server.baseUrl,
      '--dataset',
      dataset,
      '--mode',
      'full',
      '--checks',
      checks,
      '--checks-max-heap-bytes',
      '32MiB',
      '--checks-timeout',
      '20s',
      '--json',
      '--out',
      out,
    ],
    { env: { CHATBENCH_TOKEN: TOKEN, PATH: '/usr/bin' } },
  );
  const grew = process.memoryUsage().rss - before;
  expect(run.stderr).not.toMatch(STACK_LINE);
  expect(run.code).toBe(0);
  expect(() => JSON.parse(run.stdout)).not.toThrow(); // stdout is the one JSON document, nothing mixed in
  expect(run.stdout + run.stderr).not.toContain('noise from a check');
  const records = readRunRecords(out);
  expect(records).toHaveLength(2);
  for (const r of records) {
    expect(r.checks?.hog).toMatchObject({ score: null, error: expect.stringMatching(/heap/) });
    const seen = JSON.parse(r.checks?.spy?.reason ?? '') as { env: Record<string, string>; argv: string[] };
    expect(seen.env).toEqual({ PATH: '/usr/bin' });
    expect(seen.argv.join(' ')).not.toContain(TOKEN.slice(0, 8));
  }
  expect(grew).toBeLessThan(200 * 1024 * 1024);
});

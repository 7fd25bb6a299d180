/**
 * Issue 12, the smaller promises: capacity's messages name capacity's own flags; a 1 GB one-line
 * CSV is refused by its size (not called "not UTF-8"); a `__proto__` column is refused by name
 * instead of vanishing; `--token-file /dev/zero` is read no further than the limit; a token with a
 * control character is refused (exit 2) instead of failing every request as `network`; and
 * `--resume` with other options records the resume's own options in the manifest.
 */
import { closeSync, openSync, readFileSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestSchema } from '../../src/app/store/manifest.js';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { runCli, scratch, STACK_LINE, writeCsv } from './helpers.js';

const answer = () => ({ headers: { 'content-type': 'application/json' }, body: fullAnswer({ answer: 'Fine.' }) });

describe('smaller promises', () => {
  it.each([
    [['--start-rate', '0'], '--start-rate must be a number above 0 and at most 100,000 per second, got 0'],
    [['--step-duration', '5s', '--step-warmup', '10s'], '--step-warmup: warm-up and cool-down take the whole schedule'],
    [['--users', '--start-users', '0'], '--start-users must be a whole number from 1 to 10,000, got 0'],
  ])("capacity %j: the message names capacity's flag", async (flags, line) => {
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const run = await runCli([
      'capacity',
      '--base-url',
      'http://127.0.0.1:9/api',
      '--dataset',
      dataset,
      ...flags,
      '--out',
      join(dir, 'cap'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`chatbench: ${line}\n`);
  });

  it('a 1 GB one-line CSV is refused by its size, before it is read', async () => {
    const dir = scratch();
    const dataset = join(dir, 'huge.csv');
    const fd = openSync(dataset, 'w');
    ftruncateSync(fd, 1024 ** 3); // sparse: a gigabyte on paper, nothing on the disk
    closeSync(fd);
    const run = await runCli(['validate', '--dataset', dataset]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`chatbench: ${dataset}: 1.1 GB, over the 268 MB limit of an input file\n`);
  });

  it('a __proto__ column is refused by name, not dropped', async () => {
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', 'secret']], 'proto.csv', 'id,question,__proto__');
    const run = await runCli(['validate', '--dataset', dataset]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `chatbench: ${dataset}:1: column "__proto__" cannot be kept (the name is reserved in JavaScript objects); rename it\n`,
    );
  });

  it('--token-file /dev/zero is refused at the limit instead of read for ever', async () => {
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    for (const command of [['eval'], ['load', '--rate', '1', '--requests', '1']]) {
      const run = await runCli([
        ...command,
        '--base-url',
        'http://127.0.0.1:9/api',
        '--token-file',
        '/dev/zero',
        '--dataset',
        dataset,
        '--out',
        join(dir, 'run'),
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('chatbench: --token-file /dev/zero: more than the 1.0 MB limit of a token file\n');
    }
  });

  it('a token with a control character is refused, exit 2, nothing sent, the token never printed', async () => {
    const server = await startHostileServer(answer);
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const tokenFile = join(dir, 'tokens.txt');
    writeFileSync(tokenFile, 'onyx_pat_ok_1\nonyx_pat_b\x7fd_2 3\n');
    const cases: Array<[string[], Record<string, string>, string]> = [
      [
        ['eval', '--token', 'onyx_pat_\x01secret'],
        {},
        '--token: the token holds a control character (U+0001 at character 10); a token is printable ASCII',
      ],
      [
        ['eval'],
        { CHATBENCH_TOKEN: 'onyx_pat_\x1bsecret' },
        'CHATBENCH_TOKEN: the token holds a control character (U+001B at character 10); a token is printable ASCII',
      ],
      [
        ['load', '--rate', '1', '--requests', '1', '--token-file', tokenFile],
        {},
        `--token-file ${tokenFile}: token 2: the token holds a control character (U+007F at character 11); a token is printable ASCII`,
      ],
    ];
    for (const [args, env, line] of cases) {
      const run = await runCli(
        [...args, '--base-url', server.baseUrl, '--dataset', dataset, '--out', join(dir, 'run')],
        { env },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`chatbench: ${line}\n`);
      expect(run.stderr).not.toContain('secret');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('--resume with other --timeout, --retries and --concurrency records them in the manifest', async () => {
    const server = await startHostileServer(answer);
    const dir = scratch();
    const dataset = writeCsv(dir, [
      ['q1', 'Hello?', '', '', 'false', 'x'],
      ['q2', 'Again?', '', '', 'false', 'x'],
    ]);
    const out = join(dir, 'run');
    const args = ['eval', '--base-url', server.baseUrl, '--token', 'tok-1234', '--dataset', dataset, '--mode', 'full'];
    expect((await runCli([...args, '--out', out])).code).toBe(0);
    const results = join(out, 'results.jsonl');
    writeFileSync(results, `${readFileSync(results, 'utf8').split('\n')[0]}\n`);
    const resumed = await runCli([...args, '--timeout', '5s', '--retries', '2', '--concurrency', '7', '--resume', out]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).not.toMatch(STACK_LINE);
    const manifest = ManifestSchema.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(manifest.options).toMatchObject({ timeout_ms: null, retries: 0, concurrency: 4 }); // null: the silence limit's default
    expect(manifest.resumes).toEqual([
      {
        started_at: expect.any(String),
        options: expect.objectContaining({ timeout_ms: 5000, retries: 2, concurrency: 7 }),
      },
    ]);
  });
});

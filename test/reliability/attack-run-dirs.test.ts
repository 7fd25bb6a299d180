/**
 * Issue 12, run directories and paths: two processes on one run directory (the second exits 2
 * naming the holder; a dead holder's lock is taken over, another host's is honoured), and an --out
 * that is an existing file, /dev/null or a read-only place, for every command that writes one
 * (eval, load, merge, capacity, baseline save, compare): exit 2 with one line, nothing sent. Also
 * `serve --host 999.1.1.1`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/app/store/run-dir-lock.js';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { waitFor } from '../helpers/spawn-cli.js';
import { readRunRecords, runCli, scratch, STACK_LINE, writeCsv } from './helpers.js';

const answer = () => ({ headers: { 'content-type': 'application/json' }, body: fullAnswer({ answer: 'Fine.' }) });
const questions = (n: number) => Array.from({ length: n }, (_, i) => [`q${i}`, `Question ${i}?`, '', '', 'false', 'x']);

describe('one writer per run directory', () => {
  it('two --resume of one directory at once: the second exits 2 naming the holder; every key recorded once', async () => {
    let letGo = () => {};
    const hold = new Promise<void>((resolve) => (letGo = resolve));
    let holding = false;
    const server = await startHostileServer(() => ({ ...answer(), ...(holding ? { after: hold } : {}) }));
    const dir = scratch();
    const dataset = writeCsv(dir, questions(6));
    const out = join(dir, 'run');
    const args = [
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--mode',
      'full',
      '--concurrency',
      '2',
    ];
    expect((await runCli([...args, '--out', out])).code).toBe(0);
    // Leave two records: four requests to go, held in flight until the second process has been refused.
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n');
    writeFileSync(join(out, 'results.jsonl'), `${lines.slice(0, 2).join('\n')}\n`);
    holding = true;
    const first = runCli([...args, '--resume', out]);
    await waitFor(() => server.requests.length > 6, 'the first resume to send');
    const second = await runCli([...args, '--resume', out]);
    letGo();
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(
      `is being written by another chatbench (pid ${process.pid} on ${hostname()}, \`eval --resume\``,
    );
    expect(second.stderr).not.toMatch(STACK_LINE);
    expect((await first).code).toBe(0);
    expect(server.requests).toHaveLength(6 + 4);
    const keys = readRunRecords(out).map((r) => r.key);
    expect(keys).toHaveLength(6);
    expect(new Set(keys).size).toBe(6);
    expect(existsSync(join(out, LOCK_FILE))).toBe(false);
  });

  it('a lock left by a process that is gone is taken over; one of another host is honoured', async () => {
    const server = await startHostileServer(answer);
    const dir = scratch();
    const dataset = writeCsv(dir, questions(1));
    const lock = (host: string) =>
      JSON.stringify({
        pid: 4_194_305,
        hostname: host,
        command: 'eval',
        started_at: '2026-01-01T00:00:00.000Z',
        token: 'x',
      });
    const stale = join(dir, 'stale');
    mkdirSync(stale);
    writeFileSync(join(stale, LOCK_FILE), lock(hostname())); // above Linux's highest pid: never alive
    const run = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--mode',
      'full',
      '--out',
      stale,
    ]);
    expect(run.code).toBe(0);
    const held = join(dir, 'held');
    mkdirSync(held);
    writeFileSync(join(held, LOCK_FILE), lock('build-agent-7'));
    const refused = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--mode',
      'full',
      '--out',
      held,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pid 4194305 on build-agent-7');
    expect(server.requests).toHaveLength(1);
  });
});

describe('an --out chatbench cannot write is refused before anything is sent', () => {
  let shards: [string, string];
  let run: string;
  let dataset: string;
  beforeAll(async () => {
    const server = await startHostileServer(answer, afterAll);
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-rel-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    dataset = writeCsv(dir, questions(2));
    const common = [
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--mode',
      'full',
    ];
    shards = [join(dir, 's1'), join(dir, 's2')];
    for (const [i, out] of shards.entries())
      expect((await runCli([...common, '--shard', `${i + 1}/2`, '--out', out])).code).toBe(0);
    run = join(dir, 'whole');
    expect((await runCli([...common, '--out', run])).code).toBe(0);
  });

  const targets = (dir: string): Array<[string, string]> => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    return [
      ['an existing file', file],
      ['/dev/null', '/dev/null'],
      ['a read-only place', '/sys/chatbench-attack-out'],
    ];
  };
  const commands: Record<string, (baseUrl: string, out: string) => string[]> = {
    eval: (url, out) => ['eval', '--base-url', url, '--token', 'tok-1234', '--dataset', dataset, '--out', out],
    load: (url, out) => [
      'load',
      '--base-url',
      url,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--rate',
      '10',
      '--requests',
      '2',
      '--out',
      out,
    ],
    capacity: (url, out) => [
      'capacity',
      '--base-url',
      url,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--step-duration',
      '1s',
      '--out',
      out,
    ],
    merge: (_url, out) => ['merge', ...shards, '--out', out],
    'baseline save': (_url, out) => ['baseline', 'save', run, out],
    compare: (_url, out) => ['compare', run, run, '--out', out],
  };

  it.each(Object.keys(commands))('%s: exit 2, one line, nothing sent', async (name) => {
    const server = await startHostileServer(answer);
    const dir = scratch();
    for (const [what, out] of targets(dir)) {
      const result = await runCli(commands[name]!(server.baseUrl, out));
      expect({ what, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({
        what,
        code: 2,
        lines: 1,
      });
      expect(result.stderr).toMatch(
        /^chatbench: .*(not a directory|a file|a device|cannot create the directory|cannot write)/,
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  it('serve --host 999.1.1.1: exit 2, one line', async () => {
    const result = await runCli(['serve', '--host', '999.1.1.1', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'chatbench: --host 999.1.1.1: not an IPv4 address (four numbers from 0 to 255, e.g. 127.0.0.1)\n',
    );
  });
});

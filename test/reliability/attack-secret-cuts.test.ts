/**
 * Issue 23, one redaction: a service echoes every secret of the run — the token, every token of a
 * `load --token-file`, the mcp_headers value, the judge's key — whole and cut (a prefix or a suffix,
 * as a truncation leaves it: `Zq9xTOKsecre…`), in answers and in error bodies long enough that
 * chatbench's own truncation cuts them. None of them, and no cut of 8+ characters, reaches stdout,
 * stderr, any file of the run (results.jsonl, reports, viewer.html), or any request the judge
 * receives. A secret holding CR LF or a control character is refused (exit 2) before anything is sent.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { line, startHostileServer, streamedAnswer, type HostileRequest } from '../helpers/hostile-server.js';
import { startRawServer } from '../helpers/raw-server.js';
import { readRunRecords, runCli, scratch, writeCsv, writeJson, type CliRun } from './helpers.js';

const TOKEN = 'Zq9xTOKsecret0123456789abcdef';
const USER2 = 'Wp4kUSERtwo9876543210zyxwvu';
const MCP = 'Mh7cMCPvalue5544332211qwerty';
const JUDGE = 'sk-Jd2JUDGEkey1029384756poiuy';
const SECRETS = [TOKEN, USER2, MCP, JUDGE];

/** What must never appear of the run's `secrets`: each, its first and its last 8 characters (any longer cut holds one of them). */
function leaks(texts: Record<string, string>, secrets: readonly string[] = SECRETS): string[] {
  const forms = secrets.flatMap((s) => [s, s.slice(0, 8), s.slice(-8)]);
  return Object.entries(texts).flatMap(([where, text]) =>
    forms.filter((f) => text.includes(f)).map((f) => `${f} in ${where}`),
  );
}

function everything(run: CliRun, out: string): Record<string, string> {
  return Object.fromEntries([
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]),
  ]);
}

/** Every secret, whole and cut both ways, in one text. */
const echo = (prefix: string) =>
  `${prefix} ${SECRETS.map((s) => `${s} ${s.slice(0, 12)}… …${s.slice(-10)}`).join(' ')}`;

/** Answers echo everything; the second question gets a 500 whose detail puts the token where a 300-character cut falls. */
function echoing(req: HostileRequest) {
  if (req.body?.message?.startsWith('Fail')) {
    return {
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ detail: `${'x'.repeat(270)}${TOKEN}${MCP}` }),
    };
  }
  return { body: streamedAnswer({ deltas: [echo('The answer is'), ` and ${'y'.repeat(40)}${TOKEN}`] }) };
}

describe('a service echoing every secret, whole and cut', () => {
  it('eval with a judge: no secret or cut in any output, nor in any request the judge received', async () => {
    const server = await startHostileServer(echoing);
    const judge = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [
            { message: { role: 'assistant', content: JSON.stringify({ score: 1, reason: echo('Judge says') }) } },
          ],
        }),
      );
    });
    const dir = scratch();
    const dataset = writeCsv(dir, [
      ['q1', 'What is it?', '', '', 'false', 'x'],
      ['q2', 'Fail please', '', '', 'false', 'x'],
    ]);
    const models = writeJson(dir, 'models.json', {
      sets: [{ name: 'base' }],
      defaults: { mcp_headers: { Authorization: `Bearer ${MCP}` } },
    });
    const tokenFile = join(dir, 'token.txt');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const out = join(dir, 'run');
    const run = await runCli(
      [
        'eval',
        '--base-url',
        server.baseUrl,
        '--token-file',
        tokenFile,
        '--dataset',
        dataset,
        '--sets-file',
        models,
        '--max-error-rate',
        '1',
        '--judge',
        judge.origin,
        '--judge-model',
        'm',
        '--judge-figures',
        'relevance',
        '--no-judge-cache',
        '--out',
        out,
      ],
      { env: { CHATBENCH_JUDGE_TOKEN: JUDGE } },
    );
    expect(run.code).toBe(0);
    const records = readRunRecords(out);
    expect(records.map((r) => r.outcome).sort()).toEqual(['http_error', 'ok']);
    expect(records.find((r) => r.outcome === 'ok')?.answer).toContain('The answer is [redacted]');
    expect(judge.requests.length).toBeGreaterThan(0);
    expect(readdirSync(out)).toContain('viewer.html'); // the page that embeds every answer is among the files searched
    // USER2 is no secret of this run (only of the load run below): it may stay.
    expect(
      leaks(
        {
          ...everything(run, out),
          ...Object.fromEntries(judge.requests.map((r, i) => [`judge request ${i}`, r.body])),
        },
        [TOKEN, MCP, JUDGE],
      ),
    ).toEqual([]);
  });

  it("load --token-file: every user's token echoed in every answer is taken out", async () => {
    const server = await startHostileServer(echoing);
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'What is it?', '', '', 'false', 'x']]);
    const tokens = join(dir, 'tokens.txt');
    writeFileSync(tokens, `${TOKEN}\n${USER2}\n`);
    const out = join(dir, 'load');
    const run = await runCli([
      'load',
      '--base-url',
      server.baseUrl,
      '--token-file',
      tokens,
      '--dataset',
      dataset,
      '--rate',
      '50',
      '--requests',
      '4',
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    expect(new Set(server.requests.map((r) => r.headers.authorization))).toEqual(
      new Set([`Bearer ${TOKEN}`, `Bearer ${USER2}`]),
    );
    expect(readRunRecords(out).map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(readdirSync(out)).toContain('viewer.html');
    expect(leaks(everything(run, out), [TOKEN, USER2])).toEqual([]);
  });
});

describe('a secret holding CR LF or a control character is refused, nothing sent', () => {
  const cases: Array<[string, (dir: string) => { args: string[]; env: Record<string, string> }]> = [
    [
      'CHATBENCH_JUDGE_TOKEN with CR LF',
      () => ({
        args: ['--judge', 'JUDGE', '--judge-model', 'm'],
        env: { CHATBENCH_JUDGE_TOKEN: `${JUDGE}\r\nX-Injected: 1` },
      }),
    ],
    [
      'CHATBENCH_JUDGE_TOKEN ending in CR LF',
      () => ({ args: ['--judge', 'JUDGE', '--judge-model', 'm'], env: { CHATBENCH_JUDGE_TOKEN: `${JUDGE}\r\n` } }),
    ],
    [
      '--judge-token-file with a control character',
      (dir) => {
        writeFileSync(join(dir, 'judge.txt'), `${JUDGE}\u0001\n`);
        return {
          args: ['--judge', 'JUDGE', '--judge-model', 'm', '--judge-token-file', join(dir, 'judge.txt')],
          env: {},
        };
      },
    ],
    [
      '--judge-token-file with CR LF inside',
      (dir) => {
        writeFileSync(join(dir, 'judge.txt'), `${JUDGE}\r\nX-Injected: 1\n`);
        return {
          args: ['--judge', 'JUDGE', '--judge-model', 'm', '--judge-token-file', join(dir, 'judge.txt')],
          env: {},
        };
      },
    ],
    ['CHATBENCH_TOKEN with ESC', () => ({ args: [], env: { CHATBENCH_TOKEN: `${TOKEN}\u001b[2J` } })],
    [
      'an mcp_headers value with CR LF',
      (dir) => ({
        args: [
          '--sets-file',
          writeJson(dir, 'models.json', {
            sets: [{ name: 'b' }],
            defaults: { mcp_headers: { 'X-Key': `${MCP}\r\nX-Injected: 1` } },
          }),
        ],
        env: {},
      }),
    ],
  ];
  it.each(cases)('%s: exit 2, the secret not echoed', async (_name, make) => {
    const server = await startHostileServer(() => ({ body: streamedAnswer({ deltas: ['fine'] }) }));
    const judge = await startRawServer((_req, res) => void res.writeHead(500).end());
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'What is it?', '', '', 'false', 'x']]);
    const { args, env } = make(dir);
    const run = await runCli(
      [
        'eval',
        '--base-url',
        server.baseUrl,
        '--dataset',
        dataset,
        '--out',
        join(dir, 'run'),
        ...args.map((a) => (a === 'JUDGE' ? judge.origin : a)),
      ],
      { env: { CHATBENCH_TOKEN: 'plain-token-1234', ...env } },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/control character|white space/);
    expect(server.requests).toHaveLength(0);
    expect(judge.requests).toHaveLength(0);
    expect(leaks({ stdout: run.stdout, stderr: run.stderr })).toEqual([]);
  });

  it('load --token-file with a control character in a token: exit 2, nothing sent', async () => {
    const server = await startHostileServer(() => ({
      body: [line({ user_message_id: 1, reserved_assistant_message_id: 2 })],
    }));
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'What is it?', '', '', 'false', 'x']]);
    writeFileSync(join(dir, 'tokens.txt'), `${TOKEN}\n${USER2}\u0000\n`);
    const run = await runCli([
      'load',
      '--base-url',
      server.baseUrl,
      '--token-file',
      join(dir, 'tokens.txt'),
      '--dataset',
      dataset,
      '--rate',
      '10',
      '--requests',
      '1',
      '--out',
      join(dir, 'load'),
    ]);
    expect(run.code).toBe(2);
    expect(server.requests).toHaveLength(0);
    expect(leaks({ stdout: run.stdout, stderr: run.stderr })).toEqual([]);
  });
});

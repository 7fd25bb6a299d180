/**
 * Issue 12, secrets: a hostile service echoes the token and the mcp_headers values in every string it
 * sends — the answer (streamed and full), a streaming error's error_code, a 429's scope and reset_at
 * and error_code, a multi-model stream's model names, document ids of citations and final
 * documents, a packet type — and none of it reaches stdout, stderr or any file of the run, in the
 * plain form or as report.md escapes it (`_` → `\_`). A password in --base-url or
 * CHATBENCH_BASE_URL is never printed, whatever is wrong with the URL.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fullAnswer,
  line,
  packet,
  startHostileServer,
  streamedAnswer,
  type HostileRequest,
} from '../helpers/hostile-server.js';
import { readRunRecords, runCli, scratch, writeCsv, writeJson, type CliRun } from './helpers.js';

const TOKEN = 'onyx_pat_SECRET_tok_0123456789';
const MCP = 'mcp_SECRET_value_abcdef';
const PASSWORD = 'pw_SECRET_9876';

/** Every form a secret could take in an output: as it is, and with markdown's `\_`. */
const forms = (secret: string) => [secret, secret.replaceAll('_', '\\_')];

function leaks(texts: Record<string, string>): string[] {
  return Object.entries(texts).flatMap(([where, text]) =>
    [TOKEN, MCP, PASSWORD]
      .flatMap(forms)
      .filter((s) => text.includes(s))
      .map((s) => `${s} in ${where}`),
  );
}

function everything(run: CliRun, out: string): Record<string, string> {
  return Object.fromEntries([
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]),
  ]);
}

/** The hostile service: every string it can send carries a secret. */
function echoEverywhere(req: HostileRequest) {
  const question = req.body?.message ?? '';
  if (question.startsWith('Limited')) {
    return {
      status: 429,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error_code: `RATE_${TOKEN}`,
        detail: `slow down ${MCP}`,
        scope: `scope-${TOKEN}`,
        reset_at: `at-${MCP}`,
        retry_after_seconds: 1,
      }),
    };
  }
  if (req.body?.stream === false) {
    return {
      headers: { 'content-type': 'application/json' },
      body: fullAnswer({ answer: `Full ${TOKEN} [[1]]`, documents: [`doc-${MCP}`], citations: [[1, `doc-${MCP}`]] }),
    };
  }
  if ((req.body?.llm_overrides?.length ?? 0) >= 2) {
    return {
      body: [
        line({
          user_message_id: 1,
          responses: [
            { message_id: 2, model_name: `gpt-${TOKEN}` },
            { message_id: 3, model_name: `m-${MCP}` },
          ],
        }),
        packet({ type: 'message_delta', content: `Model zero says ${TOKEN}` }, 0),
        packet({ type: 'stop', stop_reason: null }, 0),
        line({ error: `model one failed: ${MCP}`, error_code: `E_${MCP}`, details: { model_index: 1 } }),
      ],
    };
  }
  return {
    body: streamedAnswer({
      deltas: [`The token is ${TOKEN} `, `and the header ${MCP} `, '[[1]](https://x)'],
      documents: [`doc-${TOKEN}`],
      citations: [[1, `doc-${TOKEN}`]],
      extra: [packet({ type: `x_${TOKEN}` }), packet({ type: 'custom_tool_start', tool_name: MCP })],
    }),
  };
}

function inputs(dir: string) {
  const dataset = writeCsv(dir, [
    ['q1', 'What is the token?', '', '', 'false', 'x'],
    ['q2', 'Limited question', '', '', 'false', 'x'],
  ]);
  const models = writeJson(dir, 'models.json', {
    sets: [
      { name: 'fast', llm_override: { model_provider: 'openai', model_version: 'gpt-4o-mini' } },
      { name: 'duo', llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }] },
    ],
    defaults: { mcp_headers: { Authorization: `Bearer ${MCP}` } },
  });
  const tokenFile = join(dir, 'token.txt');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  return { dataset, models, tokenFile };
}

describe('a service that echoes the credentials in every string it sends', () => {
  it('eval: nothing printed or written carries them (answer, error_code, 429 scope/reset_at, model names, ids, packet types)', async () => {
    const server = await startHostileServer(echoEverywhere);
    const dir = scratch();
    const { dataset, models, tokenFile } = inputs(dir);
    const out = join(dir, 'run');
    const run = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token-file',
      tokenFile,
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--mode',
      'both',
      '--max-error-rate',
      '1',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe(
      run.stderr
        .split('\n')
        .filter((l) => !/^\s+at /.test(l))
        .join('\n'),
    );
    expect(run.code).toBe(0);
    expect(server.requests.length).toBe(6); // 2 questions × (fast stream, fast full, duo stream)
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const records = readRunRecords(out);
    // The service's words were kept, the secrets taken out of them.
    expect(records.find((r) => r.key === 'q1|fast|stream|0')?.answer).toBe(
      'The token is [redacted] and the header [redacted] [[1]](https://x)',
    );
    expect(records.find((r) => r.key === 'q2|fast|stream|0')?.rate_limit).toEqual({
      retry_after_s: 1,
      scope: 'scope-[redacted]',
      reset_at: 'at-[redacted]',
    });
    expect(records.find((r) => r.key === 'q1|duo|stream|0')?.models?.map((m) => [m.model_name, m.error_code])).toEqual([
      ['gpt-[redacted]', null],
      ['m-[redacted]', 'E_[redacted]'],
    ]);
    expect(leaks(everything(run, out))).toEqual([]);
  });

  it('load: the summary on stdout and every file of the run are clean too', async () => {
    const server = await startHostileServer(echoEverywhere);
    const dir = scratch();
    const { dataset, models } = inputs(dir);
    const out = join(dir, 'load');
    const run = await runCli(
      [
        'load',
        '--base-url',
        server.baseUrl,
        '--dataset',
        dataset,
        '--sets-file',
        models,
        '--set-name',
        'duo',
        '--rate',
        '50',
        '--requests',
        '4',
        '--out',
        out,
      ],
      { env: { CHATBENCH_TOKEN: TOKEN } },
    );
    expect(run.code).toBe(0);
    expect(server.requests.length).toBe(4);
    expect(leaks(everything(run, out))).toEqual([]);
  });
});

describe('a password in the base URL is never printed', () => {
  const cases: Array<[string, string[], Record<string, string>]> = [
    ['a scheme that is not http(s)', ['--base-url', `ftp://user:${PASSWORD}@127.0.0.1/api`], {}],
    ['a port out of range', ['--base-url', `http://user:${PASSWORD}@127.0.0.1:99999/api`], {}],
    ['a password holding a slash', ['--base-url', `http://user:${PASSWORD}/x@127.0.0.1:8080/api`], {}],
    ['CHATBENCH_BASE_URL with a query', [], { CHATBENCH_BASE_URL: `http://user:${PASSWORD}@127.0.0.1:8080/api?x=1` }],
  ];
  it.each(cases)('%s: exit 2, one line, no password', async (_name, args, env) => {
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const run = await runCli(
      ['eval', ...args, '--token', 'tok-1234', '--dataset', dataset, '--out', join(dir, 'run')],
      { env },
    );
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('***@');
    expect(leaks({ stderr: run.stderr, stdout: run.stdout })).toEqual([]);
  });

  it('load names an unreachable target without it', async () => {
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const out = join(dir, 'run');
    const run = await runCli([
      'load',
      '--base-url',
      `http://user:${PASSWORD}@127.0.0.1:9/api`,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--rate',
      '20',
      '--requests',
      '5',
      '--out',
      out,
    ]);
    expect(run.stderr).toContain('http://127.0.0.1:9/api');
    expect(leaks(everything(run, out))).toEqual([]);
  });
});

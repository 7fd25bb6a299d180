/**
 * Issue 7 §5: the token never appears on stdout, stderr or in any output file, and mcp_headers
 * values never either, after runs with errors, retries, a 403 early stop and an interrupt — even
 * when the server echoes them back in its error bodies (a pydantic 422 echoes its `input`; a proxy
 * may echo headers). The simulator binds loopback unless told otherwise.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';
import type { FakeIo } from '../helpers/fake-io.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { startSim } from '../helpers/start-sim.js';
import { readRunRecords, runCli, scratch, writeCsv, writeJson, type CliRun } from './helpers.js';

const TOKEN = 'onyx_pat_SECRET_token_0123456789';
const MCP_SECRET = 'mcp-SECRET-value-abcdef';
const URL_PASSWORD = 'url-SECRET-pw';

/** Every byte the run printed or wrote, file by file. */
function everything(run: CliRun, out: string): Record<string, string> {
  const files = readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')] as const);
  return Object.fromEntries([['stdout', run.stdout], ['stderr', run.stderr], ...files]);
}

function expectNoSecret(texts: Record<string, string>, secrets: readonly string[]): void {
  const leaks = Object.entries(texts).flatMap(([where, text]) =>
    secrets.filter((s) => text.includes(s)).map((s) => `${s} in ${where}`),
  );
  expect(leaks).toEqual([]);
}

function inputs(dir: string) {
  const dataset = writeCsv(dir, [
    ['q1', 'How many days of paid time off do employees get?', '', '', 'false', 'hr'],
    ['q2', 'What is the expense deadline?', '', '', 'false', 'fin'],
  ]);
  const models = writeJson(dir, 'models.json', {
    sets: [{ name: 'fast', llm_override: { model_version: 'gpt-4o-mini' } }],
    defaults: { mcp_headers: { Authorization: `Bearer ${MCP_SECRET}`, 'X-Extra': MCP_SECRET } },
  });
  const tokenFile = join(dir, 'token.txt');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  return { dataset, models, tokenFile };
}

/** An error body that echoes the request's credentials, as a careless proxy or a 422 `input` does. */
const echo = (status: number) => ({
  status,
  headers: { 'content-type': 'application/json' },
  chunks: [
    {
      at_ms: 0,
      bytes: JSON.stringify({
        detail: `rejected Authorization: Bearer ${TOKEN} with mcp_headers {"Authorization": "Bearer ${MCP_SECRET}"}`,
        input: { mcp_headers: { 'X-Extra': MCP_SECRET } },
      }),
    },
  ],
});

describe('secrets never reach an output', () => {
  it('errors echoing the credentials, with retries', async () => {
    const server = await startScriptedServer([echo(500)]);
    const dir = scratch();
    const { dataset, models, tokenFile } = inputs(dir);
    const out = join(dir, 'run');
    const baseUrl = server.baseUrl.replace('http://', `http://user:${URL_PASSWORD}@`);
    const run = await runCli([
      'eval',
      '--base-url',
      baseUrl,
      '--token-file',
      tokenFile,
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--retries',
      '1',
      '--out',
      out,
    ]);
    // Every request failed with a 500: exit 3, and the verdict (which quotes the error) is redacted too.
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/every request \(2 of 2\) failed the same way, with HTTP 500/);
    expect(server.requests).toHaveLength(4); // two questions, two attempts each
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`); // it was sent, just never written
    const records = readRunRecords(out);
    expect(records.map((r) => [r.outcome, r.http_status, r.attempts.length])).toEqual([
      ['http_error', 500, 2],
      ['http_error', 500, 2],
    ]);
    expect(records[0]?.error_message).toContain('[redacted]');
    expectNoSecret(everything(run, out), [TOKEN, MCP_SECRET, URL_PASSWORD]);
  });

  it('a 403 early stop whose body echoes the credentials', async () => {
    const server = await startScriptedServer([echo(403)]);
    const dir = scratch();
    const { dataset, models } = inputs(dir);
    const out = join(dir, 'run');
    const run = await runCli(
      ['eval', '--base-url', server.baseUrl, '--dataset', dataset, '--sets-file', models, '--out', out],
      { env: { CHATBENCH_TOKEN: TOKEN } },
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/every request was refused with 403/);
    expectNoSecret(everything(run, out), [TOKEN, MCP_SECRET]);
  });

  it('an unreachable target named in the early stop without the password of its URL', async () => {
    const dir = scratch();
    const { dataset } = inputs(dir);
    const out = join(dir, 'run');
    const run = await runCli([
      'eval',
      '--base-url',
      `http://user:${URL_PASSWORD}@127.0.0.1:9/api`,
      '--token',
      TOKEN,
      '--dataset',
      dataset,
      '--out',
      out,
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/api/);
    expectNoSecret(everything(run, out), [TOKEN, URL_PASSWORD]);
  });

  it('an interrupted run against the simulator', async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.2 }, tokens: [{ token: TOKEN, user_id: 'u1' }] } });
    const dir = scratch();
    const { dataset, models } = inputs(dir);
    const out = join(dir, 'run');
    // Interrupted once the first record is written (not after a fixed time a busy machine may not have reached).
    const afterFirstRecord = (fake: FakeIo) => {
      const poll = setInterval(() => {
        if (existsSync(join(out, 'results.jsonl')) && readFileSync(join(out, 'results.jsonl'), 'utf8').includes('\n')) {
          clearInterval(poll);
          fake.interrupt();
        }
      }, 10);
    };
    const run = await runCli(
      [
        'eval',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKEN,
        '--dataset',
        dataset,
        '--sets-file',
        models,
        '--concurrency',
        '1',
        '--grace',
        '50ms',
        '--out',
        out,
      ],
      { during: afterFirstRecord },
    );
    expect(run.code, run.stderr).toBe(130);
    expect(readRunRecords(out).length).toBeGreaterThan(0);
    expectNoSecret(everything(run, out), [TOKEN, MCP_SECRET]);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.defaults.mcp_headers).toEqual({ Authorization: '[redacted]', 'X-Extra': '[redacted]' });
  });

  it('the simulator binds 127.0.0.1 unless told otherwise', async () => {
    const sim = await startSimulator({ corpus: undefined });
    try {
      expect(new URL(sim.baseUrl).hostname).toBe('127.0.0.1');
    } finally {
      await sim.close();
    }
    const fromCli = await startSim();
    expect(new URL(fromCli.baseUrl).hostname).toBe('127.0.0.1');
  });
});

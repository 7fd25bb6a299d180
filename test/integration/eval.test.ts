/**
 * `chatbench eval` end to end, in-process through main(), over real HTTP against the simulator:
 * outcome classes forced by fault triggers, timings against a deterministic profile, multi-model
 * figures, project instructions, redaction, `chatbench report` reproducing the reports, bad input.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { createSimServer, loadCorpus } from '../../src/sim/index.js';
import { traceChatResponses } from '../bench/lib/sim-trace.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'chatbench-eval-'));
const csv = (
  dir: string,
  rows: string[][],
  header = 'id,question,expected_documents,must_contain,expect_no_answer,category',
) => {
  const path = join(dir, 'questions.csv');
  writeFileSync(
    path,
    `${header}\n${rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\n')}\n`,
  );
  return path;
};
const json = (dir: string, name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};
const records = (out: string): RequestRecord[] =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => RequestRecordSchema.parse(JSON.parse(line)));

async function evalCli(args: string[], env: Record<string, string> = {}) {
  const fake = createFakeIo({ env });
  const code = await main(['eval', ...args], fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('chatbench eval against the simulator', () => {
  it('classifies every outcome forced through the fault triggers, one record per planned request', async () => {
    const faults = {
      'reset before headers': ['reset_before_headers', 'network'],
      'reset mid stream': ['reset_mid_stream', 'network'],
      'stall mid stream': ['stall_mid_stream', 'timeout'],
      'malformed line': ['malformed_line', 'invalid_response'],
      'end without stop': ['end_without_stop', 'truncated'],
      'unterminated error': ['unterminated_error', 'stream_error'],
      'server error 500': ['http_500', 'http_error'],
      'unavailable 503': ['http_503', 'http_error'],
      'provider limit': ['streaming_error', 'stream_error'],
    } as const;
    const sim = await startSim({
      config: {
        chat: {
          stall_ms: 1_000_000, // scaled by time_scale: 20 s, far past the 1 s timeout
          time_scale: 0.02,
          faults: {
            triggers: Object.entries(faults).map(([match, [fault]]) => ({
              match,
              fault,
              ...(fault === 'streaming_error' ? { error_code: 'RATE_LIMIT' } : {}),
            })),
          },
        },
      },
    });
    const dir = scratch();
    const rows = [
      ['ok', 'How many days of paid time off do employees get?', '', '', 'false', 'ok'],
      ...Object.keys(faults).map((q, i) => [`f${i}`, `Question with ${q} please`, '', '', 'false', 'fault']),
    ];
    const out = join(dir, 'run');
    const { code, stdout, stderr } = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      csv(dir, rows),
      '--set',
      'mini=openai:gpt-4o-mini',
      '--timeout',
      '1s',
      '--concurrency',
      '3',
      '--out',
      out,
    ]);
    expect(stderr).not.toMatch(/internal error|at .*\.ts:\d+/);
    // The run finishes (the failures differ), says first how many failed, and --max-error-rate's
    // default (0.1) fails it: exit 1, with the gate in junit.xml.
    expect(stdout).toMatch(
      /^! 9 of 10 requests failed \(90%\): 2 http_error, 2 stream_error, 1 truncated, 1 timeout, 2 network, 1 invalid_response\./m,
    );
    expect(stderr).toContain('gate failed: error_rate <= 0.1 failed for set mini/stream: 90%');
    expect(code).toBe(1);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(
      /<testcase name="error_rate &lt;= 0.1 \[mini \(stream\)\]"[^>]*>\s*<failure/,
    );
    const byQuestion = new Map(records(out).map((r) => [r.question_id, r]));
    expect(byQuestion.size).toBe(rows.length);
    expect(byQuestion.get('ok')?.outcome).toBe('ok');
    Object.values(faults).forEach(([fault, outcome], i) =>
      expect({ fault, outcome: byQuestion.get(`f${i}`)?.outcome }).toEqual({ fault, outcome }),
    );
    expect(byQuestion.get(`f${Object.keys(faults).indexOf('server error 500')}`)?.http_status).toBe(500);
    expect(byQuestion.get(`f${Object.keys(faults).indexOf('provider limit')}`)?.error_code).toBe('RATE_LIMIT');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.run.outcomes).toMatchObject({
      ok: 1,
      network: 2,
      timeout: 1,
      invalid_response: 1,
      truncated: 1,
      stream_error: 2,
      http_error: 2,
    });
  });

  it('records 429s as rate_limited with Retry-After, apart from errors', async () => {
    // Burst 3: eval's GET /version probe takes one, as it would from a real gateway's bucket.
    const sim = await startSim({
      config: { rate_limits: { requests_per_second: { global: { rate: 0.01, burst: 3 } } } },
    });
    const dir = scratch();
    const out = join(dir, 'run');
    const rows = Array.from({ length: 5 }, (_, i) => [
      `q${i}`,
      'What is the expense reimbursement deadline?',
      '',
      '',
      'false',
      'x',
    ]);
    const { code, stderr } = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      csv(dir, rows),
      '--concurrency',
      '1',
      '--out',
      out,
    ]);
    // 3 of 5 rate-limited: past --max-error-rate's 0.1 for 429s too.
    expect(stderr).toContain('gate failed: rate_limited_rate <= 0.1 failed');
    expect(code).toBe(1);
    const all = records(out);
    expect(all.map((r) => r.outcome).sort()).toEqual(['ok', 'ok', 'rate_limited', 'rate_limited', 'rate_limited']);
    const limited = all.find((r) => r.outcome === 'rate_limited')!;
    expect(limited.http_status).toBe(429);
    expect(limited.rate_limit?.retry_after_s).toBeGreaterThan(0);
    expect(limited.total_ms).not.toBeNull();
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.groups[0].latency.total_ms.count).toBe(2);
  });

  it('measures each TTFT within a few milliseconds of when the simulator wrote the first token', async () => {
    const fixed = (ms: number) => ({ median: ms, p99: ms });
    const sim = createSimServer({
      corpus: await loadCorpus(),
      config: {
        chat: {
          time_scale: 1,
          ttfp_ms: fixed(20),
          profiles: { default: { pre_answer_ms: fixed(150), first_token_ms: fixed(100), token_ms: fixed(5) } },
        },
      },
    });
    const traces = traceChatResponses(sim.server);
    await new Promise<void>((resolve) => sim.server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => sim.close());
    const { port } = sim.server.address() as AddressInfo;
    const dir = scratch();
    const out = join(dir, 'run');
    const rows = Array.from({ length: 6 }, (_, i) => [
      `q${i}`,
      'How many days of paid time off do employees get?',
      '',
      '',
      'false',
      'x',
    ]);
    // Client and simulator share this process's event loop: how late it ran is the tolerance.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const { code } = await evalCli([
      '--base-url',
      `http://127.0.0.1:${port}${sim.config.base_path}`,
      '--token',
      TOKENS.demo,
      '--dataset',
      csv(dir, rows),
      '--concurrency',
      '2',
      '--out',
      out,
    ]);
    loop.disable();
    expect(code).toBe(0);
    const all = records(out);
    const loopLateMs = loop.max / 1e6;
    // The schedule puts the first answer token at 20 (the first part) + 150 + 100 ms: never early.
    expect(Math.min(...all.map((r) => r.ttft_ms!))).toBeGreaterThanOrEqual(270);
    // Each TTFT against what the simulator itself took for that answer (its trace: the request's
    // arrival to the first delta's flush, on this process's clock), never against the schedule: on
    // a busy machine its timers fire late and the client measures, rightly, a later TTFT. What lies
    // between the two is the request on its way in and the delta on its way out: a few turns of the
    // loop, each late by at most what the loop was observed late by, and a couple of milliseconds of ours.
    const served = new Map(traces.drain().map((t) => [t.message_id, (t.delta_flush ?? Number.NaN) - t.arrival]));
    const limit = 2 + 3 * loopLateMs;
    for (const r of all) {
      const error = r.ttft_ms! - (served.get(r.message_id!) ?? Number.NaN);
      expect({ q: r.question_id, error, limit, within: error > -0.05 && error < limit }).toMatchObject({
        q: r.question_id,
        within: true,
      });
    }
    for (const r of all) {
      // Equal when both reached the client in one read: on a machine busy enough to hold the loop
      // past the 250 ms between them (load average 18, session 42), each is stamped at that read.
      expect(r.ttfp_ms!).toBeLessThanOrEqual(r.ttft_ms!);
      expect(r.first_packet_ms.message_start).toBeGreaterThanOrEqual(270);
      // A late first token the later ones catch up on shortens the measured pace: by at most the loop's lateness.
      expect(r.time_per_delta_ms!).toBeGreaterThanOrEqual(4 - loopLateMs);
      expect(r.time_per_delta_ms!).toBeLessThan(5 + loopLateMs);
    }
  });

  it('gives per-model figures for a multi-model set and applies the project instructions first', async () => {
    const sim = await startSim();
    const dir = scratch();
    const out = join(dir, 'run');
    const models = json(dir, 'models.json', {
      sets: [
        {
          name: 'side-by-side',
          llm_overrides: [
            { model_provider: 'openai', model_version: 'gpt-4o-mini' },
            { model_provider: 'anthropic', model_version: 'claude-sonnet-4' },
          ],
        },
      ],
      defaults: { project: { id: 2, instructions: 'Answer in one paragraph.' } },
    });
    const rows = [['q1', 'How many days of paid time off do employees get?', 'hr-pto-policy', '', 'false', 'hr']];
    const { code } = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      csv(dir, rows),
      '--sets-file',
      models,
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    const [record] = records(out);
    expect(record?.models?.map((m) => [m.model_index, m.model_name, m.outcome])).toEqual([
      [0, 'gpt-4o-mini', 'ok'],
      [1, 'claude-sonnet-4', 'ok'],
    ]);
    for (const model of record!.models!) {
      expect(model.ttft_ms).toBeGreaterThan(0);
      expect(model.answer).toBeTruthy();
      expect(model.scores?.citation_recall).not.toBeUndefined();
    }
    expect(record?.models?.[1]?.reasoning_chars).toBeGreaterThan(0);
    const project = await fetch(`${sim.baseUrl}/user/projects/2/instructions`, {
      headers: { authorization: `Bearer ${TOKENS.demo}` },
    });
    expect(await project.json()).toEqual({ instructions: 'Answer in one paragraph.' });
  });

  it('never writes the token or mcp_headers values, and `report` rebuilds the reports byte for byte', async () => {
    const secret = 'onyx_pat_chatbench_demo';
    const mcpSecret = 'Bearer user-jwt-SECRET-123';
    const sim = await startSim({
      config: { chat: { faults: { triggers: [{ match: 'fail please', fault: 'http_500' }] } } },
    });
    const dir = scratch();
    const out = join(dir, 'run');
    const models = json(dir, 'models.json', {
      sets: [
        { name: 'fast', llm_override: { model_version: 'gpt-4o-mini' } },
        { name: 'accurate', llm_override: { model_version: 'gpt-4o' } },
      ],
      defaults: { mcp_headers: { Authorization: mcpSecret } },
    });
    const rows = [
      ['q1', 'How many days of paid time off do employees get?', 'hr-pto-policy', 'days', 'false', 'hr'],
      ['q2', 'fail please', '', '', 'false', 'x'],
    ];
    // Half of every set's requests fail (q2): past --max-error-rate, so exit 1, its gates in junit.xml.
    const first = await evalCli(
      [
        '--base-url',
        sim.baseUrl,
        '--dataset',
        csv(dir, rows),
        '--sets-file',
        models,
        '--mode',
        'both',
        '--retries',
        '1',
        '--out',
        out,
      ],
      { CHATBENCH_TOKEN: secret },
    );
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('citation recall');
    const files = readdirSync(out);
    expect(files.sort()).toEqual([
      'generator.json',
      'junit.xml',
      'manifest.json',
      'report.html',
      'report.md',
      'results.csv',
      'results.jsonl',
      'summary.json',
      'verdict.json',
      'viewer.html',
    ]);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('name="error_rate &lt;= 0.1 [fast (stream)]"');
    for (const text of [first.stdout, first.stderr, ...files.map((f) => readFileSync(join(out, f), 'utf8'))]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('SECRET-123');
    }
    const before = Object.fromEntries(files.map((f) => [f, readFileSync(join(out, f))]));
    const fake = createFakeIo();
    expect(await main(['report', out], fake.io)).toBe(0);
    for (const f of files)
      expect({ f, same: readFileSync(join(out, f)).equals(before[f]!) }).toEqual({ f, same: true });
  });
});

describe('chatbench eval refuses bad input before sending anything', () => {
  it('lists every dataset and models problem with file:line, exit 2, nothing sent', async () => {
    const sim = await startSim();
    const dir = scratch();
    const dataset = csv(dir, [
      ['q1', 'fine', '', '', 'maybe', 'x'],
      ['q1', '', '', '', 'false', 'x'],
    ]);
    const models = json(dir, 'models.json', { sets: [{ name: 'hot', llm_override: { temperature: 2.5 } }] });
    const { code, stderr } = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--out',
      join(dir, 'run'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${dataset}:2: expect_no_answer`);
    expect(stderr).toContain(`${dataset}:3: question`);
    expect(stderr).toContain('temperature');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(sim.stats().requests).toBe(0);
    expect(readdirSync(dir)).not.toContain('run');
  });

  it.each([
    [['--dataset', 'x.csv'], /no target/],
    [['--dataset', 'x.csv', '--base-url', 'localhost:8080'], /--base-url: "localhost:8080" must start with http/],
    [['--dataset', 'x.csv', '--sim', '--concurrency', 'many'], /--concurrency must be a whole number/],
    [['--dataset', 'x.csv', '--sim', '--timeout', 'soon'], /--timeout: "soon" is not a duration/],
    [['--dataset', 'x.csv', '--sim', '--token', 'a', '--token-file', 'b'], /--token and --token-file conflict/],
    [['--dataset', 'x.csv', '--sim', '--bogus'], /Unknown argument: bogus/],
  ])('usage %j → exit 2', async (args, message) => {
    const { code, stderr } = await evalCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('stops early with exit 3 when the target is unreachable or refuses every request', async () => {
    const dir = scratch();
    const dataset = csv(dir, [
      ['q1', 'Hello?', '', '', 'false', 'x'],
      ['q2', 'Hello again?', '', '', 'false', 'x'],
    ]);
    const closed = await evalCli([
      '--base-url',
      'http://127.0.0.1:9/api',
      '--dataset',
      dataset,
      '--out',
      join(dir, 'a'),
    ]);
    expect(closed.code).toBe(3);
    expect(closed.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/api/);
    const sim = await startSim();
    const refused = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      'wrong-token',
      '--dataset',
      dataset,
      '--out',
      join(dir, 'b'),
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/403/);
    expect(refused.stderr).not.toContain('wrong-token');
  });
});

describe('chatbench eval --shard', () => {
  it('four shards run exactly the keys of the whole plan, each once', async () => {
    const sim = await startSim();
    const dir = scratch();
    const rows = Array.from({ length: 5 }, (_, i) => [
      `q${i}`,
      'How many days of paid time off do employees get?',
      'hr-pto-policy',
      '',
      'false',
      'hr',
    ]);
    const dataset = csv(dir, rows);
    const keys: string[] = [];
    for (let i = 1; i <= 4; i += 1) {
      const out = join(dir, `shard-${i}`);
      const env: Record<string, string> = i === 4 ? { JOB_COMPLETION_INDEX: '3' } : {};
      const shardArgs = i === 4 ? ['--shards', '4'] : ['--shard', `${i}/4`];
      const { code } = await evalCli(
        [
          '--base-url',
          sim.baseUrl,
          '--token',
          TOKENS.demo,
          '--dataset',
          dataset,
          '--set',
          'a=openai:gpt-4o-mini',
          '--mode',
          'both',
          ...shardArgs,
          '--out',
          out,
        ],
        env,
      );
      expect(code).toBe(0);
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({ shard: { index: i, count: 4 }, planned_total: 10 });
      keys.push(...records(out).map((r) => r.key));
    }
    expect(keys).toHaveLength(10);
    expect(new Set(keys).size).toBe(10);
  });

  it.each([
    [['--shard', '3/2'], /--shard: "3\/2": the shard index must be between 1 and 2/],
    [['--shards', '2'], /--shards needs JOB_COMPLETION_INDEX/],
    [['--shard', '1/2', '--shards', '2'], /--shard and --shards conflict/],
  ])('refuses %j with exit 2', async (args, message) => {
    const { code, stderr } = await evalCli(['--sim', '--dataset', 'x.csv', ...args]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});

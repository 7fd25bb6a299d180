/**
 * Issue 11, "a run that failed never looks green": the wrong base URL (every request 404), a
 * service that answers nothing but 429, a closed port under `load` and `capacity` — each exits 3
 * with one line naming the failure and a hint by status, and still leaves reports that open with
 * the failures. A run where only some requests failed finishes, and every report opens with them.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { line, packetLine, startScriptedServer } from '../helpers/scripted-server.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';
import { runCli, scratch, STACK_LINE, writeCsv } from '../reliability/helpers.js';

const question = (i: number) => [`q${i}`, 'How many days of paid time off do employees get?', '', '', 'false', 'hr'];
const dataset = (dir: string, n: number) =>
  writeCsv(
    dir,
    Array.from({ length: n }, (_, i) => question(i)),
  );

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('eval: a run that could not be carried out exits 3', () => {
  it('the wrong base URL (no /api prefix): every request 404 → exit 3 with the hint, the reports open with the failures', async () => {
    const sim = await startSim();
    const dir = scratch();
    const out = join(dir, 'run');
    const origin = sim.baseUrl.replace(/\/api$/, '');
    const run = await runCli([
      'eval',
      '--base-url',
      origin,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset(dir, 12),
      '--concurrency',
      '2',
      '--out',
      out,
    ]);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`chatbench: ${origin}: the first 5 requests failed the same way, with HTTP 404`);
    expect(run.stderr).toContain("hint: no such path: does --base-url include the service's path prefix (e.g. /api)?");
    // Stopped early: the rest was never sent, and what was sent is recorded and reported.
    const records = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(records.length).toBeLessThan(12);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md.split('\n')[0]).toMatch(
      /^> \*\*\d+ of \d+ requests failed \(100%\): \d+ http\\_error\. No request ended ok/,
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(Object.keys(summary)[1]).toBe('banner');
    expect(summary.banner[0]).toMatch(/requests failed \(100%\)/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html.slice(html.indexOf('<main>'), html.indexOf('<h1>'))).toMatch(
      /<p class="banner" role="alert">\d+ of \d+ requests failed/,
    );
  });

  it('a service that answers every request 429 → exit 3, suggesting --retry-429 or less concurrency', async () => {
    const server = await startScriptedServer([
      {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '30' },
        chunks: [{ at_ms: 0, bytes: '{"detail": "Rate limit exceeded"}' }],
      },
    ]);
    const dir = scratch();
    const run = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'T0KEN',
      '--dataset',
      dataset(dir, 3),
      '--out',
      join(dir, 'run'),
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('every request (3 of 3) failed the same way, with HTTP 429');
    expect(run.stderr).toMatch(/hint: rate limited: retry with --retry-429 .* a lower --concurrency/);
  });

  it('some failed, not all: the run finishes, the terminal opens with the failures, --max-error-rate decides', async () => {
    const ids = line({ user_message_id: 1, reserved_assistant_message_id: 2 });
    const ok = {
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        {
          at_ms: 0,
          bytes:
            ids +
            packetLine({ type: 'message_start', final_documents: [] }) +
            packetLine({ type: 'message_delta', content: 'Hi.' }) +
            packetLine({ type: 'stop', stop_reason: null }),
        },
      ],
    };
    const server = await startScriptedServer([
      {
        status: 503,
        headers: { 'content-type': 'application/json' },
        chunks: [{ at_ms: 0, bytes: '{"detail": "busy"}' }],
      },
      ok,
    ]);
    const dir = scratch();
    const questions = dataset(dir, 4);
    const strict = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'T0KEN',
      '--dataset',
      questions,
      '--concurrency',
      '1',
      '--out',
      join(dir, 'strict'),
    ]);
    expect(strict.stdout).toMatch(
      /^! 1 of 4 requests failed \(25%\): 1 http_error\. Latencies and scores describe the 3 that ended ok\.$/m,
    );
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('gate failed: error_rate <= 0.1 failed');
    const lenient = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'T0KEN',
      '--dataset',
      questions,
      '--concurrency',
      '1',
      '--max-error-rate',
      '0.3',
      '--out',
      join(dir, 'lenient'),
    ]);
    expect(lenient.code).toBe(0);
  });
});

describe('load and capacity give the verdict eval gives', () => {
  it('load against a closed port, even with fewer requests than the early stop waits for → exit 3', async () => {
    const port = await closedPort();
    const dir = scratch();
    const run = await runCli([
      'load',
      '--base-url',
      `http://127.0.0.1:${port}/api`,
      '--token',
      'T0KEN',
      '--dataset',
      dataset(dir, 3),
      '--rate',
      '50',
      '--requests',
      '3',
      '--out',
      join(dir, 'load'),
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/every request \(3 of 3\) failed the same way, with a network error \(ECONNREFUSED\)/);
  });

  it('load where every request is 404 → exit 3 with the path hint', async () => {
    const sim = await startSim();
    const dir = scratch();
    const run = await runCli([
      'load',
      '--base-url',
      sim.baseUrl.replace(/\/api$/, ''),
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset(dir, 3),
      '--rate',
      '50',
      '--requests',
      '8',
      '--out',
      join(dir, 'load'),
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('the first 5 requests failed the same way, with HTTP 404');
    expect(run.stderr).toContain("does --base-url include the service's path prefix");
  });

  it('capacity: a later step whose every request is refused alike is a bad step, not the end of the search', async () => {
    // A usage budget of a few answers: spent during the first step, every later request is a 429.
    const sim = await startSim({ config: { rate_limits: { budgets: { per_user: { tokens: 150, window_s: 3600 } } } } });
    const dir = scratch();
    const out = join(dir, 'capacity');
    const run = await runCli([
      'capacity',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset(dir, 3),
      '--start-rate',
      '8',
      '--step-duration',
      '500ms',
      '--max-steps',
      '2',
      '--slo',
      'rate_limited_rate<=0.05',
      '--out',
      out,
    ]);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.code).not.toBe(3);
    const result = JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8'));
    expect(result.steps.length).toBeGreaterThanOrEqual(2);
    expect(result.steps[1].good).toBe(false);
  });

  it('capacity against a closed port → exit 3 at its first step', async () => {
    const port = await closedPort();
    const dir = scratch();
    const run = await runCli([
      'capacity',
      '--base-url',
      `http://127.0.0.1:${port}/api`,
      '--token',
      'T0KEN',
      '--dataset',
      dataset(dir, 3),
      '--start-rate',
      '10', // the first five requests, that the early stop waits for, within half a second
      '--step-duration',
      '1s',
      '--max-steps',
      '2',
      '--out',
      join(dir, 'capacity'),
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/api: connection refused|failed the same way, with a network error \(ECONNREFUSED\)/,
    );
  });
});

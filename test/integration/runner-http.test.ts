import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createChatClient } from '../../src/client/chat-client.js';
import { RunError } from '../../src/errors.js';
import { runPlan, type RunPlanOptions, type UnscoredRecord } from '../../src/runner/index.js';
import { plannedRequest } from '../../src/runner/testing/fake-client.js';
import { UnscoredRecordSchema } from '../../src/runner/unscored-record.js';
import { answerChunks, line, startScriptedServer, type ScriptedResponse } from '../helpers/scripted-server.js';

const TOKEN = 'onyx_pat_runner_secret';
const plan = (n: number) => Array.from({ length: n }, (_, i) => plannedRequest(i));
const ok: ScriptedResponse = { chunks: answerChunks({ ids: 0, start: 5, firstDelta: 10, step: 5 }) };
const json = { 'content-type': 'application/json' };

function run(baseUrl: string, n: number, options: Partial<RunPlanOptions> = {}) {
  const client = createChatClient({ baseUrl, token: TOKEN, timeoutMs: 3_000, connections: options.concurrency ?? 4 });
  onTestFinished(() => client.close());
  const records: UnscoredRecord[] = [];
  const result = runPlan(plan(n), { client, concurrency: 4, onRecord: (r) => records.push(r), ...options });
  return { records, result };
}

describe('runner over HTTP', () => {
  it('keeps the concurrency cap at the server and records every request once', async () => {
    const server = await startScriptedServer([
      { chunks: answerChunks({ ids: 0, start: 10, firstDelta: 20, step: 10 }) },
    ]);
    const { records, result } = run(server.baseUrl, 24, { concurrency: 4 });
    expect((await result).outcomes.ok).toBe(24);
    expect(server.peakInFlight()).toBeLessThanOrEqual(4);
    expect(server.peakInFlight()).toBeGreaterThanOrEqual(2);
    expect(new Set(records.map((r) => r.key)).size).toBe(24);
    for (const record of records) expect(() => UnscoredRecordSchema.parse(record)).not.toThrow();
    expect(JSON.stringify(records)).not.toContain(TOKEN);
  });

  it('retries a 503 and a reset, and honours Retry-After of a 429 (sleep injected)', async () => {
    const server = await startScriptedServer([
      { status: 503, headers: json, chunks: [{ at_ms: 0, bytes: JSON.stringify({ detail: 'busy' }) }] },
      { destroyBeforeHeaders: true },
      {
        status: 429,
        headers: { ...json, 'retry-after': '2' },
        chunks: [{ at_ms: 0, bytes: JSON.stringify({ error_code: 'RATE_LIMITED', detail: 'slow down' }) }],
      },
      ok,
    ]);
    const waits: number[] = [];
    const { records, result } = run(server.baseUrl, 1, {
      concurrency: 1,
      retries: 3,
      retry429: true,
      sleep: async (ms) => void waits.push(ms),
    });
    await result;
    expect(records[0]?.outcome).toBe('ok');
    expect(records[0]?.attempts.map((a) => [a.outcome, a.http_status, a.retry_after_s])).toEqual([
      ['http_error', 503, null],
      ['network', null, null],
      ['rate_limited', 429, 2],
      ['ok', 200, null],
    ]);
    expect(waits[2]).toBe(2000);
    expect(server.requests).toHaveLength(4);
  });

  it('stops early when the target refuses connections (exit 3)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { records, result } = run(`http://127.0.0.1:${port}/api`, 40, { concurrency: 3 });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).message).toBe(`cannot reach http://127.0.0.1:${port}/api: connection refused`);
    expect((error as RunError).exitCode).toBe(3);
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records.length).toBeLessThan(40);
    expect(records.every((r) => r.outcome === 'network' && r.error_code === 'ECONNREFUSED')).toBe(true);
  });

  it('stops early when every first request is refused with 403, quoting the body without the token', async () => {
    const server = await startScriptedServer([
      {
        status: 403,
        headers: json,
        chunks: [{ at_ms: 0, bytes: JSON.stringify({ detail: 'Access denied. User is not authenticated.' }) }],
      },
    ]);
    const { result } = run(server.baseUrl, 40, { concurrency: 2 });
    const error = await result.catch((e: unknown) => e);
    expect((error as RunError).message).toBe(
      'every request was refused with 403: {"detail":"Access denied. User is not authenticated."} — check the token',
    );
    expect(server.requests.length).toBeLessThan(40);
  });

  it('on abort, in-flight streams are cancelled after the grace period and every sent request has its record', async () => {
    const server = await startScriptedServer([
      ok,
      ok,
      { chunks: [{ at_ms: 0, bytes: line({ user_message_id: 1, reserved_assistant_message_id: 2 }) }], stall: true },
    ]);
    const controller = new AbortController();
    const { records, result } = run(server.baseUrl, 20, { concurrency: 3, signal: controller.signal, graceMs: 100 });
    setTimeout(() => controller.abort(), 150);
    // The stalled stream never ends by itself: the run ending at all (and its record saying
    // cancelled) is what shows the grace cancelled it, whatever this machine's speed.
    const summary = await result;
    expect(summary.interrupted).toBe(true);
    expect(records).toHaveLength(summary.sent);
    expect(summary.sent + summary.skipped).toBe(20);
    expect(new Set(records.map((r) => r.key)).size).toBe(records.length);
    expect(records.filter((r) => r.outcome === 'cancelled').length).toBeGreaterThanOrEqual(1);
    expect(records.filter((r) => r.outcome === 'ok').length).toBeGreaterThanOrEqual(2);
  });
});

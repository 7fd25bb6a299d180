import { describe, expect, it } from 'vitest';
import { RunError } from '../errors.js';
import type { Exchange } from '../client/exchange.js';
import { runPlan, type PlanRequests, type RunPlanOptions } from './run-plan.js';
import type { RunProgress } from './progress.js';
import { fakeExchange, gatedClient, plannedRequest, untilSent } from './testing/fake-client.js';
import { seededRandom } from './retry.js';
import { UnscoredRecordSchema, type UnscoredRecord } from './unscored-record.js';

const plan = (n: number) => Array.from({ length: n }, (_, i) => plannedRequest(i));
const tick = () => new Promise((resolve) => setImmediate(resolve));
const noSleep = () => Promise.resolve();

function collect(
  options: Partial<RunPlanOptions> & Pick<RunPlanOptions, 'client' | 'concurrency'>,
  requests: PlanRequests = plan(10),
) {
  const records: UnscoredRecord[] = [];
  const run = runPlan(requests, { sleep: noSleep, onRecord: (r) => records.push(r), ...options });
  return { records, run };
}

describe('concurrency', () => {
  it.each([1, 3, 8])('never more than %i in flight, and that many while the plan lasts', async (limit) => {
    const client = gatedClient();
    const { records, run } = collect({ client, concurrency: limit }, plan(20));
    let finished = false;
    void run.then(() => (finished = true));
    await untilSent(client, limit); // the first wave: a lane a turn
    for (let round = 0; round < 100 && !finished; round++) {
      await tick();
      expect(client.inFlight()).toBeLessThanOrEqual(limit);
      if (client.sent.length < 20 - limit) expect(client.inFlight()).toBe(limit);
      client.open();
    }
    await run;
    expect(client.peak()).toBe(limit);
    expect(records.map((r) => r.question_id).sort()).toEqual(
      plan(20)
        .map((p) => p.question_id)
        .sort(),
    );
  });
});

describe('the first wave', () => {
  it('starts one lane per turn of the loop, not all in one turn (a first wave sent at once holds the loop)', async () => {
    const client = gatedClient();
    let firstSends = 0;
    const { run } = collect({ client, concurrency: 3, onFirstSend: () => firstSends++ }, plan(6));
    for (let i = 0; i < 50; i++) await Promise.resolve(); // every microtask, no macrotask
    expect(client.sent).toHaveLength(1);
    expect(firstSends).toBe(1);
    await untilSent(client, 3);
    expect(client.inFlight()).toBe(3);
    client.open(true);
    expect((await run).sent).toBe(6);
    expect(firstSends).toBe(1);
  });
});

describe('records', () => {
  it('one per request, scores null, closed-loop timing fields, model names filled from the plan', async () => {
    const client = gatedClient((body) =>
      fakeExchange({
        sent: 1500.5,
        total_ms: 42,
        models: body.message === 'question 0?' ? [multiModel(0), { ...multiModel(1), model_name: 'named' }] : null,
      }),
    );
    client.open(true);
    const requests = [plannedRequest(0, { model_names: ['plan-0', 'plan-1'] }), plannedRequest(1)];
    const { records, run } = collect({ client, concurrency: 2, now: () => 1000 }, requests);
    const result = await run;
    expect(result).toMatchObject({ planned: 2, sent: 2, skipped: 0, interrupted: false });
    expect(result.outcomes.ok).toBe(2);
    for (const record of records) expect(() => UnscoredRecordSchema.parse(record)).not.toThrow();
    const first = records.find((r) => r.question_id === 'q0');
    expect(first).toMatchObject({
      key: 'q0|s|stream|0',
      sent_offset_ms: 500.5,
      scheduled_offset_ms: null,
      queue_ms: 0,
      response_ms: 42,
      token_index: null,
      scores: null,
    });
    expect(first?.attempts).toEqual([
      { attempt: 1, outcome: 'ok', http_status: 200, error_code: null, retry_after_s: null, total_ms: 42 },
    ]);
    expect(first?.models?.map((m) => m.model_name)).toEqual(['plan-0', 'named']);
  });
});

function multiModel(model_index: number) {
  const { models: _m, ...single } = fakeExchange();
  const {
    content_type: _c,
    http_status: _h,
    headers_ms: _hm,
    rate_limit: _r,
    sent: _s,
    started_at: _st,
    error_body: _e,
    chat_session_id: _cs,
    message_id: _mi,
    unknown_parts: _u,
    decode_errors: _d,
    ...figures
  } = single;
  return { ...figures, model_index, model_name: null, message_id: null, scores: null };
}

describe('retries', () => {
  const failing = (outcomes: Partial<Exchange>[]) => (_: unknown, attempt: number) =>
    fakeExchange(outcomes[attempt - 1] ?? {});

  it('retries network errors and 5xx, records every attempt, and the last decides', async () => {
    const client = gatedClient(
      failing([
        { outcome: 'network', error_code: 'ECONNRESET', http_status: null },
        { outcome: 'http_error', http_status: 503 },
        { outcome: 'ok' },
      ]),
    );
    client.open(true);
    const waits: number[] = [];
    const { records, run } = collect(
      { client, concurrency: 1, retries: 3, sleep: async (ms) => void waits.push(ms) },
      plan(1),
    );
    await run;
    expect(records).toHaveLength(1);
    expect(records[0]?.outcome).toBe('ok');
    expect(records[0]?.attempts.map((a) => [a.attempt, a.outcome, a.http_status])).toEqual([
      [1, 'network', null],
      [2, 'http_error', 503],
      [3, 'ok', 200],
    ]);
    // exponential with jitter: within [bound/2, bound] for bounds 250 and 500
    expect(waits[0]).toBeGreaterThanOrEqual(125);
    expect(waits[0]).toBeLessThanOrEqual(250);
    expect(waits[1]).toBeGreaterThanOrEqual(250);
    expect(waits[1]).toBeLessThanOrEqual(500);
  });
  it('stops when the retries are spent, and never retries 4xx, timeouts or stream errors', async () => {
    for (const [fields, sends] of [
      [{ outcome: 'http_error', http_status: 500 }, 3],
      [{ outcome: 'http_error', http_status: 404 }, 1],
      [{ outcome: 'timeout' }, 1],
      [{ outcome: 'stream_error' }, 1],
      [{ outcome: 'rate_limited', http_status: 429 }, 1],
    ] as const) {
      const client = gatedClient(() => fakeExchange(fields));
      client.open(true);
      const { records, run } = collect({ client, concurrency: 1, retries: 2 }, plan(1));
      await run;
      expect(client.sent).toHaveLength(sends);
      expect(records[0]?.outcome).toBe(fields.outcome);
      expect(records[0]?.attempts).toHaveLength(sends);
    }
  });
  it('with retry429, waits Retry-After capped at retryAfterCapS', async () => {
    const limited = (s: number) => ({
      outcome: 'rate_limited' as const,
      http_status: 429,
      rate_limit: { retry_after_s: s, scope: 'user', reset_at: null },
    });
    const client = gatedClient(failing([limited(7), limited(120), { outcome: 'ok' }]));
    client.open(true);
    const waits: number[] = [];
    const { records, run } = collect(
      {
        client,
        concurrency: 1,
        retries: 2,
        retry429: true,
        retryAfterCapS: 30,
        sleep: async (ms) => void waits.push(ms),
      },
      plan(1),
    );
    await run;
    expect(waits).toEqual([7000, 30_000]);
    expect(records[0]?.attempts.map((a) => a.retry_after_s)).toEqual([7, 120, null]);
  });
  it('jitter is reproducible from the seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});

describe('early stop', () => {
  it('when the target refuses every first connection: a RunError, records for what was sent, the rest skipped', async () => {
    const client = gatedClient(() =>
      fakeExchange({ outcome: 'network', error_code: 'ECONNREFUSED', http_status: null }),
    );
    client.open(true);
    const { records, run } = collect({ client, concurrency: 3, retries: 2 }, plan(50));
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).message).toBe('cannot reach http://fake.invalid/api: connection refused');
    expect((error as RunError).exitCode).toBe(3);
    expect(records.length).toBeLessThan(10);
    expect(new Set(records.map((r) => r.key)).size).toBe(records.length);
  });
  it('when the first requests are all refused with 403, quoting the body', async () => {
    const client = gatedClient(() =>
      fakeExchange({
        outcome: 'http_error',
        http_status: 403,
        error_body: '{"detail": "Access denied. User is not authenticated."}',
      }),
    );
    client.open(true);
    const error = await collect({ client, concurrency: 8 }, plan(50)).run.catch((e: unknown) => e);
    expect((error as RunError).message).toBe(
      'every request was refused with 403: {"detail": "Access denied. User is not authenticated."} — check the token',
    );
  });
  it('not when one of the first requests succeeds', async () => {
    const client = gatedClient((body) =>
      fakeExchange(body.message === 'question 2?' ? {} : { outcome: 'http_error', http_status: 403 }),
    );
    client.open(true);
    const { records, run } = collect({ client, concurrency: 5 }, plan(12));
    await run;
    expect(records).toHaveLength(12);
  });
});

describe('the run could not be carried out (every request, or the first five, failed the same way)', () => {
  it('the first five final outcomes all 404: a RunError with the hint about the path prefix; the rest skipped', async () => {
    const client = gatedClient(() =>
      fakeExchange({ outcome: 'http_error', http_status: 404, error_message: 'HTTP 404: {"detail": "Not Found"}' }),
    );
    client.open(true);
    const { records, run } = collect({ client, concurrency: 2 }, plan(40));
    const error = (await run.catch((e: unknown) => e)) as RunError;
    expect(error).toBeInstanceOf(RunError);
    expect(error.message).toBe(
      'http://fake.invalid/api: the first 5 requests failed the same way, with HTTP 404: HTTP 404: {"detail": "Not Found"}',
    );
    expect(error.hint).toBe("no such path: does --base-url include the service's path prefix (e.g. /api)?");
    expect(records.length).toBeLessThan(10);
  });
  it('judges the final attempt: 429s that a retry got past do not stop the run', async () => {
    const client = gatedClient((_body, attempt) =>
      fakeExchange(attempt === 1 ? { outcome: 'rate_limited', http_status: 429 } : {}),
    );
    client.open(true);
    const { records, run } = collect({ client, concurrency: 2, retries: 1, retry429: true }, plan(8));
    const result = await run;
    expect(records).toHaveLength(8);
    expect(result.run_failed).toBeUndefined();
  });
  it('a plan no longer than five: the run ends, and its verdict names every request and the hint by status', async () => {
    const client = gatedClient(() =>
      fakeExchange({ outcome: 'http_error', http_status: 503, error_message: 'HTTP 503' }),
    );
    client.open(true);
    const { records, run } = collect({ client, concurrency: 2 }, plan(3));
    const result = await run;
    expect(records).toHaveLength(3);
    expect(result.run_failed?.message).toBe(
      'http://fake.invalid/api: every request (3 of 3) failed the same way, with HTTP 503: HTTP 503',
    );
    expect(result.run_failed?.hint).toBe(
      'the service is failing (HTTP 503): check its health and logs before measuring it',
    );
  });
  it('no verdict when the failures differ, or one request succeeded', async () => {
    const mixed = gatedClient((body) =>
      fakeExchange(
        body.message === 'question 1?'
          ? { outcome: 'timeout', http_status: null }
          : { outcome: 'http_error', http_status: 500 },
      ),
    );
    mixed.open(true);
    expect((await collect({ client: mixed, concurrency: 2 }, plan(4)).run).run_failed).toBeUndefined();
    const one = gatedClient((body) =>
      fakeExchange(body.message === 'question 3?' ? {} : { outcome: 'http_error', http_status: 500 }),
    );
    one.open(true);
    expect((await collect({ client: one, concurrency: 1 }, plan(4)).run).run_failed).toBeUndefined();
  });
});

describe('stopping', () => {
  it('an abort stops sending; in-flight requests get the grace period, then end cancelled; nothing lost', async () => {
    const client = gatedClient();
    const controller = new AbortController();
    const { records, run } = collect({ client, concurrency: 4, signal: controller.signal, graceMs: 60 }, plan(30));
    await untilSent(client, 4);
    client.open(); // the first 4 finish
    await tick();
    await tick();
    expect(client.inFlight()).toBe(4);
    controller.abort();
    const result = await run;
    expect(result).toMatchObject({ interrupted: true, sent: 8, skipped: 22 });
    expect(records.map((r) => r.outcome).sort()).toEqual([...Array(4).fill('cancelled'), ...Array(4).fill('ok')]);
    expect(new Set(records.map((r) => r.key)).size).toBe(8);
  });
  it('in-flight requests that finish within the grace period keep their outcome', async () => {
    const client = gatedClient();
    const controller = new AbortController();
    const { records, run } = collect({ client, concurrency: 3, signal: controller.signal, graceMs: 5_000 }, plan(10));
    await untilSent(client, 3);
    controller.abort();
    setTimeout(() => client.open(), 20);
    const result = await run;
    expect(result.sent).toBe(3);
    expect(records.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);
  });
  it('an already aborted signal sends nothing', async () => {
    const client = gatedClient();
    const { records, run } = collect({ client, concurrency: 2, signal: AbortSignal.abort() }, plan(5));
    expect(await run).toMatchObject({ sent: 0, skipped: 5, interrupted: true });
    expect(records).toHaveLength(0);
  });
  it('once stopped, the rest of the plan is counted as skipped, not built', async () => {
    const client = gatedClient();
    const controller = new AbortController();
    const requests = plan(1000);
    let built = 0; // how many planned requests the runner drew from the plan
    const lazy = {
      length: requests.length,
      *[Symbol.iterator]() {
        for (const planned of requests) {
          built += 1;
          yield planned;
        }
      },
    };
    const { run } = collect({ client, concurrency: 2, signal: controller.signal, graceMs: 0 }, lazy);
    await tick();
    controller.abort();
    expect(await run).toMatchObject({ interrupted: true, sent: 2, skipped: 998 });
    expect(built).toBeLessThanOrEqual(4); // the two sent, and a unit's look-ahead each
  });
  it('with random faults and retries, every sent request gives exactly one record', async () => {
    const random = seededRandom(42);
    const kinds: Partial<Exchange>[] = [
      {},
      { outcome: 'network', error_code: 'ECONNRESET' },
      { outcome: 'http_error', http_status: 502 },
      { outcome: 'timeout' },
      { outcome: 'stream_error' },
    ];
    const client = gatedClient(() => fakeExchange(kinds[Math.floor(random() * kinds.length)]));
    client.open(true);
    const { records, run } = collect({ client, concurrency: 7, retries: 2 }, plan(200));
    const result = await run;
    expect(records).toHaveLength(200);
    expect(new Set(records.map((r) => r.key)).size).toBe(200);
    expect(Object.values(result.outcomes).reduce((a, b) => a + b, 0)).toBe(200);
    expect(client.sent.length).toBe(records.reduce((n, r) => n + r.attempts.length, 0));
  });
});

describe('progress', () => {
  it('is throttled, and the last snapshot is complete', async () => {
    let clock = 0;
    const snapshots: RunProgress[] = [];
    const client = gatedClient(() => {
      clock += 10; // each answer takes 10 ms of the fake clock
      return fakeExchange();
    });
    client.open(true);
    await collect({ client, concurrency: 2, now: () => clock, onProgress: (p) => snapshots.push(p) }, plan(100)).run;
    expect(snapshots.length).toBeLessThanOrEqual(1 + Math.ceil(1000 / 250) + 1);
    expect(snapshots.at(-1)).toMatchObject({ done: 100, total: 100, sent: 100, inFlight: 0, ratePerS: 100 });
    expect(snapshots.at(-1)?.outcomes.ok).toBe(100);
  });
});

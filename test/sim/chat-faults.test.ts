import { startChatServerForTest } from '../helpers/start-chat-server.js';
import { describe, expect, it } from 'vitest';
import { post, type ChatTestServer } from '../../src/sim/chat/fixtures/test-server.js';
import type { ChatConfigInput, FaultKind } from '../../src/sim/chat/index.js';

const start = (config: ChatConfigInput) => startChatServerForTest(config);

const QUESTION = 'Which receipts do I need for expenses and hotel stays when travelling?';
const lines = (body: string) => body.split('\n').filter((l) => l !== '');
const isJson = (line: string) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};
const hasStop = (body: string) => body.includes('"type": "stop"');
const forced = (fault: FaultKind, extra: Record<string, unknown> = {}) =>
  start({ time_scale: 0.05, faults: { triggers: [{ match: 'fail here', fault, ...extra }] } });
const ask = (server: ChatTestServer, stream = true) => post(server.url, { message: `${QUESTION} fail here`, stream });

describe('faults forced by a trigger', () => {
  it('reset_before_headers: the connection dies before any byte', async () => {
    const server = await forced('reset_before_headers');
    const r = await ask(server);
    expect(r.status).toBeUndefined();
    expect(r.error?.code).toMatch(/ECONNRESET|socket hang up/);
    expect(server.engine.stats().faults_injected.reset_before_headers).toBe(1);
  });
  it('reset_mid_stream: a 200 stream with some parts, then a reset, no stop', async () => {
    const server = await forced('reset_mid_stream');
    const r = await ask(server);
    expect(r.status).toBe(200);
    expect(r.error).toBeDefined();
    expect(lines(r.body).length).toBeGreaterThan(7);
    expect(hasStop(r.body)).toBe(false);
  });
  it('stall_mid_stream: a silence of stall_ms (scaled) without heartbeats, then the rest with its stop', async () => {
    const server = await start({
      time_scale: 0.05,
      stall_ms: 6000,
      heartbeat_ms: 50,
      faults: { triggers: [{ match: 'fail here', fault: 'stall_mid_stream' }] },
    });
    const r = await ask(server);
    const gaps = r.chunkTimes.slice(1).map((t, i) => t - r.chunkTimes[i]!);
    // 6000 × 0.05 = 300 ms of silence; token gaps here are ~1 ms, a heartbeat would come every 50 ms.
    // A loaded machine can send the packet before the stall late, which shortens the gap as the client
    // sees it (test:stress saw 181 ms): the bound is a third of the stall, still twice a heartbeat's.
    expect(Math.max(...gaps)).toBeGreaterThan(100);
    expect(hasStop(r.body)).toBe(true);
    expect(r.body).not.toContain('chat_heartbeat');
  });
  it('malformed_line: exactly one line that is not JSON, and the stream goes on to its stop', async () => {
    const server = await forced('malformed_line');
    const r = await ask(server);
    expect(lines(r.body).filter((l) => !isJson(l))).toHaveLength(1);
    expect(hasStop(r.body)).toBe(true);
    expect(r.body.endsWith('\n')).toBe(true);
  });
  it('end_without_stop: a clean end mid-answer, every line valid, no stop', async () => {
    const server = await forced('end_without_stop');
    const r = await ask(server);
    expect(r.error).toBeUndefined();
    expect(lines(r.body).every(isJson)).toBe(true);
    expect(r.body).toContain('message_delta');
    expect(hasStop(r.body)).toBe(false);
  });
  it('unterminated_error: the deployed last line, with no line end', async () => {
    const server = await forced('unterminated_error');
    const r = await ask(server);
    expect(r.body.endsWith('\n')).toBe(false);
    const last = r.body.slice(r.body.lastIndexOf('\n') + 1);
    expect(last).toMatch(
      /^\{"error": "[^"]+", "stack_trace": null, "error_code": "UNKNOWN_ERROR", "is_retryable": true, "details": null\}$/,
    );
    expect(hasStop(r.body)).toBe(false);
  });
  it.each([
    { fault: 'http_500' as const, status: 500 },
    { fault: 'http_503' as const, status: 503 },
  ])('$fault: status $status with a {"detail": ...} body', async ({ fault, status }) => {
    const server = await forced(fault);
    const r = await ask(server);
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe('application/json');
    expect(Object.keys(JSON.parse(r.body))).toEqual(['detail']);
    expect(server.tokens).toEqual([0]);
  });
  it('streaming_error: the given error_code ends the stream, newline-terminated, no stop', async () => {
    const server = await forced('streaming_error', { error_code: 'RATE_LIMIT' });
    const r = await ask(server);
    const last = JSON.parse(lines(r.body).at(-1)!);
    // v3.2+: the details name the model (and its model_index, 0 for a single model).
    expect(last).toEqual({
      error: expect.stringContaining('RATE_LIMIT'),
      stack_trace: null,
      error_code: 'RATE_LIMIT',
      is_retryable: true,
      details: { model: 'gpt-4o', provider: 'openai', model_index: 0 },
    });
    expect(r.body.endsWith('\n')).toBe(true);
    expect(hasStop(r.body)).toBe(false);
    expect(server.engine.stats()).toMatchObject({ streaming_errors: 1, faults_injected: { streaming_error: 1 } });
  });
  it('a /regex/ trigger matches; other questions are untouched', async () => {
    const server = await start({
      time_scale: 0.05,
      faults: { triggers: [{ match: '/^boom\\b/i', fault: 'http_503' }] },
    });
    expect((await post(server.url, { message: 'BOOM what now' })).status).toBe(503);
    expect((await post(server.url, { message: 'no boom here' })).status).toBe(200);
  });
});

describe('faults by rate', () => {
  it('rate 1 hits every request; every injected fault is counted', async () => {
    const server = await start({ time_scale: 0.05, faults: { rates: { http_503: 1 } } });
    for (let i = 0; i < 3; i++) expect((await post(server.url, { message: `question ${i}` })).status).toBe(503);
    expect(server.engine.stats().faults_injected.http_503).toBe(3);
  });
  it('a model profile error_rate fails its answers with MODEL_ERROR', async () => {
    const server = await start({ time_scale: 0.05, profiles: { default: { error_rate: 1 } } });
    const r = await post(server.url, { message: QUESTION });
    expect(JSON.parse(lines(r.body).at(-1)!)).toMatchObject({ error_code: 'MODEL_ERROR', is_retryable: true });
  });
});

describe('faults on stream=false take their whole-body form', () => {
  it('reset_mid_stream: part of the body, then a reset', async () => {
    const server = await forced('reset_mid_stream');
    const r = await ask(server, false);
    expect(r.status).toBe(200);
    expect(r.error).toBeDefined();
    expect(Buffer.byteLength(r.body)).toBeLessThan(Number(r.headers['content-length']));
  });
  it.each(['malformed_line', 'end_without_stop'] as const)('%s: a cut body that is not JSON', async (fault) => {
    const server = await forced(fault);
    const r = await ask(server, false);
    expect(r.error).toBeUndefined();
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
    expect(isJson(r.body)).toBe(false);
  });
  it('unterminated_error: status 200 with error_msg', async () => {
    const server = await forced('unterminated_error');
    const body = JSON.parse((await ask(server, false)).body);
    expect(body.error_msg).toContain('UNKNOWN_ERROR');
  });
});

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createChatClient, type ChatClientOptions } from '../../src/client/chat-client.js';
import { ExchangeSchema, type Exchange } from '../../src/client/exchange.js';
import {
  answerChunks,
  line,
  packetLine,
  startScriptedServer,
  type ScriptedResponse,
} from '../helpers/scripted-server.js';

const TOKEN = 'onyx_pat_secret_value';
const ids = line({ user_message_id: 1, reserved_assistant_message_id: 2 });
const json = { 'content-type': 'application/json' };

async function sendOnce(
  script: ScriptedResponse,
  options: Partial<ChatClientOptions> = {},
  stream = true,
  signal?: AbortSignal,
): Promise<Exchange> {
  const server = await startScriptedServer([script]);
  const client = createChatClient({ baseUrl: server.baseUrl, token: TOKEN, timeoutMs: 2_000, ...options });
  onTestFinished(() => client.close());
  const exchange = await client.send({ message: 'q', stream }, signal);
  expect(() => ExchangeSchema.parse(exchange)).not.toThrow();
  expect(JSON.stringify(exchange)).not.toContain(TOKEN);
  return exchange;
}

describe('status-decided outcomes', () => {
  it('429 is rate_limited with Retry-After, scope and reset_at kept', async () => {
    const body = {
      scope: 'user',
      reset_at: '2030-01-01T00:00:00Z',
      retry_after_seconds: 42,
      error_code: 'RATE_LIMITED',
      detail: 'Usage budget spent',
    };
    const e = await sendOnce({
      status: 429,
      headers: { ...json, 'retry-after': '7' },
      chunks: [{ at_ms: 0, bytes: JSON.stringify(body) }],
    });
    expect(e).toMatchObject({
      outcome: 'rate_limited',
      http_status: 429,
      error_code: 'RATE_LIMITED',
      error_message: 'Usage budget spent',
      rate_limit: { retry_after_s: 7, scope: 'user', reset_at: '2030-01-01T00:00:00Z' },
      ttfp_ms: null,
    });
  });
  it('429 without Retry-After falls back to the body, and to null', async () => {
    const e = await sendOnce({
      status: 429,
      headers: json,
      chunks: [
        { at_ms: 0, bytes: JSON.stringify({ error_code: 'RATE_LIMITED', detail: 'x', retry_after_seconds: 3 }) },
      ],
    });
    expect(e.rate_limit).toEqual({ retry_after_s: 3, scope: null, reset_at: null });
  });
  it('500 is http_error with the detail; a long message is cut to 300 chars', async () => {
    const e = await sendOnce({
      status: 500,
      headers: json,
      chunks: [{ at_ms: 0, bytes: JSON.stringify({ detail: 'x'.repeat(1000) }) }],
    });
    expect(e).toMatchObject({ outcome: 'http_error', http_status: 500, error_code: null });
    expect(e.error_message?.length).toBe(300);
  });
  it('403 keeps error_code and detail, and never echoes the token', async () => {
    const e = await sendOnce({
      status: 403,
      headers: json,
      chunks: [
        {
          at_ms: 0,
          bytes: JSON.stringify({ error_code: 'INSUFFICIENT_PERMISSIONS', detail: `token ${TOKEN} lacks a scope` }),
        },
      ],
    });
    expect(e).toMatchObject({
      outcome: 'http_error',
      http_status: 403,
      error_code: 'INSUFFICIENT_PERMISSIONS',
      error_message: 'token [redacted] lacks a scope',
    });
  });
  it('422 lists the validation messages (both shapes)', async () => {
    const described = await sendOnce({
      status: 422,
      headers: json,
      chunks: [
        {
          at_ms: 0,
          bytes: JSON.stringify({ detail: [{ loc: ['body', 'message'], msg: 'Field required', type: 'missing' }] }),
        },
      ],
    });
    expect(described.error_message).toBe('Field required');
    const deployed = await sendOnce({
      status: 422,
      headers: json,
      chunks: [{ at_ms: 0, bytes: JSON.stringify({ status_code: 422, message: '1 validation error', data: null }) }],
    });
    expect(deployed.error_message).toBe('1 validation error');
  });
  it('a redirect is http_error and is not followed', async () => {
    const e = await sendOnce({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
    expect(e).toMatchObject({ outcome: 'http_error', http_status: 302, error_message: 'HTTP 302' });
  });
});

describe('stream outcomes', () => {
  it('a streaming error part is stream_error with its code, also unterminated', async () => {
    const error = JSON.stringify({
      error: 'boom',
      stack_trace: null,
      error_code: 'UNKNOWN_ERROR',
      is_retryable: true,
      details: null,
    });
    const e = await sendOnce({
      chunks: [
        { at_ms: 0, bytes: ids + packetLine({ type: 'message_delta', content: 'half' }) },
        { at_ms: 10, bytes: error },
      ],
    });
    expect(e).toMatchObject({
      outcome: 'stream_error',
      error_code: 'UNKNOWN_ERROR',
      error_message: 'boom',
      answer: 'half',
    });
  });
  it('a stream that ends without stop is truncated', async () => {
    expect(
      (await sendOnce({ chunks: [{ at_ms: 0, bytes: ids + packetLine({ type: 'message_delta', content: 'a' }) }] }))
        .outcome,
    ).toBe('truncated');
  });
  it('a malformed line is invalid_response; decoding goes on', async () => {
    const e = await sendOnce({
      chunks: [
        { at_ms: 0, bytes: `${ids}{not json\n` },
        ...answerChunks({ ids: 5, start: 5, firstDelta: 5, step: 1 }).slice(1),
      ],
    });
    expect(e).toMatchObject({
      outcome: 'invalid_response',
      decode_errors: 1,
      answer: 'Docker Compose [[1]](https://x).',
    });
  });
  it('HTML with status 200, an empty body and a non-JSON stream are invalid_response', async () => {
    expect(
      (
        await sendOnce({
          headers: { 'content-type': 'text/html' },
          chunks: [{ at_ms: 0, bytes: '<html><body>login</body></html>\n' }],
        })
      ).outcome,
    ).toBe('invalid_response');
    expect(await sendOnce({ chunks: [] })).toMatchObject({ outcome: 'invalid_response', parts: 0 });
    expect((await sendOnce({ chunks: [{ at_ms: 0, bytes: 'hello world' }] })).outcome).toBe('invalid_response');
  });
  it('a reset mid-stream is network, and the answer so far is kept', async () => {
    const e = await sendOnce({
      chunks: [{ at_ms: 0, bytes: ids + packetLine({ type: 'message_delta', content: 'so far' }) }],
      destroyAfter: true,
    });
    expect(e).toMatchObject({ outcome: 'network', answer: 'so far', http_status: 200 });
    expect(e.error_code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
  });
  it('a stall is a timeout at timeoutMs', async () => {
    // The timer fires late by however late this process's loop ran (a busy machine): that is the tolerance.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const e = await sendOnce({ chunks: [{ at_ms: 0, bytes: ids }], stall: true }, { timeoutMs: 150 });
    loop.disable();
    expect(e).toMatchObject({ outcome: 'timeout', ttfp_ms: expect.any(Number) });
    expect(e.total_ms).toBeGreaterThanOrEqual(149);
    expect(e.total_ms).toBeLessThan(150 + 50 + (2 * loop.max) / 1e6);
  });
  it('aborting the caller signal is cancelled', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 80);
    const e = await sendOnce({ chunks: [{ at_ms: 0, bytes: ids }], stall: true }, {}, true, controller.signal);
    expect(e.outcome).toBe('cancelled');
    // The attempt ends when the caller aborts, on the client's own clock (sent + total).
    expect(e.sent + e.total_ms!).toBeGreaterThanOrEqual(abortedAt - 0.01);
  });
});

describe('network outcomes', () => {
  it('a reset before headers is network', async () => {
    const e = await sendOnce({ destroyBeforeHeaders: true });
    expect(e).toMatchObject({ outcome: 'network', http_status: null, headers_ms: null });
  });
  it('a refused connection is network ECONNREFUSED', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = createChatClient({ baseUrl: `http://127.0.0.1:${port}/api`, token: TOKEN, timeoutMs: 2_000 });
    onTestFinished(() => client.close());
    expect(await client.send({ message: 'q' })).toMatchObject({
      outcome: 'network',
      error_code: 'ECONNREFUSED',
      http_status: null,
    });
  });
});

describe('full mode (stream=false)', () => {
  const full = {
    answer: 'Use Docker [[1]](https://x) [[3]]',
    answer_citationless: 'Use Docker',
    pre_answer_reasoning: 'hmm',
    tool_calls: [],
    top_documents: [],
    citation_info: [{ type: 'citation_info', citation_number: 1, document_id: 'd1' }],
    message_id: 9,
    chat_session_id: 's',
    incognito: false,
    error_msg: null,
  };
  it('reads the answer, citations and ids; only headers and total exist', async () => {
    const e = await sendOnce({ headers: json, chunks: [{ at_ms: 30, bytes: JSON.stringify(full) }] }, {}, false);
    expect(e).toMatchObject({
      outcome: 'ok',
      answer: full.answer,
      cited_document_ids: ['d1'],
      markers_without_citation: [3],
      message_id: 9,
      chat_session_id: 's',
      ttfp_ms: null,
      ttft_ms: null,
      parts: 0,
      models: null,
      reasoning_chars: 3,
    });
    expect(e.headers_ms).not.toBeNull();
    expect(e.total_ms).toBeGreaterThanOrEqual(29);
  });
  it('error_msg is stream_error; the wrong JSON shape and an empty body are invalid_response', async () => {
    expect(
      await sendOnce(
        { headers: json, chunks: [{ at_ms: 0, bytes: JSON.stringify({ ...full, error_msg: 'LLM failed' }) }] },
        {},
        false,
      ),
    ).toMatchObject({ outcome: 'stream_error', error_message: 'LLM failed' });
    expect(
      (await sendOnce({ headers: json, chunks: [{ at_ms: 0, bytes: JSON.stringify({ answer: 1 }) }] }, {}, false))
        .outcome,
    ).toBe('invalid_response');
    expect((await sendOnce({ headers: json, chunks: [] }, {}, false)).outcome).toBe('invalid_response');
  });
});

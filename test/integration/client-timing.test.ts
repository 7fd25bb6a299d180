import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createChatClient, type ChatClientOptions } from '../../src/client/chat-client.js';
import { ExchangeSchema } from '../../src/client/exchange.js';
import { answerChunks, line, packetLine, startScriptedServer } from '../helpers/scripted-server.js';

// Server and client share this event loop: the server may take the request late, its timer may
// fire late and the client may read late, each by up to what the loop was observed late by. The
// tolerance is three times that, plus 3 ms of our own, so a busy machine widens it and a quiet one
// holds the client to a few milliseconds.
let loop: IntervalHistogram;
beforeEach(() => {
  loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
});
afterEach(() => loop.disable());
const tolerance = () => 3 + (3 * loop.max) / 1e6;

function client(baseUrl: string, options: Partial<ChatClientOptions> = {}) {
  const c = createChatClient({ baseUrl, token: 'onyx_pat_secret', timeoutMs: 5_000, ...options });
  onTestFinished(() => c.close());
  return c;
}

describe('streamed answer over HTTP', () => {
  it('measures ttfp, ttft, first citation and total against the real write times', async () => {
    const script = { headers_at_ms: 20, chunks: answerChunks({ ids: 60, start: 100, firstDelta: 160, step: 40 }) };
    const server = await startScriptedServer([script, script]);
    const c = client(server.baseUrl);
    await c.send({ message: 'warm-up', stream: true }); // the first exchange of a process compiles the parser and schemas
    const exchange = await c.send({ message: 'How to deploy?', stream: true });
    const req = server.requests[1];
    if (!req) throw new Error('no request arrived');
    const written = req.writtenAt.map((at) => at - exchange.sent);
    expect(exchange).toMatchObject({
      outcome: 'ok',
      http_status: 200,
      content_type: 'text/event-stream; charset=utf-8',
      parts: 7,
      answer_deltas: 3,
    });
    expect(Math.abs((exchange.headers_ms ?? 0) - ((req.headersWrittenAt ?? 0) - exchange.sent))).toBeLessThan(
      tolerance(),
    );
    expect(Math.abs((exchange.ttfp_ms ?? 0) - (written[0] ?? 0))).toBeLessThan(tolerance());
    expect(Math.abs((exchange.ttft_ms ?? 0) - (written[2] ?? 0))).toBeLessThan(tolerance());
    expect(Math.abs((exchange.first_citation_ms ?? 0) - (written[3] ?? 0))).toBeLessThan(tolerance());
    expect(Math.abs((exchange.total_ms ?? 0) - (written[4] ?? 0))).toBeLessThan(tolerance());
    // and loosely against the script itself (timers on a busy machine fire late, never early)
    expect(exchange.ttfp_ms).toBeGreaterThanOrEqual(59);
    expect(exchange.ttft_ms).toBeGreaterThanOrEqual(159);
    expect(exchange.ttft_ms).toBeLessThan(160 + tolerance());
    expect(exchange.time_per_delta_ms).toBeGreaterThan(30);
    expect(exchange.answer).toBe('Docker Compose [[1]](https://x).');
    expect(exchange.cited_document_ids).toEqual(['doc-1']);
    expect(exchange.message_id).toBe(2);
    expect(() => ExchangeSchema.parse(exchange)).not.toThrow();
  });

  it('sends the body as JSON with the token only in the Authorization header', async () => {
    const server = await startScriptedServer([{ chunks: answerChunks({ ids: 0, start: 0, firstDelta: 0, step: 0 }) }]);
    await client(server.baseUrl).send({ message: 'hi', stream: true, llm_override: { model_version: 'm' } });
    const req = server.requests[0];
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/api/chat/send-chat-message');
    expect(req?.headers['authorization']).toBe('Bearer onyx_pat_secret');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req?.body ?? '')).toEqual({ message: 'hi', stream: true, llm_override: { model_version: 'm' } });
  });

  it('decodes real SSE framing, and a chunk boundary inside a UTF-8 character', async () => {
    const text = Buffer.from(packetLine({ type: 'message_delta', content: 'café 中' }));
    const cut = text.indexOf(0xa9); // second byte of é
    const server = await startScriptedServer([
      {
        chunks: [
          { at_ms: 0, bytes: line({ user_message_id: 1, reserved_assistant_message_id: 2 }) },
          { at_ms: 10, bytes: text.subarray(0, cut) },
          { at_ms: 30, bytes: text.subarray(cut) },
          { at_ms: 40, bytes: packetLine({ type: 'stop', stop_reason: null }) },
        ],
      },
      {
        chunks: [
          {
            at_ms: 0,
            bytes: `: comment\r\ndata: ${JSON.stringify({ user_message_id: 1, reserved_assistant_message_id: 5 })}\r\n\r\n`,
          },
          {
            at_ms: 5,
            bytes: `data: ${packetLine({ type: 'message_delta', content: 'sse' }).trim()}\n\ndata: ${packetLine({ type: 'stop' }).trim()}\n\n`,
          },
        ],
      },
    ]);
    const c = client(server.baseUrl);
    const split = await c.send({ message: 'q', stream: true });
    expect(split).toMatchObject({ outcome: 'ok', answer: 'café 中', answer_chars: 6 });
    expect(split.ttft_ms).toBeGreaterThanOrEqual(29); // only when the character completed
    expect(await c.send({ message: 'q', stream: true })).toMatchObject({ outcome: 'ok', answer: 'sse', message_id: 5 });
  });

  it('keeps per-model figures for a multi-model stream', async () => {
    const server = await startScriptedServer([
      {
        chunks: [
          {
            at_ms: 0,
            bytes: line({
              user_message_id: 1,
              responses: [
                { message_id: 2, model_name: 'gpt-4o-mini' },
                { message_id: 3, model_name: 'gpt-4o' },
              ],
            }),
          },
          { at_ms: 20, bytes: packetLine({ type: 'message_delta', content: 'fast' }, 0) },
          { at_ms: 40, bytes: packetLine({ type: 'stop', stop_reason: null }, 0) },
          { at_ms: 80, bytes: packetLine({ type: 'message_delta', content: 'slow' }, 1) },
          {
            at_ms: 100,
            bytes: line({
              error: 'model failed',
              stack_trace: null,
              error_code: 'MODEL_ERROR',
              is_retryable: false,
              details: { model_index: 1 },
            }),
          },
        ],
      },
    ]);
    const exchange = await client(server.baseUrl).send({
      message: 'q',
      stream: true,
      llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }],
    });
    expect(exchange.outcome).toBe('stream_error');
    const [fast, slow] = exchange.models ?? [];
    expect(fast).toMatchObject({ model_name: 'gpt-4o-mini', outcome: 'ok', answer: 'fast' });
    expect(slow).toMatchObject({
      model_name: 'gpt-4o',
      outcome: 'stream_error',
      error_code: 'MODEL_ERROR',
      answer: 'slow',
    });
    expect(fast?.ttft_ms).toBeGreaterThanOrEqual(19);
    expect(fast?.ttft_ms).toBeLessThan(20 + tolerance());
    expect(slow?.ttft_ms).toBeGreaterThan(fast?.ttft_ms ?? Infinity);
    expect(slow?.total_ms).toBeGreaterThan(fast?.total_ms ?? Infinity);
  });
});

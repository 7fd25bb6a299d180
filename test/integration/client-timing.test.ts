import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createChatClient, type ChatClientOptions } from '../../src/client/chat-client.js';
import { ExchangeSchema } from '../../src/client/exchange.js';
import {
  answerChunks,
  line,
  packetLine,
  startScriptedServer,
  type ReceivedRequest,
} from '../helpers/scripted-server.js';

// Every figure is checked against when the scripted server really wrote the bytes (its log, on
// this process's performance.now clock), never against the scripted pause: on a busy machine the
// server's timer fires late, the request takes several loop turns to arrive (a connection to open,
// the body to parse), and the client then measures, rightly, a later figure — each turn late by up
// to the loop's worst delay, more turns than any fixed multiple of it covers (`npm run
// test:stress`: TTFT 43.3 ms for a 20 ms pause against a bound of 39.1). Between the server's
// write and the client's stamp lie only the loopback and the client's read: up to a few turns of
// the loop this process shares with the server, each late by at most what the loop was observed
// late by. The tolerance is three times that, plus 3 ms of our own, so a busy machine widens it
// and a quiet one holds the client to a few milliseconds.
let loop: IntervalHistogram;
beforeEach(() => {
  loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
});
afterEach(() => loop.disable());
const tolerance = () => 3 + (3 * loop.max) / 1e6;

/** The server's write times as offsets from the client's `sent` (one process, one clock). */
function writtenSince(sent: number, request: ReceivedRequest | undefined): number[] {
  if (!request) throw new Error('no request arrived');
  return request.writtenAt.map((at) => at - sent);
}

/** The client's figure against the server's write; the numbers travel with a failure. */
function expectAtWrite(figure: string, measured: number | null | undefined, written: number | undefined): void {
  const error = (measured ?? Number.NaN) - (written ?? Number.NaN);
  const limit = tolerance();
  expect({ figure, measured, written, error, limit, within: Math.abs(error) < limit }).toMatchObject({
    figure,
    within: true,
  });
}

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
    const written = writtenSince(exchange.sent, req);
    expect(exchange).toMatchObject({
      outcome: 'ok',
      http_status: 200,
      content_type: 'text/event-stream; charset=utf-8',
      parts: 7,
      answer_deltas: 3,
    });
    expectAtWrite('headers_ms', exchange.headers_ms, (req?.headersWrittenAt ?? Number.NaN) - exchange.sent);
    expectAtWrite('ttfp_ms', exchange.ttfp_ms, written[0]);
    expectAtWrite('ttft_ms', exchange.ttft_ms, written[2]);
    expectAtWrite('first_citation_ms', exchange.first_citation_ms, written[3]);
    expectAtWrite('total_ms', exchange.total_ms, written[4]);
    // The pace over the three deltas (first, second, third write): two reads each off by less than the tolerance.
    expectAtWrite('time_per_delta_ms', exchange.time_per_delta_ms, ((written[4] ?? 0) - (written[2] ?? 0)) / 2);
    // and, only from below, against the script itself: a timer fires late on a busy machine, never early
    expect(exchange.ttfp_ms).toBeGreaterThanOrEqual(59);
    expect(exchange.ttft_ms).toBeGreaterThanOrEqual(159);
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
    const written = writtenSince(exchange.sent, server.requests[0]);
    expect(exchange.outcome).toBe('stream_error');
    const [fast, slow] = exchange.models ?? [];
    expect(fast).toMatchObject({ model_name: 'gpt-4o-mini', outcome: 'ok', answer: 'fast' });
    expect(slow).toMatchObject({
      model_name: 'gpt-4o',
      outcome: 'stream_error',
      error_code: 'MODEL_ERROR',
      answer: 'slow',
    });
    // Writes: [0] ids, [1] fast's delta, [2] fast's stop, [3] slow's delta, [4] slow's error.
    expectAtWrite('fast ttft_ms', fast?.ttft_ms, written[1]);
    expectAtWrite('fast total_ms', fast?.total_ms, written[2]);
    expectAtWrite('slow ttft_ms', slow?.ttft_ms, written[3]);
    expectAtWrite('slow total_ms', slow?.total_ms, written[4]);
    expect(fast?.ttft_ms).toBeGreaterThanOrEqual(19); // never before the scripted pause
    expect(slow?.ttft_ms).toBeGreaterThan(fast?.ttft_ms ?? Infinity);
    expect(slow?.total_ms).toBeGreaterThan(fast?.total_ms ?? Infinity);
  });
});

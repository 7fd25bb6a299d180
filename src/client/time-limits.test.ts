/**
 * The time limits of one request (issue 10 §4), on fake time: `--timeout` is the longest silence
 * between two parts (heartbeats count), 180 s by default and 300 s for deep research;
 * `--max-duration` caps the whole request. A fake dispatcher hands the client each chunk when the
 * test says, so minutes of answer take no real time and nothing depends on the machine's speed.
 */
import type { Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SendMessageRequest } from '../api/send-message.js';
import { createChatClient, type ChatClientOptions } from './chat-client.js';
import type { Exchange } from './exchange.js';

/** A dispatcher that keeps the handler of the last request, for the test to play the response on. */
function fakeDispatcher() {
  let handler: Dispatcher.DispatchHandler | undefined;
  const controller = {
    aborted: false,
    paused: false,
    reason: null as Error | null,
    abort(reason: Error) {
      if (this.aborted) return;
      this.aborted = true;
      this.reason = reason;
      handler?.onResponseError?.(controller as unknown as Dispatcher.DispatchController, reason);
    },
    pause() {},
    resume() {},
  };
  const dc = controller as unknown as Dispatcher.DispatchController;
  const dispatcher = {
    dispatch(_options: Dispatcher.DispatchOptions, h: Dispatcher.DispatchHandler) {
      handler = h;
      h.onRequestStart?.(dc, {});
      return true;
    },
    close: async () => {},
  } as unknown as Dispatcher;
  return {
    dispatcher,
    controller,
    headers(status = 200) {
      handler?.onResponseStart?.(dc, status, { 'content-type': 'text/event-stream; charset=utf-8' }, 'OK');
    },
    line(value: unknown) {
      handler?.onResponseData?.(dc, Buffer.from(`${JSON.stringify(value)}\n`));
    },
    raw(text: string) {
      handler?.onResponseData?.(dc, Buffer.from(text));
    },
    end() {
      handler?.onResponseEnd?.(dc, {});
    },
  };
}

const placement = { turn_index: 1, tab_index: 0, sub_turn_index: null, model_index: 0 };
const delta = (content: string) => ({ placement, obj: { type: 'message_delta', content } });
const heartbeat = { placement: { ...placement, model_index: null }, obj: { type: 'chat_heartbeat' } };
const stop = { placement, obj: { type: 'stop', stop_reason: null } };

function start(body: SendMessageRequest, options: Partial<ChatClientOptions> = {}) {
  const fake = fakeDispatcher();
  const client = createChatClient({
    baseUrl: 'http://fake.invalid/api',
    dispatcher: fake.dispatcher,
    now: () => Date.now(),
    ...options,
  });
  let result: Exchange | undefined;
  const promise = client.send(body).then((e) => (result = e));
  return { fake, promise, settled: () => result };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('--timeout is the longest silence between two parts', () => {
  it('a 4-minute deep-research answer with a part every 20 s is ok (default 300 s)', async () => {
    const { fake, promise } = start({ message: 'q', deep_research: true });
    fake.headers();
    fake.line({ user_message_id: 1, reserved_assistant_message_id: 2 });
    for (let i = 0; i < 12; i++) {
      vi.advanceTimersByTime(20_000);
      fake.line(delta(`part ${i} `));
    }
    fake.line(stop);
    fake.end();
    const exchange = await promise;
    expect(exchange).toMatchObject({ outcome: 'ok', answer_deltas: 12 });
    expect(exchange.total_ms).toBe(240_000);
  });

  it('the same answer also passes the 180 s default of a plain request: no gap comes near it', async () => {
    const { fake, promise } = start({ message: 'q' });
    fake.headers();
    for (let i = 0; i < 12; i++) {
      vi.advanceTimersByTime(20_000);
      fake.line(delta('x'));
    }
    fake.line(stop);
    fake.end();
    expect((await promise).outcome).toBe('ok');
  });

  it('a silence past the default ends the request as timeout SILENCE_TIMEOUT: 180 s plain, 300 s with deep research', async () => {
    const plain = start({ message: 'q' });
    plain.fake.headers();
    plain.fake.line(delta('x'));
    vi.advanceTimersByTime(179_999);
    expect(plain.settled()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(await plain.promise).toMatchObject({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT', answer: 'x' });
    expect((await plain.promise).error_message).toMatch(/no part received for 180 s \(--timeout/);

    const deep = start({ message: 'q', deep_research: true });
    deep.fake.headers();
    vi.advanceTimersByTime(250_000);
    deep.fake.line(delta('still here'));
    vi.advanceTimersByTime(299_999);
    expect(deep.settled()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(await deep.promise).toMatchObject({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT' });
    expect(deep.fake.controller.aborted).toBe(true);
  });

  it('heartbeats reset the silence; a line that never completes does not', async () => {
    const { fake, promise, settled } = start({ message: 'q' }, { timeoutMs: 10_000 });
    fake.headers();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(9_000);
      fake.line(heartbeat);
    }
    expect(settled()).toBeUndefined();
    vi.advanceTimersByTime(5_000);
    fake.raw('{"placement": {"turn_index": 1, "tab_index": 0'); // bytes of a part that never ends: not a part
    vi.advanceTimersByTime(5_000);
    expect(await promise).toMatchObject({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT' });
  });

  it('waiting for the status counts as silence too', async () => {
    const { promise } = start({ message: 'q' }, { timeoutMs: 1_000 });
    vi.advanceTimersByTime(1_000);
    expect(await promise).toMatchObject({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT', http_status: null });
  });
});

describe('--max-duration caps the whole request', () => {
  it('fires even while parts keep coming, and says so', async () => {
    const { fake, promise } = start({ message: 'q' }, { maxDurationMs: 60_000 });
    fake.headers();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(10_000);
      fake.line(delta('x'));
    }
    vi.advanceTimersByTime(10_000);
    const exchange = await promise;
    expect(exchange).toMatchObject({ outcome: 'timeout', error_code: 'MAX_DURATION', answer: 'xxxxx' });
    expect(exchange.error_message).toMatch(/longer than --max-duration 60 s/);
  });
  it('15 min by default, 60 min with deep research, however busy the stream', async () => {
    const plain = start({ message: 'q' });
    plain.fake.headers();
    for (let i = 0; i < 14; i++) {
      vi.advanceTimersByTime(60_000);
      plain.fake.line(heartbeat);
    }
    vi.advanceTimersByTime(59_999);
    expect(plain.settled()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(await plain.promise).toMatchObject({ outcome: 'timeout', error_code: 'MAX_DURATION' });

    const deep = start({ message: 'q', deep_research: true });
    deep.fake.headers();
    for (let i = 0; i < 59; i++) {
      vi.advanceTimersByTime(60_000);
      deep.fake.line(heartbeat);
    }
    expect(deep.settled()).toBeUndefined();
    deep.fake.line(delta('done'));
    deep.fake.line(stop);
    deep.fake.end();
    expect(await deep.promise).toMatchObject({ outcome: 'ok', answer: 'done' });
  });
});

describe('only a decoded part is progress (issue 23)', () => {
  it('junk lines, SSE comments and a byte a second never reset the silence', async () => {
    for (const noise of ['junk that is not json\n', ': an SSE comment\n', '{']) {
      const { fake, promise, settled } = start({ message: 'q' }, { timeoutMs: 3_000 });
      fake.headers();
      if (noise.startsWith(':')) fake.raw('data: {"user_message_id": 1, "reserved_assistant_message_id": 2}\n\n');
      else fake.line({ user_message_id: 1, reserved_assistant_message_id: 2 });
      for (let i = 0; i < 2; i++) {
        vi.advanceTimersByTime(1_000);
        fake.raw(noise);
      }
      vi.advanceTimersByTime(999);
      expect(settled()).toBeUndefined();
      vi.advanceTimersByTime(1);
      expect(await promise).toMatchObject({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT' });
    }
  });

  it('a full body or an error body must end within --timeout of its headers, however it drips', async () => {
    const full = start({ message: 'q', stream: false }, { timeoutMs: 3_000 });
    full.fake.headers();
    for (let i = 0; i < 2; i++) {
      vi.advanceTimersByTime(1_000);
      full.fake.raw('{');
    }
    vi.advanceTimersByTime(1_000);
    const exchange = await full.promise;
    expect(exchange).toMatchObject({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT' });
    expect(exchange.error_message).toMatch(/did not end within 3 s of its headers/);

    const failing = start({ message: 'q' }, { timeoutMs: 3_000 });
    failing.fake.headers(500);
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(1_000);
      failing.fake.raw('x');
    }
    expect(await failing.promise).toMatchObject({ outcome: 'http_error', http_status: 500 });
  });

  it('an error body ends the attempt at its first 64 KiB; a body past --max-body-bytes ends it as BODY_TOO_LARGE', async () => {
    const failing = start({ message: 'q' });
    failing.fake.headers(500);
    failing.fake.raw('e'.repeat(40_000));
    expect(failing.settled()).toBeUndefined();
    failing.fake.raw('e'.repeat(40_000));
    expect(await failing.promise).toMatchObject({ outcome: 'http_error', http_status: 500 });
    expect(failing.fake.controller.aborted).toBe(true);

    for (const body of [{ message: 'q' }, { message: 'q', stream: false }]) {
      const big = start(body, { maxBodyBytes: 1_000 });
      big.fake.headers();
      big.fake.line({ user_message_id: 1, reserved_assistant_message_id: 2 });
      big.fake.raw(' '.repeat(1_000));
      const exchange = await big.promise;
      expect(exchange).toMatchObject({ outcome: 'invalid_response', error_code: 'BODY_TOO_LARGE' });
      expect(exchange.error_message).toMatch(/--max-body-bytes 1000/);
      expect(big.fake.controller.aborted).toBe(true);
    }
  });
});

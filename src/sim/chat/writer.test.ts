import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createScheduler } from './scheduler.js';
import type { WireStep } from './stream-plan.js';
import { compilePlan, stepText } from './wire-plan.js';
import { playSteps } from './writer.js';

/** Just enough of a ServerResponse: records writes; `full` makes write() report a full buffer. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  destroyed = false;
  ended = false;
  full = false;
  status = 0;
  writes: string[] = [];
  socket = null;
  writeHead(status: number) {
    this.status = status;
    this.headersSent = true;
    return this;
  }
  write(chunk: string) {
    this.writes.push(chunk);
    return !this.full;
  }
  end() {
    this.ended = true;
  }
  destroy() {
    this.destroyed = true;
  }
}

const steps = (n: number, gap: number): WireStep[] =>
  Array.from({ length: n }, (_, i) => ({ at: i * gap, part: { n: i } }));
/** On vitest's fake clock (timers and performance.now): time moves only when the test says. */
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('playSteps', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('writes each due step as a framed line and ends after the last', async () => {
    const lags: number[] = [];
    const scheduler = createScheduler((lag) => lags.push(lag));
    const res = new FakeResponse();
    const done = playSteps({
      res: res as unknown as ServerResponse,
      signal: new AbortController().signal,
      head: { status: 200, headers: {} },
      plan: compilePlan(
        [
          { at: 0, part: { a: 1 } },
          { at: 0, part: { b: 'é' } },
          { at: 15, raw: 'raw' },
        ],
        'ndjson',
      ),
      scheduler,
      start: performance.now(),
    });
    await sleep(20);
    await done;
    expect(res.status).toBe(200);
    expect(res.writes.join('')).toBe('{"a": 1}\n{"b": "\\u00e9"}\nraw');
    expect(res.writes[0]!.startsWith('{"a": 1}\n{"b": "\\u00e9"}\n')).toBe(true); // steps due together leave in one write
    expect(res.ended).toBe(true);
    expect(lags).toEqual([1, 0]); // a timer waits at least 1 ms: steps due at once leave a tick later
    scheduler.close();
  });
  it('stops producing while the buffer is full and resumes on drain, shifting the rest of the timeline', async () => {
    const lags: number[] = [];
    const scheduler = createScheduler((lag) => lags.push(lag));
    const res = new FakeResponse();
    res.full = true;
    const done = playSteps({
      res: res as unknown as ServerResponse,
      signal: new AbortController().signal,
      head: { status: 200, headers: {} },
      plan: compilePlan(steps(4, 30), 'ndjson'),
      scheduler,
      start: performance.now(),
    });
    const lines = () => res.writes.join('').split('\n').length - 1;
    await sleep(100);
    const before = lines();
    await sleep(100);
    expect(lines()).toBe(before); // paused after the first write
    expect(before).toBe(1);
    expect(scheduler.size).toBe(0);
    res.full = false;
    const lagsBefore = lags.length;
    res.emit('drain');
    await sleep(100);
    await done;
    expect(lines()).toBe(4);
    // the 200 ms pause moved the rest of the timeline: resumed sends are on the shifted time
    expect(lags.slice(lagsBefore)).toEqual([0, 0, 0]);
    scheduler.close();
  });
  it('templates message_delta lines exactly as the encoder writes the packet', () => {
    for (const framing of ['ndjson', 'sse'] as const) {
      const plan = compilePlan([{ at: 0, turn: 1, delta: { model: 2, content: ' café "x"' } }], framing);
      const line =
        '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null, "model_index": 2}, "obj": {"type": "message_delta", "content": " caf\\u00e9 \\"x\\""}}';
      expect(stepText(plan, 0)).toBe(framing === 'sse' ? `data: ${line}\n\n` : `${line}\n`);
    }
  });
  it('stops at once when the client leaves, writing nothing more', async () => {
    const scheduler = createScheduler(() => {});
    const res = new FakeResponse();
    const controller = new AbortController();
    const done = playSteps({
      res: res as unknown as ServerResponse,
      signal: controller.signal,
      head: { status: 200, headers: {} },
      plan: compilePlan(steps(50, 10), 'sse'),
      scheduler,
      start: performance.now(),
    });
    await sleep(25);
    controller.abort();
    await done;
    const written = res.writes.length;
    await sleep(40);
    expect(res.writes.length).toBe(written);
    expect(written).toBe(3); // the steps due at 0, 10 and 20 ms
    expect(res.writes[0]!.startsWith('data: {"n": 0}\n\n')).toBe(true);
    expect(res.ended).toBe(false);
    expect(scheduler.size).toBe(0);
    scheduler.close();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../client/exchange.js';
import { userSteps } from '../plan/arrivals.js';
import { createLoadPlan, type LoadRequest } from '../plan/load-plan.js';
import { DatasetRowSchema } from '../dataset/index.js';
import { runClosedUsers } from './closed-users.js';
import { runOpenLoop } from './open-loop.js';
import { fakeExchange } from './testing/fake-client.js';
import { createTokenPool } from './token-pool.js';
import type { UnscoredRecord } from './unscored-record.js';

const row = (line: number, id: string, conversation: string, turn: string) =>
  DatasetRowSchema.parse({ line, id, question: `${id}?`, conversation, turn });
const plan = createLoadPlan({
  operation: 'chat',
  conversations: true,
  order: 'sequential',
  seed: 1,
  mode: 'stream',
  defaults: {},
  set: { name: 's', llm_override: null, llm_overrides: null, multi: false },
  rows: [row(2, 'a1', 'a', '1'), row(3, 'a2', 'a', '2'), row(4, 'a3', 'a', '3')],
});

/** A service answering after `delayMs` (fake clock); a message containing `fail` fails. */
function target(delayMs: number) {
  const sent: Array<{ body: Record<string, unknown>; token: number; at: number }> = [];
  let next = 10;
  return {
    baseUrl: 'http://fake.invalid/api',
    sent,
    send(request: LoadRequest, token: number): Promise<Exchange> {
      const at = performance.now();
      sent.push({ body: request.planned.body as Record<string, unknown>, token, at });
      const body = request.planned.body;
      return new Promise((resolve) =>
        setTimeout(() => {
          next += 2;
          const failed = body.message.includes('fail');
          resolve(
            fakeExchange({
              sent: at,
              total_ms: performance.now() - at,
              outcome: failed ? 'stream_error' : 'ok',
              error_code: failed ? 'MODEL_ERROR' : null,
              chat_session_id: body.chat_session_id == null ? 'session' : null,
              message_id: next,
            }),
          );
        }, delayMs),
      );
    },
  };
}

async function onFakeClock<T>(run: () => Promise<T>): Promise<T> {
  const result = run();
  await vi.runAllTimersAsync();
  return result;
}
beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const common = (t: ReturnType<typeof target>, records: UnscoredRecord[]) => ({
  target: t,
  plan,
  tokens: createTokenPool(2),
  retry: { retries: 0, retry429: false },
  graceMs: 50,
  onRecord: (r: UnscoredRecord) => void records.push(r),
});

describe('conversations under load', () => {
  it('closed model: a user plays a conversation, each turn at the previous end plus the think time, in one session with one token', async () => {
    const records: UnscoredRecord[] = [];
    const t = target(100);
    const conversations = { thinkTime: { kind: 'constant' as const, ms: 500 }, seed: 1, endMs: null };
    const result = await onFakeClock(() =>
      runClosedUsers({
        ...common(t, records),
        steps: userSteps({ users: 1 }),
        endMs: null,
        maxRequests: 2,
        conversations,
      }),
    );
    expect(result).toMatchObject({ sent: 6, iterations: 2 });
    expect(records.map((r) => [r.question_id, r.turn, r.session, r.repeat])).toEqual([
      ['a1', 1, 'new', 0],
      ['a2', 2, 'continued', 0],
      ['a3', 3, 'continued', 0],
      ['a1', 1, 'new', 1],
      ['a2', 2, 'continued', 1],
      ['a3', 3, 'continued', 1],
    ]);
    // Turn 2 is scheduled 500 ms after turn 1's end and sent then; response_ms counts from that schedule.
    const [first, second] = records;
    expect(second!.scheduled_offset_ms).toBeCloseTo(first!.sent_offset_ms + first!.response_ms! + 500, 1);
    expect(second!.queue_ms).toBeLessThan(5);
    expect(t.sent[1]!.body).toMatchObject({ chat_session_id: 'session', parent_message_id: first!.message_id });
    expect(new Set(t.sent.slice(0, 3).map((s) => s.token)).size).toBe(1);
  });

  it("a failed turn skips the rest of its conversation; the schedule's end skips turns whose time came after it", async () => {
    const failing = createLoadPlan({
      operation: 'chat',
      conversations: true,
      order: 'sequential',
      seed: 1,
      mode: 'stream',
      defaults: {},
      set: { name: 's', llm_override: null, llm_overrides: null, multi: false },
      rows: [row(2, 'b1', 'b', '1'), row(3, 'b2', 'b', '2'), row(4, 'b3', 'b', '3')].map((r, i) =>
        i === 1 ? { ...r, question: 'please fail' } : r,
      ),
    });
    const records: UnscoredRecord[] = [];
    const t = target(100);
    await onFakeClock(() =>
      runClosedUsers({
        ...common(t, records),
        plan: failing,
        steps: userSteps({ users: 1 }),
        endMs: null,
        maxRequests: 1,
        conversations: { thinkTime: null, seed: 1, endMs: null },
      }),
    );
    expect(records.map((r) => r.outcome)).toEqual(['ok', 'stream_error', 'skipped']);
    expect(t.sent).toHaveLength(2);

    const late: UnscoredRecord[] = [];
    const arrivals = [{ index: 0, offset_ms: 0 }];
    await onFakeClock(() =>
      runOpenLoop({
        ...common(target(100), late),
        arrivals,
        maxInFlight: 5,
        conversations: { thinkTime: { kind: 'constant', ms: 1000 }, seed: 1, endMs: 1500 },
      }),
    );
    // Turn 1 ends at 100 ms, turn 2 is due at 1,100 ms and ends at 1,200, turn 3 would be due at 2,200: after the end.
    expect(late.map((r) => [r.turn, r.outcome])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [3, 'skipped'],
    ]);
    expect(late[2]!.error_message).toBe(
      "not sent: its time came after the end of the run's schedule (turn 3 of conversation a)",
    );
  });
});

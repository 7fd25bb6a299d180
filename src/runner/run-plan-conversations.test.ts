import { describe, expect, it } from 'vitest';
import type { SendMessageRequest } from '../api/send-message.js';
import type { Exchange } from '../client/exchange.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { requestKey } from '../records/record.js';
import type { PreviousTurn } from './conversation-turns.js';
import { runPlan, type RunPlanOptions } from './run-plan.js';
import { fakeExchange, gatedClient, plannedRequest, untilSent } from './testing/fake-client.js';
import type { UnscoredRecord } from './unscored-record.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Conversation `id` of `turns` turns as plan entries from index `start`, unit `unit`. */
function conversation(id: string, turns: number, start: number, unit: number, continueWith = 0): PlannedRequest[] {
  return Array.from({ length: turns }, (_, i) => {
    const question_id = `${id}#${i + 1}`;
    return plannedRequest(start + i, {
      unit,
      question_id,
      key: requestKey(question_id, 's', 'stream', 0),
      question: `${id} turn ${i + 1}?`,
      body: { message: `${id} turn ${i + 1}?`, stream: true, chat_session_info: { persona_id: 0 } },
      conversation: { id, turn: i + 1, turns, follows: i === 0 ? null : start + i - 1, continue_with: continueWith },
    });
  });
}

/** The service: each message gets the next message id; a new session is named after the message's conversation. */
function service(fail: (body: SendMessageRequest) => Partial<Exchange> | undefined = () => undefined) {
  let id = 100;
  return (body: SendMessageRequest): Exchange => {
    id += 2;
    const session = body.chat_session_id == null ? `session-${body.message.split(' ')[0]}` : null;
    return fakeExchange({ chat_session_id: session, message_id: id, ...fail(body) });
  };
}

function run(plan: PlannedRequest[], options: Partial<RunPlanOptions> & Pick<RunPlanOptions, 'client'>) {
  const records: UnscoredRecord[] = [];
  const done = runPlan(plan, {
    concurrency: 4,
    sleep: () => Promise.resolve(),
    onRecord: (r) => records.push(r),
    ...options,
  });
  return { records, done };
}

describe('conversations', () => {
  it('turns go one at a time in one session, each after the answer before it; conversations run side by side', async () => {
    const client = gatedClient(service());
    const plan = [...conversation('a', 3, 0, 0), ...conversation('b', 2, 3, 1), plannedRequest(5, { unit: 2 })];
    const { records, done } = run(plan, { client });
    await untilSent(client, 3);
    // The first turn of each conversation and the lone question: never a later turn before its predecessor ended.
    expect(client.sent.map((b) => b.message)).toEqual(['a turn 1?', 'b turn 1?', 'question 5?']);
    for (let round = 0; round < 20 && client.sent.length < 6; round++) {
      client.open();
      await tick();
    }
    client.open(true);
    const result = await done;
    expect(result).toMatchObject({ planned: 6, sent: 6, recorded: 6, skipped: 0 });
    const a2 = client.sent.find((b) => b.message === 'a turn 2?')!;
    const a1 = records.find((r) => r.question_id === 'a#1')!;
    expect(a2).toMatchObject({ chat_session_id: 'session-a', parent_message_id: a1.message_id });
    expect(a2.chat_session_info).toBeUndefined();
    const a3 = client.sent.find((b) => b.message === 'a turn 3?')!;
    expect(a3.parent_message_id).toBe(records.find((r) => r.question_id === 'a#2')!.message_id);
    expect(records.filter((r) => r.conversation === 'a').map((r) => [r.turn, r.session, r.chat_session_id])).toEqual([
      [1, 'new', 'session-a'],
      [2, 'continued', 'session-a'],
      [3, 'continued', 'session-a'],
    ]);
    expect(records.find((r) => r.question_id === 'q5')).toMatchObject({
      conversation: null,
      turn: null,
      session: null,
    });
  });

  it('a failed turn ends its conversation: the later turns are recorded skipped with the reason, nothing is sent for them', async () => {
    const client = gatedClient(
      service((body) =>
        body.message === 'a turn 2?' ? { outcome: 'stream_error', error_code: 'MODEL_ERROR' } : undefined,
      ),
    );
    client.open(true);
    const plan = [...conversation('a', 4, 0, 0), ...conversation('b', 2, 4, 1)];
    const { records, done } = run(plan, { client });
    const result = await done;
    expect(client.sent.map((b) => b.message).filter((m) => m.startsWith('a'))).toEqual(['a turn 1?', 'a turn 2?']);
    expect(result).toMatchObject({ planned: 6, sent: 4, recorded: 6, skipped: 0 });
    expect(result.outcomes).toMatchObject({ ok: 3, stream_error: 1, skipped: 2 });
    const skipped = records.filter((r) => r.outcome === 'skipped');
    expect(skipped.map((r) => r.question_id)).toEqual(['a#3', 'a#4']);
    for (const r of skipped) {
      expect(r.error_message).toBe(
        'not sent: turn 2 of conversation a ended stream_error (MODEL_ERROR), and a conversation ends with its first failed turn',
      );
      expect(r).toMatchObject({
        attempts: [],
        total_ms: null,
        ttfp_ms: null,
        http_status: null,
        session: null,
        turn: r.turn,
      });
    }
  });

  it("a multi-model turn continues from the answer of the set's continue_with model", async () => {
    const models = [0, 1].map((model_index) => ({
      ...fakeExchange(),
      model_index,
      model_name: `m${model_index}`,
      message_id: 200 + model_index,
      scores: null,
    }));
    const client = gatedClient((body) =>
      fakeExchange({ chat_session_id: body.chat_session_id == null ? 'session-x' : null, message_id: null, models }),
    );
    client.open(true);
    const { done } = run(conversation('x', 2, 0, 0, 1), { client });
    await done;
    expect(client.sent[1]).toMatchObject({ chat_session_id: 'session-x', parent_message_id: 201 });
  });

  it('without a session id from the service, the later turns cannot follow: skipped, saying why', async () => {
    const client = gatedClient(() => fakeExchange({ chat_session_id: null, message_id: 5 }));
    client.open(true);
    const { records, done } = run(conversation('x', 2, 0, 0), { client });
    await done;
    expect(client.sent).toHaveLength(1);
    expect(records[1]).toMatchObject({
      outcome: 'skipped',
      error_message:
        'not sent: the service did not say which chat session the previous turn was in (turn 1 of conversation x)',
    });
  });

  it('stopped mid-conversation: the turns not sent are neither sent nor recorded (a resume sends them)', async () => {
    const client = gatedClient(service());
    const stop = new AbortController();
    const { records, done } = run(conversation('a', 3, 0, 0), { client, signal: stop.signal, graceMs: 1000 });
    await tick();
    stop.abort();
    client.open(true);
    const result = await done;
    expect(result).toMatchObject({ sent: 1, recorded: 1, skipped: 2, interrupted: true });
    expect(records.map((r) => r.question_id)).toEqual(['a#1']);
  });
});

describe('resume', () => {
  const earlier = (turn: Partial<PreviousTurn>): PreviousTurn => ({
    outcome: 'ok',
    error_code: null,
    error_message: null,
    turn: 1,
    chat_session_id: 'old-session',
    message_id: 42,
    models: null,
    ...turn,
  });
  const rest = () => conversation('a', 3, 0, 0).slice(1);

  it('continues the old session from the last recorded turn when the service still has it', async () => {
    const client = gatedClient(service());
    client.open(true);
    const { records, done } = run(rest(), { client, earlierTurn: (index) => (index === 0 ? earlier({}) : undefined) });
    await done;
    expect(client.sent[0]).toMatchObject({ chat_session_id: 'old-session', parent_message_id: 42 });
    expect(records.map((r) => [r.turn, r.session, r.chat_session_id])).toEqual([
      [2, 'resumed', 'old-session'],
      [3, 'continued', 'old-session'],
    ]);
  });

  it('opens a new session when the service refuses the old one, and says so', async () => {
    const refused = {
      outcome: 'stream_error' as const,
      error_code: 'VALIDATION_ERROR',
      error_message: 'Invalid Chat Session ID provided',
      message_id: null,
      chat_session_id: null,
      parts: 1,
    };
    const client = gatedClient(service((body) => (body.chat_session_id === 'old-session' ? refused : undefined)));
    client.open(true);
    const { records, done } = run(rest(), { client, earlierTurn: () => earlier({}) });
    await done;
    expect(client.sent[1]).toMatchObject({ message: 'a turn 2?', chat_session_info: { persona_id: 0 } });
    expect(client.sent[1]?.chat_session_id).toBeUndefined();
    expect(records[0]).toMatchObject({ turn: 2, session: 'restarted', outcome: 'ok', chat_session_id: 'session-a' });
    expect(records[0]?.attempts.map((a) => [a.attempt, a.outcome, a.error_code])).toEqual([
      [1, 'stream_error', 'VALIDATION_ERROR'],
      [2, 'ok', null],
    ]);
    expect(client.sent[2]).toMatchObject({ chat_session_id: 'session-a' });
  });

  it('a conversation whose last recorded turn failed records the rest skipped, sending nothing', async () => {
    const client = gatedClient(service());
    client.open(true);
    const { records, done } = run(rest(), {
      client,
      earlierTurn: () => earlier({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT' }),
    });
    await done;
    expect(client.sent).toHaveLength(0);
    expect(records.map((r) => r.outcome)).toEqual(['skipped', 'skipped']);
    expect(records[0]?.error_message).toContain('turn 1 of conversation a ended timeout (SILENCE_TIMEOUT)');
  });
});

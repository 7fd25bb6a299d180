/**
 * The simulator's chat sessions: follow-ups answered from their history, time to the first token
 * growing with the history as the profile says, and the service's refusals of sessions and parents
 * it does not have.
 */
import { describe, expect, it } from 'vitest';
import { classifyPart, type StreamPart } from '../../src/api/index.js';
import { countTokens } from '../../src/sim/chat/sessions.js';
import { ndjson, post } from '../../src/sim/chat/fixtures/test-server.js';
import { startChatServerForTest as start } from '../helpers/start-chat-server.js';
import { call, startSim, TOKENS } from '../helpers/start-sim.js';

const FAST = { time_scale: 0.005 };
const OPENING = 'How many days of paid time off do full-time employees accrue?';
const FOLLOW_UP = 'And how many of them carry over?';

const parts = (body: string): StreamPart[] =>
  body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => classifyPart(JSON.parse(l), l));
const objs = (body: string) =>
  parts(body).flatMap((p) => (p.kind === 'packet' ? [p.part.obj as Record<string, unknown>] : []));
const answerOf = (body: string) =>
  objs(body)
    .filter((o) => o.type === 'message_delta')
    .map((o) => o.content as string)
    .join('');
const firstOf = (body: string, type: string) => objs(body).find((o) => o.type === type);
const idsOf = (body: string) => {
  const lines = ndjson(body) as Array<Record<string, unknown>>;
  return {
    session: lines[0]?.chat_session_id as string,
    assistant: lines.find((l) => 'reserved_assistant_message_id' in l)?.reserved_assistant_message_id as number,
  };
};

describe('follow-ups in a session', () => {
  it('are answered from the history: the search covers the earlier question, the answer what was asked last', async () => {
    const server = await start(FAST);
    const first = await post(server.url, { message: OPENING });
    const { session, assistant } = idsOf(first.body);
    const followUp = await post(server.url, {
      message: FOLLOW_UP,
      chat_session_id: session,
      parent_message_id: assistant,
    });
    expect(ndjson(followUp.body)[0]).toEqual({
      user_message_id: assistant + 1,
      reserved_assistant_message_id: assistant + 2,
    });
    expect(firstOf(followUp.body, 'search_tool_queries_delta')).toEqual({
      type: 'search_tool_queries_delta',
      queries: [`${OPENING} ${FOLLOW_UP}`],
    });
    expect(answerOf(followUp.body)).toMatch(/carry over/);
    expect(firstOf(followUp.body, 'citation_info')).toMatchObject({ document_id: 'hr-pto-policy' });
    // Alone, the same words are searched alone.
    const alone = await post(server.url, { message: FOLLOW_UP });
    expect(firstOf(alone.body, 'search_tool_queries_delta')?.queries).toEqual([FOLLOW_UP]);
    // parent_message_id -1 (the default) goes after the latest message: the history is the same.
    const latest = await post(server.url, { message: FOLLOW_UP, chat_session_id: session });
    expect(firstOf(latest.body, 'search_tool_queries_delta')?.queries).toEqual([
      `${OPENING} ${FOLLOW_UP} ${FOLLOW_UP}`,
    ]);
    // null: from the root, without history.
    const root = await post(server.url, { message: FOLLOW_UP, chat_session_id: session, parent_message_id: null });
    expect(firstOf(root.body, 'search_tool_queries_delta')?.queries).toEqual([FOLLOW_UP]);
  });

  it('the time to the first token grows by history_ms_per_token per token of the history', async () => {
    const fixed = { median: 400, p99: 400 };
    const server = await start({
      time_scale: 0.01,
      profiles: {
        default: {
          pre_answer_ms: fixed,
          first_token_ms: fixed,
          token_ms: { median: 5, p99: 5 },
          history_ms_per_token: 3,
        },
      },
    });
    const seconds = (body: string) => firstOf(body, 'message_start')?.pre_answer_processing_seconds as number;
    const first = await post(server.url, { message: OPENING });
    expect(seconds(first.body)).toBe(0.008); // (400 + 400) ms × 0.01
    const { session, assistant } = idsOf(first.body);
    const second = await post(server.url, {
      message: FOLLOW_UP,
      chat_session_id: session,
      parent_message_id: assistant,
    });
    const history = countTokens(OPENING) + countTokens(answerOf(first.body));
    expect(seconds(second.body)).toBe(Math.round((800 + 3 * history) * 0.01) / 1000);
  });
});

describe('what the service refuses', () => {
  const ERROR = (error: string) => [
    { error, stack_trace: null, error_code: 'VALIDATION_ERROR', is_retryable: true, details: null },
  ];

  it('an unknown session: a streamed VALIDATION_ERROR and nothing else; in full mode the 400 "Message ID is required"', async () => {
    const server = await start(FAST);
    const unknown = '6f1c2d3e-1111-4a2b-9c3d-0123456789ab';
    expect(ndjson((await post(server.url, { message: OPENING, chat_session_id: unknown })).body)).toEqual(
      ERROR('Invalid Chat Session ID provided'),
    );
    const full = await post(server.url, { message: OPENING, chat_session_id: unknown, stream: false });
    expect([full.status, JSON.parse(full.body)]).toEqual([400, { message: 'Message ID is required' }]);
  });

  it('a parent_message_id not in the session', async () => {
    const server = await start(FAST);
    const { session } = idsOf((await post(server.url, { message: OPENING })).body);
    const stray = await post(server.url, { message: FOLLOW_UP, chat_session_id: session, parent_message_id: 999 });
    expect(ndjson(stray.body)).toEqual(ERROR('The new message sent is not on the latest mainline of messages'));
    // A new session has no message to follow: its session line, then the refusal.
    const fresh = ndjson((await post(server.url, { message: OPENING, parent_message_id: 5 })).body);
    expect(fresh.slice(1)).toEqual(ERROR('The new message sent is not on the latest mainline of messages'));
  });

  it("another user's session is refused like an unknown one", async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.005 } } });
    const opened = await call(sim, '/chat/send-chat-message', { token: TOKENS.demo, body: { message: OPENING } });
    const { session, assistant } = idsOf(opened.text);
    const theirs = await call(sim, '/chat/send-chat-message', {
      token: TOKENS.secondUser,
      body: { message: FOLLOW_UP, chat_session_id: session, parent_message_id: assistant },
    });
    expect(ndjson(theirs.text)).toEqual(ERROR('Invalid Chat Session ID provided'));
    const mine = await call(sim, '/chat/send-chat-message', {
      token: TOKENS.demo,
      body: { message: FOLLOW_UP, chat_session_id: session, parent_message_id: assistant },
    });
    expect(ndjson(mine.text)[0]).toMatchObject({ reserved_assistant_message_id: assistant + 2 });
  });

  it('memory is bounded: past max_sessions the least recently used session is forgotten', async () => {
    const server = await start({ ...FAST, sessions: { max_sessions: 2 } });
    const a = idsOf((await post(server.url, { message: OPENING })).body).session;
    const b = idsOf((await post(server.url, { message: 'Which receipts do I need?' })).body).session;
    await post(server.url, { message: FOLLOW_UP, chat_session_id: a }); // a is now the most recent
    await post(server.url, { message: 'Who approves a deploy?' }); // a third: b is forgotten
    expect(ndjson((await post(server.url, { message: FOLLOW_UP, chat_session_id: b })).body)).toEqual(
      ERROR('Invalid Chat Session ID provided'),
    );
    expect(ndjson((await post(server.url, { message: FOLLOW_UP, chat_session_id: a })).body)[0]).toHaveProperty(
      'reserved_assistant_message_id',
    );
  });
});

/**
 * `chat.packet_protocol: "pydantic_ai"`: the simulator sends its answers as the next runtime does
 * (upstream be8920ec), and the client reads the same answers and citations from them as from the
 * release's own packets, for a chat answer, a multi-model answer and a deep-research report.
 */
import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../src/client/chat-client.js';
import type { Exchange } from '../../src/client/exchange.js';
import { call, startSim, TOKENS } from '../helpers/start-sim.js';

const QUESTION = 'How many days of paid time off do employees get?';
type Body = Parameters<ReturnType<typeof createChatClient>['send']>[0];

async function both(body: Body): Promise<[Exchange, Exchange, string]> {
  const results: Exchange[] = [];
  let raw = '';
  for (const protocol of ['onyx', 'pydantic_ai'] as const) {
    const sim = await startSim({ config: { chat: { time_scale: 0.005, packet_protocol: protocol } } });
    const client = createChatClient({ baseUrl: sim.baseUrl, token: TOKENS.demo });
    results.push(await client.send(body));
    if (protocol === 'pydantic_ai')
      raw = (await call(sim, '/chat/send-chat-message', { token: TOKENS.demo, body })).text;
    await client.close();
  }
  return [results[0]!, results[1]!, raw];
}

const same = (e: Exchange) => ({
  outcome: e.outcome,
  answer: e.answer,
  citations: e.citations,
  cited_document_ids: e.cited_document_ids,
  top_document_ids: e.top_document_ids,
  answer_deltas: e.answer_deltas,
  unknown_parts: e.unknown_parts,
  models: e.models?.map((m) => ({ outcome: m.outcome, answer: m.answer, citations: m.citations })) ?? null,
});

describe('the simulator speaking the next runtime', () => {
  it.each([
    { what: 'a chat answer', body: { message: QUESTION } },
    {
      what: 'two models side by side',
      body: { message: QUESTION, llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }] },
    },
    { what: 'a deep-research report', body: { message: QUESTION, deep_research: true } },
  ])('$what reads the same as with message_delta', async ({ body }) => {
    const [onyx, next, raw] = await both(body);
    expect(onyx.outcome).toBe('ok');
    expect(same(next)).toEqual(same(onyx));
    expect(next.ttft_ms).not.toBeNull();
    expect(raw).not.toContain('"message_delta"');
    expect(raw).not.toContain('"message_start"');
    expect(raw).toContain('"answer_metadata"');
    expect(raw).toContain('"event_kind": "part_end"');
  });
});

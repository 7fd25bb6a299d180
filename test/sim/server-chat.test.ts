// Chat through the real server: a stream and a full response as docs/reference/wire-format.md shows them, the
// multi-model 400, a forced fault, a client that leaves mid-stream, and the merged stats().
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ChatFullResponseSchema, classifyPart } from '../../src/api/index.js';
import type { StreamPart } from '../../src/api/index.js';
import { TOKENS, call, startSim } from '../helpers/start-sim.js';

const CHAT = '/chat/send-chat-message';
const QUESTION = 'How many days of paid time off do I get?';
/** A model that always cites the right document, so the assertions below need no luck. */
const EXACT = { chat: { profiles: { default: { wrong_citation_rate: 0, missed_citation_rate: 0 } } } };

function parts(text: string): StreamPart[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => classifyPart(JSON.parse(line), line));
}

describe('chat through the server', () => {
  it('streams newline-delimited JSON: session, ids, search, answer with citations, stop', async () => {
    const sim = await startSim({ config: EXACT });
    const res = await call(sim, CHAT, { token: TOKENS.demo, body: { message: QUESTION } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.text.endsWith('\n')).toBe(true);
    const decoded = parts(res.text);
    expect(decoded.filter((p) => p.kind === 'decode_error')).toEqual([]);
    expect(decoded.slice(0, 2).map((p) => p.kind)).toEqual(['session_created', 'message_ids']);
    const types = decoded.flatMap((p) => (p.kind === 'packet' ? [p.part.obj.type] : []));
    expect(types.slice(0, 5)).toEqual([
      'search_tool_start',
      'search_tool_queries_delta',
      'search_tool_filter_delta',
      'search_tool_documents_delta',
      'section_end',
    ]);
    expect(types).toContain('message_start');
    expect(types.at(-1)).toBe('stop');
    const answer = decoded
      .flatMap((p) =>
        p.kind === 'packet' && p.part.obj.type === 'message_delta' ? [p.part.obj.content as string] : [],
      )
      .join('');
    expect(answer).toMatch(/\[\[1\]\]\(https:\/\/wiki\.northwind\.example\/hr\/pto-policy\)/);
    // Stream lines are Python json.dumps: spaces after separators.
    expect(res.text.split('\n')[1]).toMatch(/^\{"user_message_id": \d+, "reserved_assistant_message_id": \d+\}$/);
  });

  it('stream=false gives a ChatFullResponse with the answer, its citations and documents', async () => {
    const sim = await startSim({ config: EXACT });
    const res = await call(sim, CHAT, { token: TOKENS.demo, body: { message: QUESTION, stream: false } });
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/json']);
    const full = ChatFullResponseSchema.parse(res.json);
    expect(full.answer).toContain('[[1]](https://wiki.northwind.example/hr/pto-policy)');
    expect(full.answer_citationless).not.toContain('[[');
    expect(full.citation_info[0]).toMatchObject({
      type: 'citation_info',
      citation_number: 1,
      document_id: 'hr-pto-policy',
    });
    expect(full.top_documents[0]?.document_id).toBe('hr-pto-policy');
    expect(full.error_msg ?? null).toBeNull();
  });

  it('ignores unknown fields, as the service does', async () => {
    const sim = await startSim();
    const res = await call(sim, CHAT, {
      token: TOKENS.demo,
      body: { message: QUESTION, stream: false, temperature_hint: 'warm', extra: { a: 1 } },
    });
    expect(res.status).toBe(200);
    expect(ChatFullResponseSchema.safeParse(res.json).success).toBe(true);
  });

  it('a connection reset before headers is counted as no_response', async () => {
    const sim = await startSim({
      config: { chat: { faults: { triggers: [{ match: 'reset me', fault: 'reset_before_headers' }] } } },
    });
    await expect(call(sim, CHAT, { token: TOKENS.demo, body: { message: 'reset me please' } })).rejects.toThrow();
    const until = Date.now() + 2_000;
    while (sim.stats().http['send-chat-message'].no_response === undefined && Date.now() < until)
      await new Promise((r) => setTimeout(r, 10));
    expect(sim.stats().http['send-chat-message']).toEqual({ no_response: 1 });
    expect(sim.stats().faults_injected.reset_before_headers).toBe(1);
  });

  it('more than one llm_overrides entry with stream=false is 400 INVALID_INPUT', async () => {
    const sim = await startSim();
    const res = await call(sim, CHAT, {
      token: TOKENS.demo,
      body: { message: QUESTION, stream: false, llm_overrides: [{}, {}] },
    });
    expect([res.status, res.json]).toEqual([
      400,
      { error_code: 'INVALID_INPUT', detail: 'Multi-model mode (llm_overrides with >1 entry) requires stream=True.' },
    ]);
  });

  it('a fault forced by trigger reaches the client and is counted in stats()', async () => {
    const sim = await startSim({
      config: { chat: { faults: { triggers: [{ match: 'trigger a 503', fault: 'http_503' }] } } },
    });
    const res = await call(sim, CHAT, { token: TOKENS.demo, body: { message: 'please trigger a 503 now' } });
    expect(res.status).toBe(503);
    const stats = sim.stats();
    expect(stats.faults_injected.http_503).toBe(1);
    expect(stats.http['send-chat-message']).toEqual({ '503': 1 });
  });

  it('a client that leaves mid-stream closes the stream on the server', async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.5 } } });
    const res = await request(`${sim.baseUrl}${CHAT}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.demo}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: QUESTION }),
    });
    expect(res.statusCode).toBe(200);
    for await (const _chunk of res.body) break; // first bytes, then hang up
    res.body.destroy();
    const until = Date.now() + 5_000;
    while (sim.stats().streams_open > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sim.stats().streams_open).toBe(0);
  });

  it('stats() merges the engine counters with responses by route and status', async () => {
    const sim = await startSim();
    await call(sim, CHAT, { token: TOKENS.demo, body: { message: QUESTION, stream: false } });
    await call(sim, CHAT, { body: { message: QUESTION } });
    await call(sim, '/web-search/open-urls', {
      token: TOKENS.demo,
      body: { urls: ['https://status.northwind.example/'] },
    });
    await call(sim, '/nope');
    const stats = sim.stats();
    expect(stats.requests).toBe(1); // the unauthenticated one never reached the engine
    expect(stats.http).toEqual({
      'send-chat-message': { '200': 1, '403': 1 },
      'create-chat-session': {},
      'file-upload': {},
      'open-urls': { '200': 1 },
      'project-instructions': {},
      version: {},
      health: {},
      'health-ready': {},
      'chat-completions': {},
      unmatched: { '404': 1 },
    });
    expect(stats.streams_open).toBe(0);
    expect(stats.chat_tokens).toBeGreaterThan(0);
  });
});

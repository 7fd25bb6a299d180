import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startChatServerForTest } from '../helpers/start-chat-server.js';
import { describe, expect, it } from 'vitest';
import { ChatFullResponseSchema, MULTI_MODEL_REQUIRES_STREAM_DETAIL } from '../../src/api/index.js';
import { ndjson, post } from '../../src/sim/chat/fixtures/test-server.js';

const start = startChatServerForTest;

const QUESTION = 'Which receipts do I need for expenses and hotel stays when travelling?';
const deltas = (body: string) =>
  ndjson(body)
    .filter((p) => (p.obj as { type?: string } | undefined)?.type === 'message_delta')
    .map((p) => (p.obj as { content: string }).content)
    .join('');

describe('stream=false', () => {
  it('is a ChatFullResponse assembled as docs/reference/wire-format.md says, with the same answer a stream gives', async () => {
    const [full, streamed] = [await start({ time_scale: 0.05 }, 3), await start({ time_scale: 0.05 }, 3)];
    const r = await post(full.url, { message: QUESTION, stream: false });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
    expect(r.body.startsWith('{"answer":"')).toBe(true); // Starlette's compact JSON
    const body = ChatFullResponseSchema.parse(JSON.parse(r.body));
    const streamBody = (await post(streamed.url, { message: QUESTION })).body;
    const stream = ndjson(streamBody);
    expect(body.answer).toBe(deltas(streamBody));
    expect(body.answer).toMatch(/\[\[1\]\]\(https:\/\//);
    expect(body.answer_citationless).toBe(body.answer.replace(/ \[\[\d+\]\]\([^)]*\)/g, ''));
    expect(body.citation_info.length).toBeGreaterThan(0);
    for (const c of body.citation_info) expect(c.type).toBe('citation_info');
    expect(body.citation_info).toEqual(
      stream.filter((p) => (p.obj as { type?: string } | undefined)?.type === 'citation_info').map((p) => p.obj),
    );
    const finalDocs = (
      stream.find((p) => (p.obj as { type?: string } | undefined)?.type === 'message_start')!.obj as {
        final_documents: unknown;
      }
    ).final_documents;
    expect(body.top_documents).toEqual(finalDocs);
    expect(body.tool_calls).toHaveLength(1);
    expect(body.tool_calls[0]).toMatchObject({
      tool_name: 'internal_search',
      tool_arguments: { queries: [QUESTION] },
      search_docs: finalDocs,
    });
    expect(JSON.parse(body.tool_calls[0]!.tool_result)).toHaveLength(body.top_documents.length);
    expect(body.top_documents.length).toBeGreaterThan(1);
    expect(body.message_id).toBe(2);
    // A new session of its own (the service never gives two requests one session).
    expect(body.chat_session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.chat_session_id).not.toBe((stream[0] as { chat_session_id: string }).chat_session_id);
    expect(body).toMatchObject({ incognito: false, error_msg: null, pre_answer_reasoning: null });
  });
  it('comes when the whole answer would have finished generating', async () => {
    const config = { time_scale: 0.3 };
    const [full, streamed] = [await start(config, 5), await start(config, 5)];
    // Both servers and the client share this event loop: how late it ran is the tolerance.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const [a, b] = await Promise.all([
      post(full.url, { message: QUESTION, stream: false }),
      post(streamed.url, { message: QUESTION }),
    ]);
    loop.disable();
    const slackMs = 20 + loop.max / 1e6;
    expect(b.elapsedMs).toBeGreaterThan(300);
    expect(Math.abs(a.elapsedMs - b.elapsedMs)).toBeLessThan(slackMs);
    expect(a.chunkTimes[0]).toBeGreaterThan(b.elapsedMs - slackMs); // nothing early: not even headers
  });
  it('a reasoning model fills pre_answer_reasoning', async () => {
    const server = await start({ time_scale: 0.05 });
    const body = JSON.parse(
      (await post(server.url, { message: QUESTION, stream: false, llm_override: { model_version: 'claude-sonnet-4' } }))
        .body,
    );
    expect(body.pre_answer_reasoning).toContain(QUESTION);
  });
  it('a model failing after ids were reserved: status 200, error_msg set, the partial answer', async () => {
    const server = await start({
      time_scale: 0.05,
      faults: { triggers: [{ match: 'receipts', fault: 'streaming_error', error_code: 'RATE_LIMIT' }] },
    });
    const r = await post(server.url, { message: QUESTION, stream: false });
    expect(r.status).toBe(200);
    const body = ChatFullResponseSchema.parse(JSON.parse(r.body));
    expect(body.error_msg).toContain('RATE_LIMIT');
    expect(body.answer.length).toBeGreaterThan(0);
    expect(server.engine.stats().streaming_errors).toBe(1);
  });
  it('include_citations false: no markers, no citation_info', async () => {
    const server = await start({ time_scale: 0.05 });
    const body = JSON.parse(
      (await post(server.url, { message: QUESTION, stream: false, include_citations: false })).body,
    );
    expect(body.citation_info).toEqual([]);
    expect(body.answer).toBe(body.answer_citationless);
  });
  it('more than one llm_overrides entry: 400 INVALID_INPUT, byte for byte', async () => {
    const server = await start({ time_scale: 0.05 });
    const r = await post(server.url, {
      message: QUESTION,
      stream: false,
      llm_overrides: [{ model_version: 'gpt-4o' }, { model_version: 'gpt-4o-mini' }],
    });
    expect(r.status).toBe(400);
    expect(r.body).toBe(`{"error_code":"INVALID_INPUT","detail":"${MULTI_MODEL_REQUIRES_STREAM_DETAIL}"}`);
    expect(server.tokens).toEqual([0]);
  });
});

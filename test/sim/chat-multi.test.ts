import { startChatServerForTest } from '../helpers/start-chat-server.js';
import { describe, expect, it } from 'vitest';
import { classifyPart, type StreamPart } from '../../src/api/index.js';
import { post } from '../../src/sim/chat/fixtures/test-server.js';

const start = startChatServerForTest;

const QUESTION = 'Which receipts do I need for expenses and hotel stays when travelling?';
const parts = (body: string): StreamPart[] =>
  body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => classifyPart(JSON.parse(l), l));
const typeOf = (p: StreamPart) => (p.kind === 'packet' ? p.part.obj.type : p.kind);
const modelOf = (p: StreamPart) => (p.kind === 'packet' ? p.part.placement.model_index : undefined);
const content = (p: StreamPart) =>
  p.kind === 'packet' ? String((p.part.obj as { content?: string }).content ?? '') : '';

describe('multi-model mode', () => {
  it('two models: the multi-model ids part, packets tagged and interleaved as produced, one stop per model', async () => {
    const server = await start({ time_scale: 0.05 });
    const overrides = [
      { model_version: 'gpt-4o', display_name: 'A' },
      { model_version: 'gpt-4o', display_name: 'B' },
    ];
    const r = await post(server.url, { message: QUESTION, llm_overrides: overrides });
    expect(r.status).toBe(200);
    const ps = parts(r.body);
    expect(ps.every((p) => p.kind !== 'decode_error')).toBe(true);
    expect(ps[0]!.kind).toBe('session_created');
    expect(ps[1]).toEqual({
      kind: 'multi_model_ids',
      part: {
        user_message_id: 1,
        responses: [
          { message_id: 2, model_name: 'A' },
          { message_id: 3, model_name: 'B' },
        ],
      },
    });
    expect(ps.some((p) => p.kind === 'message_ids')).toBe(false);
    const stops = ps.filter((p) => typeOf(p) === 'stop');
    expect(stops.map(modelOf).sort()).toEqual([0, 1]);
    // each model's own packets are a complete single-model sequence
    for (const m of [0, 1]) {
      const own = ps.filter((p) => modelOf(p) === m).map(typeOf);
      expect(own.slice(0, 6)).toEqual([
        'search_tool_start',
        'search_tool_queries_delta',
        'search_tool_filter_delta',
        'search_tool_documents_delta',
        'section_end',
        'message_start',
      ]);
      expect(own.at(-1)).toBe('stop');
    }
    // interleaved: the answer deltas switch between models many times
    const order = ps.filter((p) => typeOf(p) === 'message_delta').map(modelOf);
    const switches = order.slice(1).filter((m, i) => m !== order[i]).length;
    expect(switches).toBeGreaterThan(4);
  });
  it('models are paced by their own profiles: the faster one finishes first', async () => {
    const server = await start({ time_scale: 0.1 });
    const ps = parts(
      (
        await post(server.url, {
          message: QUESTION,
          llm_overrides: [{ model_version: 'claude-sonnet-4' }, { model_version: 'gpt-4o-mini' }],
        })
      ).body,
    );
    const stops = ps.filter((p) => typeOf(p) === 'stop').map(modelOf);
    expect(stops).toEqual([1, 0]);
    expect(ps.some((p) => typeOf(p) === 'reasoning_start' && modelOf(p) === 0)).toBe(true);
    expect(ps.some((p) => typeOf(p) === 'reasoning_start' && modelOf(p) === 1)).toBe(false);
    expect(ps[1]).toMatchObject({
      part: { responses: [{ model_name: 'claude-sonnet-4' }, { model_name: 'gpt-4o-mini' }] },
    });
  });
  it('a failing model sends its own streaming error naming it; the others go on to their stop', async () => {
    const server = await start({
      time_scale: 0.05,
      faults: {
        triggers: [{ match: 'receipts', fault: 'streaming_error', error_code: 'CONTEXT_TOO_LONG', model_index: 1 }],
      },
    });
    const overrides = [{ model_version: 'gpt-4o' }, { model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }];
    const ps = parts((await post(server.url, { message: QUESTION, llm_overrides: overrides })).body);
    const errors = ps.filter((p) => p.kind === 'streaming_error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.part).toMatchObject({
      error_code: 'CONTEXT_TOO_LONG',
      is_retryable: false,
      stack_trace: null,
      details: { model_index: 1 },
    });
    const stops = ps
      .filter((p) => typeOf(p) === 'stop')
      .map(modelOf)
      .sort();
    expect(stops).toEqual([0, 2]);
    const errorAt = ps.indexOf(errors[0]!);
    expect(ps.slice(errorAt + 1).some((p) => modelOf(p) === 1)).toBe(false);
    expect(ps.slice(errorAt + 1).some((p) => modelOf(p) === 0 || modelOf(p) === 2)).toBe(true);
    expect(
      ps
        .filter((p) => modelOf(p) === 1 && typeOf(p) === 'message_delta')
        .map(content)
        .join('').length,
    ).toBeGreaterThan(0);
  });
  it('four or more models: 200 with one VALIDATION_ERROR streaming error and nothing else after it', async () => {
    const server = await start({ time_scale: 0.05 });
    const overrides = Array.from({ length: 4 }, () => ({ model_version: 'gpt-4o' }));
    const r = await post(server.url, { message: QUESTION, llm_overrides: overrides });
    expect(r.status).toBe(200);
    const ps = parts(r.body);
    expect(ps.map((p) => p.kind)).toEqual(['session_created', 'streaming_error']);
    expect(ps[1]).toMatchObject({
      kind: 'streaming_error',
      part: { error_code: 'VALIDATION_ERROR', is_retryable: false },
    });
    expect(server.engine.stats().streaming_errors).toBe(1);
  });
  it('exactly one llm_overrides entry is ignored: single-model with the default model', async () => {
    const server = await start({ time_scale: 0.05 });
    const ps = parts(
      (await post(server.url, { message: QUESTION, llm_overrides: [{ model_version: 'claude-sonnet-4' }] })).body,
    );
    expect(ps[1]!.kind).toBe('message_ids');
    expect(ps.some((p) => typeOf(p) === 'reasoning_start')).toBe(false);
    expect(ps.filter((p) => typeOf(p) === 'stop')).toHaveLength(1);
  });
});

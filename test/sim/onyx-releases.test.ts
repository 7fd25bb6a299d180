/**
 * Contract of the client with the simulator at every listed Onyx release (issue 10 §1): streamed and
 * full, single-model and (from v3.2) multi-model, each checked for outcome, answer, citations and
 * every timing milestone; the wire differences of each release checked on the raw bytes; the
 * release's own failures (an empty answer, a failing tool, a refusal, a spent budget) classified as
 * that release writes them. Expectations come from docs/reference/onyx-releases.md, written out here
 * rather than read from the simulator's own table. Tiny time_scale: the whole file takes about a second.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONYX_RELEASES, type OnyxRelease } from '../../src/api/index.js';
import { createChatClient, type ChatClient } from '../../src/client/chat-client.js';
import type { Exchange } from '../../src/client/exchange.js';
import { loadCorpus, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { TOKENS } from '../helpers/start-sim.js';

const QUESTION = 'How many days of paid time off do employees get?';
const at = (release: OnyxRelease, since: OnyxRelease) => ONYX_RELEASES.indexOf(release) >= ONYX_RELEASES.indexOf(since);

interface Target {
  sim: RunningSimulator;
  client: ChatClient;
}
const targets = new Map<OnyxRelease, Target>();
let corpus: Awaited<ReturnType<typeof loadCorpus>>;

beforeAll(async () => {
  corpus = await loadCorpus();
  await Promise.all(
    ONYX_RELEASES.map(async (release) => {
      const sim = await startSimulator({
        corpus,
        config: {
          onyx_release: release,
          chat: {
            time_scale: 0.001,
            faults: {
              triggers: [
                { match: '[empty]', fault: 'empty_answer' },
                { match: '[tool]', fault: 'tool_error' },
                { match: '[refusal]', fault: 'model_refusal' },
              ],
            },
          },
        },
      });
      targets.set(release, { sim, client: createChatClient({ baseUrl: sim.baseUrl, token: TOKENS.demo }) });
    }),
  );
});
afterAll(async () => {
  await Promise.all([...targets.values()].flatMap((t) => [t.client.close(), t.sim.close()]));
});

const target = (release: OnyxRelease) => targets.get(release)!;
const send = (release: OnyxRelease, body: Parameters<ChatClient['send']>[0]) => target(release).client.send(body);

/** The checks every good answer passes: text, valid citations, milestones in order. */
function expectGoodAnswer(
  e: Pick<
    Exchange,
    'outcome' | 'answer' | 'cited_document_ids' | 'top_document_ids' | 'markers_without_citation' | 'error_message'
  >,
) {
  expect(e.outcome, e.error_message ?? '').toBe('ok');
  expect(e.answer?.length).toBeGreaterThan(20);
  expect(e.markers_without_citation).toEqual([]);
  expect(e.cited_document_ids.length).toBeGreaterThan(0);
  for (const id of e.cited_document_ids) expect(e.top_document_ids).toContain(id);
}

describe.each(ONYX_RELEASES.map((release) => ({ release })))('Onyx $release', ({ release }) => {
  it('tells its version at GET /version', async () => {
    const response = await request(`${target(release).sim.baseUrl}/version`);
    expect(await response.body.json()).toEqual({ backend_version: `v${release}.0` });
  });

  it('streamed and full, single model: the same answer, valid citations, every milestone', async () => {
    const body = { message: QUESTION, llm_override: { model_provider: 'openai', model_version: 'gpt-4o' } };
    const [stream, full] = await Promise.all([send(release, body), send(release, { ...body, stream: false })]);
    expectGoodAnswer(stream);
    expectGoodAnswer(full);
    expect(full.answer).toBe(stream.answer);
    expect(full.cited_document_ids).toEqual(stream.cited_document_ids);
    expect(stream).toMatchObject({ models: null, decode_errors: 0, unknown_parts: 0, framing: 'ndjson' });
    const m = stream.first_packet_ms;
    const order = [
      stream.ttfp_ms,
      m.search_tool_start,
      m.search_tool_documents_delta,
      m.message_start,
      stream.ttft_ms,
      stream.first_citation_ms,
      stream.total_ms,
    ];
    for (const value of order) expect(value).not.toBeNull();
    expect([...order].sort((a, b) => a! - b!)).toEqual(order);
    expect(stream.pre_answer_processing_seconds === null).toBe(!at(release, '2.12'));
    if (stream.output_chars_per_s !== null) expect(stream.output_chars_per_s).toBeGreaterThan(0);
    expect(full).toMatchObject({ ttfp_ms: null, ttft_ms: null });
  });

  it('writes the wire of its release', async () => {
    const response = await request(`${target(release).sim.baseUrl}/chat/send-chat-message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKENS.demo}` },
      body: JSON.stringify({ message: QUESTION }),
    });
    const lines = (await response.body.text()).trim().split('\n');
    expect(lines[0]).toMatch(
      at(release, '4.6') ? /^\{"chat_session_id": "[^"]+", "incognito": false\}$/ : /^\{"chat_session_id": "[^"]+"\}$/,
    );
    const packets = lines.filter((l) => l.startsWith('{"placement"'));
    const placement = at(release, '3.2')
      ? '"sub_turn_index": null, "model_index": 0}'
      : at(release, '3.1')
        ? '"sub_turn_index": null, "model_index": null}'
        : '"sub_turn_index": null}, "obj"';
    for (const line of packets) expect(line).toContain(placement);
    expect(lines.some((l) => l.includes('"type": "search_tool_filter_delta"'))).toBe(at(release, '4.3'));
    expect(lines.some((l) => l.includes('"time_filter_start"'))).toBe(at(release, '4.4'));
    expect(lines.some((l) => l.includes('"file_id"'))).toBe(at(release, '3.3'));
    expect(lines.some((l) => l.includes('"pre_answer_processing_seconds"'))).toBe(at(release, '2.12'));
  });

  it(
    at(release, '3.2')
      ? 'answers two models side by side'
      : 'ignores llm_overrides: one model answers, recorded invalid_response with answered_models 1',
    async () => {
      const e = await send(release, {
        message: QUESTION,
        llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }],
      });
      if (at(release, '3.2')) {
        expect(e.outcome, e.error_message ?? '').toBe('ok');
        expect(e.models?.map((model) => model.model_name)).toEqual(['gpt-4o-mini', 'gpt-4o']);
        for (const model of e.models ?? []) expectGoodAnswer(model);
        expect(e.answered_models).toBeNull();
      } else {
        expect(e).toMatchObject({ outcome: 'invalid_response', answered_models: 1 });
        expect(e.models).toHaveLength(1);
        expect(e.models?.[0]?.answer).toBe((await send(release, { message: QUESTION })).answer);
      }
    },
  );

  it('its own failures: an empty answer, a failing tool, a refusal', async () => {
    const [empty, tool, refusal] = (await Promise.all(
      ['[empty]', '[tool]', '[refusal]'].map((tag) => send(release, { message: `${QUESTION} ${tag}` })),
    )) as [Exchange, Exchange, Exchange];
    const emptyCode = !at(release, '3.1')
      ? null
      : !at(release, '3.2')
        ? 'EMPTY_LLM_RESPONSE'
        : !at(release, '4.2')
          ? 'MODEL_ERROR'
          : !at(release, '4.5')
            ? 'UNKNOWN_ERROR'
            : 'EMPTY_LLM_RESPONSE';
    expect(empty).toMatchObject(
      emptyCode === null
        ? { outcome: 'empty_answer', error_code: null }
        : { outcome: 'stream_error', error_code: emptyCode },
    );
    if (at(release, '3.2')) expect(tool).toMatchObject({ outcome: 'ok', tool_errors: 1 });
    else
      expect(tool).toMatchObject({
        outcome: 'stream_error',
        error_code: at(release, '2.12') ? 'UNKNOWN_ERROR' : 'TOOL_CALL_FAILED',
        tool_errors: 0,
      });
    if (at(release, '4.5'))
      expect(refusal).toMatchObject({ outcome: 'stream_error', error_code: 'MODEL_REFUSAL', error_retryable: false });
    else expect(refusal).toMatchObject({ outcome: empty.outcome, error_code: empty.error_code });
  });
});

// Every placement style and both ends of the range (deep research is long, even at a tiny time_scale).
describe.each((['2.7', '3.1', '3.2', '4.6'] as const).map((release) => ({ release })))(
  'Onyx $release',
  ({ release }) => {
    // Every placement style and both ends of the range (deep research is long, even at a tiny time_scale).
    it('deep research: the plan, the agents and a report whose citations, numbered per search, are all valid', async () => {
      const [e, full] = await Promise.all([
        send(release, { message: QUESTION, deep_research: true }),
        send(release, { message: QUESTION, deep_research: true, stream: false }),
      ]);
      expectGoodAnswer(e);
      expect(e.unknown_parts).toBe(0);
      for (const type of [
        'deep_research_plan_delta',
        'research_agent_start',
        'intermediate_report_delta',
        'message_start',
      ])
        expect(e.first_packet_ms).toHaveProperty(type);
      expect(e.first_packet_ms.research_agent_start!).toBeLessThanOrEqual(e.first_packet_ms.message_start!); // one chunk may carry both
      // The second agent's numbering (101, ...) cites a document already cited: no citation_info, valid by its link.
      expect(e.citations.some((c) => c.citation_number > 100)).toBe(true);
      expect(e.marker_citations.length).toBeGreaterThan(0);
      expectGoodAnswer(full);
      expect(full.answer).toBe(e.answer);
    });
  },
);

describe('release-dependent refusals', () => {
  it('a spent budget is the structured 429 with Retry-After from v4.5, and {"detail"} before', async () => {
    for (const release of ['4.4', '4.5'] as const) {
      const sim = await startSimulator({
        corpus,
        config: {
          onyx_release: release,
          rate_limits: { budgets: { per_user: { tokens: 1, window_s: 3600 } } },
          chat: { time_scale: 0.001 },
        },
      });
      const client = createChatClient({ baseUrl: sim.baseUrl, token: TOKENS.demo });
      try {
        expect((await client.send({ message: QUESTION })).outcome).toBe('ok');
        const limited = await client.send({ message: QUESTION });
        expect(limited).toMatchObject({ outcome: 'rate_limited', http_status: 429 });
        if (release === '4.5')
          expect(limited).toMatchObject({
            error_code: 'RATE_LIMITED',
            rate_limit: { scope: 'user', retry_after_s: expect.any(Number) },
          });
        else
          expect(limited).toMatchObject({
            error_code: null,
            error_message: 'Token budget exceeded for user. Try again later.',
            rate_limit: { scope: null, retry_after_s: null },
          });
      } finally {
        await client.close();
        await sim.close();
      }
    }
  });
  it('multi-model with deep research is a VALIDATION_ERROR (v3.2+)', async () => {
    const e = await send('4.6', {
      message: QUESTION,
      deep_research: true,
      llm_overrides: [{ model_version: 'a' }, { model_version: 'b' }],
    });
    expect(e).toMatchObject({ outcome: 'stream_error', error_code: 'VALIDATION_ERROR', error_retryable: false });
  });
});

describe('an override naming a model its provider does not have', () => {
  it("ends in the service's NOT_FOUND streaming error (stream and full); in multi-model only that model fails", async () => {
    const typo = { model_provider: 'openai', model_version: 'gpt-4o-mnii' };
    const streamed = await send('4.6', { message: QUESTION, llm_override: typo });
    expect(streamed).toMatchObject({ outcome: 'stream_error', error_code: 'NOT_FOUND' });
    expect(streamed.error_message).toContain('The model `gpt-4o-mnii` does not exist or you do not have access to it.');
    const full = await send('4.6', { message: QUESTION, stream: false, llm_override: typo });
    expect(full.outcome).not.toBe('ok');
    const multi = await send('4.6', {
      message: QUESTION,
      llm_overrides: [{ model_provider: 'openai', model_version: 'gpt-4o' }, typo],
    });
    expect(multi.models?.map((m) => m.outcome)).toEqual(['ok', 'stream_error']);
  });
});

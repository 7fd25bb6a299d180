/**
 * Against a service we did not write (issue 10): a raw node:http server replays, byte for byte, what
 * each released Onyx version sends (test/fixtures/onyx-releases, written by Python's json.dumps as
 * the service writes its lines), and the client must classify each exactly: outcome, answer,
 * citations and milestones. Covers every release difference the client reads: the session line
 * without `incognito` (before v4.6), packets without `model_index` (before v3.1) or with it null
 * (v3.1), llm_overrides ignored (v3.1), multi-model ids (v3.2), the tool error packet, MODEL_REFUSAL
 * never retried, the three 429 bodies, the scoped-token 403, a renumbered citation, deep research.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../src/client/chat-client.js';
import type { Exchange } from '../../src/client/exchange.js';
import { plannedRequest } from '../../src/runner/testing/fake-client.js';
import { runPlan } from '../../src/runner/run-plan.js';
import type { UnscoredRecord } from '../../src/runner/unscored-record.js';
import type { SendMessageRequest } from '../../src/api/send-message.js';
import { startScriptedServer, type ScriptedResponse } from '../helpers/scripted-server.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/onyx-releases/${name}`, import.meta.url), 'utf8');
const JSON_HEADERS = { 'content-type': 'application/json' };

/** The fixture's lines, one chunk each 1 ms apart (the unterminated last line too). */
function streamed(name: string): ScriptedResponse {
  const text = fixture(name);
  const pieces = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return { chunks: pieces.map((bytes, i) => ({ at_ms: i, bytes })) };
}
const body = (name: string, status: number, headers: Record<string, string> = {}): ScriptedResponse => ({
  status,
  headers: { ...JSON_HEADERS, ...headers },
  chunks: [{ at_ms: 0, bytes: fixture(name) }],
});

async function exchange(
  response: ScriptedResponse,
  request: SendMessageRequest = { message: 'How many days of PTO?' },
): Promise<Exchange> {
  const server = await startScriptedServer([response]);
  const client = createChatClient({ baseUrl: server.baseUrl, token: 'onyx_pat_test' });
  try {
    return await client.send(request);
  } finally {
    await client.close();
  }
}

const PTO = 'hr-pto-policy';

describe('streams of each release', () => {
  it.each([
    {
      name: 'v2.7-answer.ndjson',
      release: 'v2.7: no incognito, no model_index, no pre_answer_processing_seconds, no file_id',
    },
    { name: 'v3.1-answer.ndjson', release: 'v3.1: model_index null on every packet' },
  ])('$release', async ({ name }) => {
    const e = await exchange(streamed(name));
    expect(e, JSON.stringify(e)).toMatchObject({
      outcome: 'ok',
      http_status: 200,
      framing: 'ndjson',
      decode_errors: 0,
      unknown_parts: 0,
      models: null,
      answer: 'Employees get 25 days of paid time off [[1]](https://wiki.northwind.example/hr/pto-policy).',
      citations: [{ citation_number: 1, document_id: PTO }],
      cited_document_ids: [PTO],
      top_document_ids: [PTO, 'hr-holidays'],
      markers_without_citation: [],
      chat_session_id: '6f1c2d3e-1111-4a2b-9c3d-0123456789ab',
      message_id: 102,
    });
    expect(e.pre_answer_processing_seconds).toBe(name.startsWith('v2.7') ? null : 2.41);
    for (const milestone of [
      e.ttfp_ms,
      e.ttft_ms,
      e.first_citation_ms,
      e.first_packet_ms.message_start,
      e.first_packet_ms.search_tool_documents_delta,
    ]) {
      expect(milestone).toBeGreaterThan(0);
    }
    expect(e.ttfp_ms!).toBeLessThanOrEqual(e.first_packet_ms.message_start!);
    expect(e.first_packet_ms.message_start!).toBeLessThanOrEqual(e.ttft_ms!);
    expect(e.ttft_ms!).toBeLessThanOrEqual(e.total_ms!);
  });

  it('v3.1 asked for two models ignores llm_overrides: the record names the one model that answered, and is not ok', async () => {
    const e = await exchange(streamed('v3.1-answer.ndjson'), {
      message: 'q',
      llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }],
    });
    expect(e).toMatchObject({ outcome: 'invalid_response', answered_models: 1 });
    expect(e.models).toHaveLength(1);
    expect(e.models?.[0]).toMatchObject({
      model_index: 0,
      model_name: null,
      answer: expect.stringContaining('25 days'),
    });
  });

  it('v3.2 multi-model: ids per slot, model_index 0/1, a tool error packet counted, each model its own stop', async () => {
    const e = await exchange(streamed('v3.2-multi.ndjson'), {
      message: 'q',
      llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }],
    });
    expect(e).toMatchObject({ outcome: 'ok', tool_errors: 1, answered_models: null, message_id: null });
    expect(e.models?.map((m) => [m.model_name, m.outcome, m.tool_errors, m.pre_answer_processing_seconds])).toEqual([
      ['gpt-4o-mini', 'ok', 0, 1.2],
      ['gpt-4o', 'ok', 1, 1.9],
    ]);
    expect(e.models?.[0]).toMatchObject({ cited_document_ids: [PTO], markers_without_citation: [] });
  });

  it('v4.6: incognito, a heartbeat, the filter delta, and a renumbered citation that is valid', async () => {
    const e = await exchange(streamed('v4.6-answer.ndjson'));
    expect(e).toMatchObject({
      outcome: 'ok',
      unknown_parts: 0,
      markers_without_citation: [],
      marker_citations: [{ citation_number: 101, document_id: PTO }],
      cited_document_ids: [PTO],
      citations: [{ citation_number: 1, document_id: PTO }],
    });
    expect(e.first_packet_ms).toHaveProperty('search_tool_filter_delta');
    expect(e.first_packet_ms).not.toHaveProperty('chat_heartbeat');
  });

  it("v4.6 deep research: the plan and the agents' reports are not the answer; citations numbered per search are valid", async () => {
    const e = await exchange(streamed('v4.6-deep-research.ndjson'), { message: 'q', deep_research: true });
    expect(e).toMatchObject({
      outcome: 'ok',
      unknown_parts: 0,
      pre_answer_processing_seconds: 184.2,
      answer:
        'Employees get 25 days [[1]](https://wiki.northwind.example/hr/pto-policy) plus holidays [[101]](https://wiki.northwind.example/hr/holidays), as the policy says [[102]](https://wiki.northwind.example/hr/pto-policy).',
      cited_document_ids: [PTO, 'hr-holidays'],
      marker_citations: [{ citation_number: 102, document_id: PTO }],
      markers_without_citation: [],
    });
    expect(e.first_packet_ms).toHaveProperty('deep_research_plan_delta');
    expect(e.first_packet_ms).toHaveProperty('research_agent_start');
  });

  it.each([
    { name: 'v2.7-tool-failed.ndjson', outcome: 'stream_error', code: 'TOOL_CALL_FAILED', retryable: true },
    { name: 'v4.5-refusal.ndjson', outcome: 'stream_error', code: 'MODEL_REFUSAL', retryable: false },
    { name: 'v4.5-provider-limit.ndjson', outcome: 'stream_error', code: 'RATE_LIMIT', retryable: true },
    { name: 'v2.7-empty.ndjson', outcome: 'empty_answer', code: null, retryable: null },
    { name: 'v4.0-unterminated.ndjson', outcome: 'stream_error', code: null, retryable: null },
  ])('$name → $outcome $code', async ({ name, outcome, code, retryable }) => {
    const e = await exchange(streamed(name));
    expect(e).toMatchObject({ outcome, error_code: code, error_retryable: retryable, decode_errors: 0 });
    expect(e.error_message).not.toBeNull();
  });
});

describe('full responses of each release', () => {
  it.each(['v2.7-full.json', 'v4.6-full.json'])('%s', async (name) => {
    const e = await exchange(body(name, 200), { message: 'q', stream: false });
    expect(e).toMatchObject({
      outcome: 'ok',
      answer: 'Employees get 25 days [[1]](https://wiki.northwind.example/hr/pto-policy).',
      cited_document_ids: [PTO],
      top_document_ids: [PTO],
      markers_without_citation: [],
      message_id: 102,
      framing: null,
    });
  });
  it('an empty answer with no error_msg is empty_answer', async () => {
    expect(await exchange(body('v4.6-full-empty.json', 200), { message: 'q', stream: false })).toMatchObject({
      outcome: 'empty_answer',
      answer: '',
    });
  });
});

describe('error bodies of each release', () => {
  it.each([
    {
      name: '429-v2.7.json',
      headers: {} as Record<string, string>,
      code: null,
      retry: null,
      scope: null,
      message: 'Token budget exceeded for user. Try again later.',
    },
    {
      name: '429-v3.3-cloud.json',
      headers: {} as Record<string, string>,
      code: 'RATE_LIMITED',
      retry: null,
      scope: null,
      message: 'API call limit reached for this period.',
    },
    {
      name: '429-v4.5.json',
      headers: { 'retry-after': '42' } as Record<string, string>,
      code: 'RATE_LIMITED',
      retry: 42,
      scope: 'user',
      message: "You've reached the usage budget for your account.",
    },
  ])('$name is rate_limited; what is missing is null', async ({ name, headers, code, retry, scope, message }) => {
    const e = await exchange(body(name, 429, headers));
    expect(e).toMatchObject({ outcome: 'rate_limited', http_status: 429, error_code: code, error_message: message });
    expect(e.rate_limit).toMatchObject({ retry_after_s: retry, scope });
  });
  it('v4.1 scoped token: 403 INSUFFICIENT_PERMISSIONS is an http_error with its code', async () => {
    expect(await exchange(body('403-v4.1-scope.json', 403))).toMatchObject({
      outcome: 'http_error',
      http_status: 403,
      error_code: 'INSUFFICIENT_PERMISSIONS',
    });
  });
});

describe('is_retryable decides a retry', () => {
  async function run(responses: ScriptedResponse[]): Promise<UnscoredRecord> {
    const server = await startScriptedServer(responses);
    const client = createChatClient({ baseUrl: server.baseUrl, token: 'onyx_pat_test' });
    const records: UnscoredRecord[] = [];
    try {
      await runPlan([plannedRequest(0)], {
        client,
        concurrency: 1,
        retries: 2,
        onRecord: (r) => records.push(r),
        sleep: async () => {},
      });
    } finally {
      await client.close();
    }
    return records[0]!;
  }
  it('MODEL_REFUSAL (is_retryable false) is never retried', async () => {
    const record = await run([streamed('v4.5-refusal.ndjson'), streamed('v4.6-answer.ndjson')]);
    expect(record.attempts.map((a) => [a.outcome, a.error_code])).toEqual([['stream_error', 'MODEL_REFUSAL']]);
  });
  it('a provider limit (is_retryable true) is retried, and the last attempt decides', async () => {
    const record = await run([streamed('v4.5-provider-limit.ndjson'), streamed('v4.6-answer.ndjson')]);
    expect(record.attempts.map((a) => a.outcome)).toEqual(['stream_error', 'ok']);
    expect(record.outcome).toBe('ok');
  });
});

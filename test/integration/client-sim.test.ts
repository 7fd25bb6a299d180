import { describe, expect, it, onTestFinished } from 'vitest';
import { createChatClient, type ChatClientOptions } from '../../src/client/chat-client.js';
import { ExchangeSchema } from '../../src/client/exchange.js';
import { runPlan, type UnscoredRecord } from '../../src/runner/index.js';
import { plannedRequest } from '../../src/runner/testing/fake-client.js';
import type { SimulatorOptions } from '../../src/sim/index.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const QUESTION = 'How can the service be deployed?';

async function simClient(options: SimulatorOptions = {}, client: Partial<ChatClientOptions> = {}) {
  const sim = await startSim(options);
  const c = createChatClient({ baseUrl: sim.baseUrl, token: TOKENS.demo, timeoutMs: 5_000, ...client });
  onTestFinished(() => c.close());
  return c;
}

describe('against the simulator', () => {
  it('a streamed answer is ok, with milestones in order and citations among the documents given', async () => {
    const c = await simClient();
    const e = await c.send({ message: QUESTION, stream: true });
    expect(() => ExchangeSchema.parse(e)).not.toThrow();
    expect(e).toMatchObject({ outcome: 'ok', http_status: 200, decode_errors: 0 });
    expect(e.ttfp_ms).not.toBeNull();
    expect(e.ttfp_ms ?? 0).toBeLessThanOrEqual(e.ttft_ms ?? Infinity);
    expect(e.ttft_ms ?? 0).toBeLessThanOrEqual(e.total_ms ?? 0);
    expect(e.answer?.length).toBeGreaterThan(0);
    expect(e.chat_session_id).not.toBeNull();
    for (const id of e.cited_document_ids) expect(e.top_document_ids).toContain(id);
  });

  it('full mode gives the same kind of answer with only headers and total', async () => {
    const c = await simClient();
    const e = await c.send({ message: QUESTION, stream: false });
    expect(e).toMatchObject({ outcome: 'ok', ttfp_ms: null, ttft_ms: null, models: null });
    expect(e.answer?.length).toBeGreaterThan(0);
    expect(e.message_id).not.toBeNull();
  });

  it('multi-model: per-model names, answers and outcomes', async () => {
    const c = await simClient();
    const e = await c.send({
      message: QUESTION,
      stream: true,
      llm_overrides: [
        { model_provider: 'openai', model_version: 'gpt-4o-mini' },
        { model_provider: 'openai', model_version: 'gpt-4o' },
      ],
    });
    expect(e.outcome).toBe('ok');
    expect(e.models).toHaveLength(2);
    for (const model of e.models ?? []) {
      expect(model.outcome).toBe('ok');
      expect(model.answer?.length).toBeGreaterThan(0);
      expect(model.ttft_ms).not.toBeNull();
    }
  });

  it.each([
    ['reset_before_headers', 'network'],
    ['reset_mid_stream', 'network'],
    ['stall_mid_stream', 'timeout'],
    ['malformed_line', 'invalid_response'],
    ['end_without_stop', 'truncated'],
    ['unterminated_error', 'stream_error'],
    ['http_500', 'http_error'],
    ['http_503', 'http_error'],
    ['streaming_error', 'stream_error'],
  ] as const)('the fault %s is classified %s', async (fault, outcome) => {
    const c = await simClient(
      {
        config: {
          chat: {
            time_scale: 0.02,
            stall_ms: 60_000,
            faults: { triggers: [{ match: 'FAULT', fault, error_code: 'RATE_LIMIT' }] },
          },
        },
      },
      // A short silence limit only where silence is the fault: elsewhere a busy machine's late chunk is no timeout.
      { timeoutMs: fault === 'stall_mid_stream' ? 800 : 30_000 },
    );
    const e = await c.send({ message: `${QUESTION} FAULT`, stream: true });
    expect(e.outcome).toBe(outcome);
    if (fault === 'streaming_error') expect(e.error_code).toBe('RATE_LIMIT');
    if (fault === 'http_503') expect(e.http_status).toBe(503);
  });

  it('a small plan through the runner: one ok record per request', async () => {
    const sim = await startSim();
    const client = createChatClient({ baseUrl: sim.baseUrl, token: TOKENS.demo, timeoutMs: 5_000, connections: 4 });
    onTestFinished(() => client.close());
    const records: UnscoredRecord[] = [];
    const plan = Array.from({ length: 8 }, (_, i) =>
      plannedRequest(i, { body: { message: QUESTION, stream: i % 2 === 0 } }),
    );
    const result = await runPlan(plan, { client, concurrency: 4, onRecord: (r) => records.push(r) });
    expect(result.outcomes.ok).toBe(8);
    expect(records).toHaveLength(8);
  });
});

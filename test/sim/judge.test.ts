/**
 * The simulator's judge (POST /v1/chat/completions at the root) over real HTTP: an OpenAI-shaped
 * completion whose content is the rules' verdict, bare with response_format and as prose without
 * structured output; faults forced by triggers (a 429 with Retry-After, a 500, a reply with no
 * verdict) and limited to the first asks of an input; its own token; every call counted.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { SimConfigInput } from '../../src/sim/index.js';
import { startSim } from '../helpers/start-sim.js';

const INPUT = JSON.stringify({
  task: 'correctness',
  question: 'How many days of PTO?',
  answer: 'Every employee gets 25 days of paid time off.',
  reference_answer: 'Employees get 25 days of paid time off.',
});

async function ask(
  config: SimConfigInput['judge'],
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const sim = await startSim({ config: { judge: { latency_ms: { median: 0, p99: 0 }, ...config } } });
  const origin = new URL(sim.baseUrl).origin;
  const send = async (over: Record<string, unknown> = {}) => {
    const response = await request(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        model: 'judge-x',
        messages: [
          { role: 'system', content: 'Grade.' },
          { role: 'user', content: INPUT },
        ],
        ...body,
        ...over,
      }),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (await response.body.json()) as {
        choices?: Array<{ message: { content: string } }>;
        model?: string;
        error?: { message: string };
      },
    };
  };
  return { sim, send };
}

const SCHEMA = { response_format: { type: 'json_schema', json_schema: { name: 'v', schema: { type: 'object' } } } };

describe('the simulated judge', () => {
  it("answers with the rules' verdict as bare JSON when asked for structured output, under the model asked for", async () => {
    const { sim, send } = await ask({}, SCHEMA);
    const reply = await send();
    expect(reply.status).toBe(200);
    expect(reply.body.model).toBe('judge-x');
    expect(JSON.parse(reply.body.choices?.[0]?.message.content ?? '')).toEqual({
      score: 1,
      reason: 'states every key fact of the reference',
    });
    expect(sim.stats().http['chat-completions']).toEqual({ '200': 1 });
    expect(sim.stats().http['send-chat-message']).toEqual({});
  });

  it('answers in prose around a fenced block without response_format, or when configured without structured output', async () => {
    const plain = await ask({}, {});
    expect((await plain.send()).body.choices?.[0]?.message.content).toMatch(
      /^Here is my verdict\.\n\n```json\n\{"score":1,/,
    );
    const ollama = await ask({ structured_output: false }, SCHEMA);
    expect((await ollama.send()).body.choices?.[0]?.message.content).toMatch(/```json/);
  });

  it('forces faults by trigger, for the first asks of an input only', async () => {
    const { sim, send } = await ask(
      {
        retry_after_s: 3,
        triggers: [
          { match: '25 days', reply: 'http_429', times: 1 },
          { match: 'vacation', reply: 'http_500' },
          { match: 'holiday', reply: 'no_verdict' },
        ],
      },
      SCHEMA,
    );
    const limited = await send();
    expect([limited.status, limited.headers['retry-after'], limited.body.error?.message]).toEqual([
      429,
      '3',
      'Rate limit reached for requests. Please try again later.',
    ]);
    expect((await send()).status).toBe(200);
    const other = (content: string) => ({
      messages: [{ role: 'user', content: JSON.stringify({ task: 'relevance', question: content, answer: content }) }],
    });
    expect((await send(other('vacation rules'))).status).toBe(500);
    expect((await send(other('holiday rules'))).body.choices?.[0]?.message.content).not.toMatch(/\{/);
    expect(sim.stats().http['chat-completions']).toEqual({ '200': 2, '429': 1, '500': 1 });
  });

  it('a seeded error and 429 rate gives the same faults for the same asks', async () => {
    const statuses = async () => {
      const { send } = await ask({ error_rate: 0.3, rate_limit_rate: 0.3 }, SCHEMA);
      const out: number[] = [];
      for (let i = 0; i < 12; i += 1)
        out.push(
          (
            await send({
              messages: [
                { role: 'user', content: JSON.stringify({ task: 'relevance', question: `q${i % 4}`, answer: 'a' }) },
              ],
            })
          ).status,
        );
      return out;
    };
    const first = await statuses();
    expect(await statuses()).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('wants its token when configured with one, and refuses a body that is not a chat completion request', async () => {
    const guarded = await ask({ token: 'sk-sim-judge' }, SCHEMA);
    expect((await guarded.send()).status).toBe(401);
    const { send } = await ask({ token: 'sk-sim-judge' }, SCHEMA, { authorization: 'Bearer sk-sim-judge' });
    expect((await send()).status).toBe(200);
    const bad = await send({ messages: [] });
    expect([bad.status, bad.body.error?.message]).toEqual([
      400,
      'Invalid request: messages: Too small: expected array to have >=1 items',
    ]);
  });
});

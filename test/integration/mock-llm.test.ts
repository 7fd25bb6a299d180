/**
 * The mock LLM end to end over loopback HTTP, with the `openai` npm package as the caller (as the
 * service's litellm is, an OpenAI client): models listed, a whole answer, a streamed answer, parallel
 * tool calls streamed in OpenAI's format, the refusal of a forced function not offered, and a
 * stream the caller drops counted as cancelled.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockLlm, type RunningMockLlm } from '../../src/sim/llm/index.js';

let mock: RunningMockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function client(options: { apiKey?: string } = {}): Promise<OpenAI> {
  mock = await startMockLlm({ timeScale: 0.01, models: ['mock-model', 'mock-tools1'], apiKey: options.apiKey ?? null });
  return new OpenAI({ baseURL: mock.baseUrl, apiKey: options.apiKey ?? 'any', maxRetries: 0, timeout: 30_000 });
}

const SEARCH = {
  type: 'function' as const,
  function: {
    name: 'internal_search',
    parameters: {
      type: 'object',
      properties: { queries: { type: 'array', items: { type: 'string' } } },
      required: ['queries'],
    },
  },
};
const WEB = {
  type: 'function' as const,
  function: {
    name: 'web_search',
    parameters: {
      type: 'object',
      properties: { queries: { type: 'array', items: { type: 'string' } } },
      required: ['queries'],
    },
  },
};

describe('chatbench mock-llm with the openai client', () => {
  it('lists its models and answers whole', async () => {
    const openai = await client({ apiKey: 'sk-test' });
    expect((await openai.models.list()).data.map((m) => m.id)).toEqual(['mock-model', 'mock-tools1']);
    const done = await openai.chat.completions.create({
      model: 'mock-ttft50-itl1-len12',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(done.choices[0]!.finish_reason).toBe('stop');
    expect(done.choices[0]!.message.content!.split(' ')).toHaveLength(12);
    expect(done.usage?.completion_tokens).toBe(12);
  });

  it('refuses a wrong API key when one is required', async () => {
    await client({ apiKey: 'sk-test' });
    const wrong = new OpenAI({ baseURL: mock!.baseUrl, apiKey: 'sk-wrong', maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 });
  });

  it('streams the answer token by token, ending with stop', async () => {
    const openai = await client();
    const stream = await openai.chat.completions.create({
      model: 'mock-ttft100-itl5-len20',
      stream: true,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const contents: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0]!;
      if (choice.delta.content) contents.push(choice.delta.content);
      finish = choice.finish_reason ?? finish;
    }
    expect(contents).toHaveLength(20);
    expect(finish).toBe('stop');
  });

  it("streams parallel tool calls that the client's stream helper assembles", async () => {
    const openai = await client();
    const runner = openai.chat.completions.stream({
      model: 'mock-tools2-ttft10',
      tools: [SEARCH, WEB],
      tool_choice: 'auto',
      messages: [{ role: 'user', content: 'what is our PTO policy' }],
    });
    const final = await runner.finalChatCompletion();
    const choice = final.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const calls = (choice.message.tool_calls ?? []).map((c) =>
      c.type === 'function' ? [c.function.name, JSON.parse(c.function.arguments)] : null,
    );
    expect(calls).toEqual([
      ['internal_search', { queries: ['what is our PTO policy'] }],
      ['web_search', { queries: ['what is our PTO policy'] }],
    ]);
    expect(mock!.stats()).toMatchObject({ streamed: 1, tool_call_replies: 1 });
  });

  it('answers 400 to a forced function it is not offered', async () => {
    const openai = await client();
    await expect(
      openai.chat.completions.create({
        model: 'mock-model',
        tools: [SEARCH],
        tool_choice: { type: 'function', function: { name: 'generate_report' } },
        messages: [{ role: 'user', content: 'q' }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(`function "generate_report" is not in 'tools'`),
    });
  });

  it('counts a stream the caller abandons as cancelled', async () => {
    const openai = await client();
    const stream = await openai.chat.completions.create({
      model: 'mock-ttft0-itl2000-len50',
      stream: true,
      messages: [{ role: 'user', content: 'q' }],
    });
    let seen = 0;
    // Leaving the loop aborts the response (the client's stream closes its connection), as a caller giving up does.
    for await (const _ of stream) if ((seen += 1) === 2) break;
    expect(seen).toBe(2);
    for (let i = 0; i < 100 && mock!.stats().cancelled === 0; i++) await new Promise((done) => setTimeout(done, 10));
    expect(mock!.stats().cancelled).toBe(1);
  });
});

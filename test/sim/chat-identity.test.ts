/**
 * The simulator gives a request the same answer whatever ran before it: content derives from the
 * request's identity, so a plan run whole, in shards, or at any concurrency gets the same answers.
 */
import { describe, expect, it } from 'vitest';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const ask = async (baseUrl: string, body: Record<string, unknown>) => {
  const response = await fetch(`${baseUrl}/chat/send-chat-message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKENS.demo}`, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: false, ...body }),
  });
  return ((await response.json()) as { answer: string }).answer;
};

describe('request identity', () => {
  it('answers a request the same whatever other requests came first', async () => {
    const question = { message: 'How many days of paid time off do employees get?' };
    const mini = { ...question, llm_override: { model_version: 'gpt-4o-mini' } };
    const a = await startSim();
    const b = await startSim();
    // a asks the default model first, b asks mini first: mini's answer must not depend on it.
    await ask(a.baseUrl, question);
    const fromA = await ask(a.baseUrl, mini);
    const fromB = await ask(b.baseUrl, mini);
    expect(fromB).toBe(fromA);
  });

  it('makes the n-th repeat of a request the same draw on every simulator of the same seed', async () => {
    const body = {
      message: 'How do I fail over the database?',
      llm_override: { model_version: 'gpt-4o-mini', temperature: 1 },
    };
    const one = await startSim();
    const two = await startSim();
    await ask(two.baseUrl, { message: 'Something else first' });
    const drawsOne = [await ask(one.baseUrl, body), await ask(one.baseUrl, body), await ask(one.baseUrl, body)];
    const drawsTwo = [await ask(two.baseUrl, body), await ask(two.baseUrl, body), await ask(two.baseUrl, body)];
    expect(drawsTwo).toEqual(drawsOne);
  });
});

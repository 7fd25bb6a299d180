/**
 * The judge client against endpoints we did not write, as raw node:http servers answering the way
 * real ones do: vLLM (honours response_format, bare JSON), Ollama (ignores it, JSON in prose and a
 * code fence), an endpoint that refuses response_format with a 400, an API that 429s with
 * Retry-After, 5xx and auth failures, and one that echoes the token. Waits between tries go
 * through an injected sleep that records them and returns at once: nothing here waits in real time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createJudgeClient, judgeBaseUrl, type JudgeClientOptions } from '../../src/judge/client.js';

interface Received {
  url: string;
  authorization: string | undefined;
  body: {
    model: string;
    temperature: number;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string; json_schema: { name: string } };
  };
}
type Handler = (request: Received, res: ServerResponse, index: number) => void;

async function endpoint(handler: Handler): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        const request = {
          url: req.url ?? '',
          authorization: req.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'],
        };
        received.push(request);
        handler(request, res, received.length - 1);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const completion = (content: string) => ({
  id: 'x',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});
const ASK = {
  system: 'Grade it.',
  user: '{"task":"correctness","question":"q","answer":"a","reference_answer":"r"}',
  kind: 'score' as const,
};

function client(url: string, options: Partial<JudgeClientOptions> = {}) {
  const waits: number[] = [];
  const judge = createJudgeClient({
    url,
    model: 'judge-1',
    retries: 3,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    ...options,
  });
  return { judge, waits };
}

describe('the judge client', () => {
  it('asks like vLLM wants: temperature 0, a JSON schema response_format, the token as a bearer; reads the bare JSON', async () => {
    const vllm = await endpoint((_, res) =>
      json(res, 200, completion('{"score": 0.8, "reason": "covers the key facts"}')),
    );
    const { judge } = client(`${vllm.url}/v1/`, { token: 'sk-judge-secret' });
    expect(await judge.ask(ASK)).toEqual({ ok: true, score: 0.8, reason: 'covers the key facts', attempts: 1 });
    const [sent] = vllm.received;
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.authorization).toBe('Bearer sk-judge-secret');
    expect(sent?.body).toMatchObject({
      model: 'judge-1',
      temperature: 0,
      messages: [
        { role: 'system', content: 'Grade it.' },
        { role: 'user', content: ASK.user },
      ],
    });
    expect(sent?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'chatbench_score_verdict' },
    });
  });

  it('reads an Ollama-like reply that ignores response_format: prose around a fenced block', async () => {
    const ollama = await endpoint((_, res) =>
      json(
        res,
        200,
        completion(
          'Sure, here is my grading.\n\n```json\n{"score": 0.25, "reason": "wrong date"}\n```\nHope that helps!',
        ),
      ),
    );
    expect(await client(ollama.url).judge.ask(ASK)).toEqual({
      ok: true,
      score: 0.25,
      reason: 'wrong date',
      attempts: 1,
    });
  });

  it('drops response_format when an endpoint refuses it, without spending a try, and never sends it again', async () => {
    const strict = await endpoint((req, res) => {
      if (req.body.response_format !== undefined)
        return json(res, 400, {
          error: { message: 'Unrecognized request argument supplied: response_format', type: 'invalid_request_error' },
        });
      json(res, 200, completion('{"pass": true, "reason": "names the portal"}'));
    });
    const { judge, waits } = client(strict.url);
    expect(await judge.ask({ ...ASK, kind: 'pass' })).toMatchObject({ ok: true, score: 1, reason: 'names the portal' });
    expect(await judge.ask(ASK)).toMatchObject({ ok: true });
    expect(strict.received.map((r) => r.body.response_format !== undefined)).toEqual([true, false, false]);
    expect(judge.structured()).toBe(false);
    expect(waits).toEqual([]);
  });

  it('waits out a 429 for its Retry-After (or retry-after-ms), then gets the verdict', async () => {
    const api = await endpoint((_, res, i) => {
      if (i === 0)
        return json(res, 429, { error: { message: 'Rate limit reached', type: 'requests' } }, { 'retry-after': '7' });
      if (i === 1) return json(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after-ms': '1500' });
      json(res, 200, completion('{"score": 1, "reason": "ok"}'));
    });
    const { judge, waits } = client(api.url);
    expect(await judge.ask(ASK)).toEqual({ ok: true, score: 1, reason: 'ok', attempts: 3 });
    expect(waits).toEqual([7000, 1500]);
  });

  it('caps a long Retry-After, backs off on 5xx and on replies without a verdict, and gives up after its retries', async () => {
    const flaky = await endpoint((_, res, i) => {
      if (i === 0) return json(res, 429, {}, { 'retry-after': '3600' });
      if (i === 1) return json(res, 503, { detail: 'overloaded' });
      json(res, 200, completion('I think the answer is mostly right.'));
    });
    const { judge, waits } = client(flaky.url, { retryAfterCapS: 30 });
    const result = await judge.ask(ASK);
    expect(result).toEqual({
      ok: false,
      error: 'no verdict in the judge\'s reply: "I think the answer is mostly right." (4 tries)',
      attempts: 4,
    });
    // 429 capped at 30 s; then backoff: half of 500·2^(n-1) ms plus half of that times random() = 0.5.
    expect(waits).toEqual([30_000, 750, 1500]);
  });

  it('does not retry a 401 or a 404, and keeps the token out of what it reports', async () => {
    const echo = await endpoint((req, res) =>
      json(res, 401, { error: { message: `Incorrect API key provided: ${req.authorization?.slice(7)}` } }),
    );
    const { judge, waits } = client(echo.url, { token: 'sk-very-secret-token' });
    const result = await judge.ask(ASK);
    expect(result).toEqual({ ok: false, error: 'HTTP 401: Incorrect API key provided: [redacted]', attempts: 1 });
    expect(waits).toEqual([]);
  });

  it('reports a refused connection as an error after its retries, never a throw', async () => {
    // A port nothing listens on: start and stop a server to find one.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { judge } = client(`http://127.0.0.1:${port}`, { retries: 1 });
    const result = await judge.ask(ASK);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/ECONNREFUSED|connect/);
    expect(result.attempts).toBe(2);
  });

  it('reads a body that is not a completion as an error', async () => {
    const odd = await endpoint((_, res) => json(res, 200, { result: 'fine' }));
    expect(await client(odd.url, { retries: 0 }).judge.ask(ASK)).toEqual({
      ok: false,
      error: 'the judge endpoint replied without choices[0].message (1 try)',
      attempts: 1,
    });
  });
});

it.each([
  ['http://h:1', 'http://h:1'],
  ['http://h:1/', 'http://h:1'],
  ['http://h:1/v1', 'http://h:1'],
  ['https://api.example.com/openai/v1/', 'https://api.example.com/openai'],
])('judgeBaseUrl(%s) → %s', (url, want) => expect(judgeBaseUrl(url)).toBe(want));

/**
 * @module sim/llm/server
 * The mock LLM's HTTP edge: `POST /v1/chat/completions` (streamed as SSE or whole) and
 * `GET /v1/models`, on a node:http server of its own, apart from the simulated service: it stands
 * behind a real deployment, registered there as an `openai_compatible` provider (docs/mock-llm.md).
 * Every request is independent (no session state); the waits are timers, so thousands of held
 * streams cost no threads. Counts what it served so a run can be checked against it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LLM_CHAT_PATH, LLM_MODELS_PATH, LlmRequestSchema } from '../../api/llm.js';
import { readBody } from '../http.js';
import { DEFAULT_KNOBS, knobsOf, type LlmKnobs } from './knobs.js';
import { completionDelayMs, completionOf, planReply, streamOf, type TimedChunk } from './reply.js';

export interface MockLlmOptions {
  /** Knobs a model name does not set. */
  readonly defaults?: LlmKnobs;
  /** Multiplies every wait (0.01 makes a test fast). Default 1. */
  readonly timeScale?: number;
  /** Model ids `GET /v1/models` lists (any name is served). Default `mock-model`. */
  readonly models?: readonly string[];
  /** The API key required as `Authorization: Bearer <key>`; null (default): any or none. */
  readonly apiKey?: string | null;
  /** Unix seconds for `created` (tests fix it). */
  readonly clock?: () => number;
}

export interface MockLlmStats {
  requests: number;
  streamed: number;
  tool_call_replies: number;
  errors: number;
  /** Streams the caller closed before the last event. */
  cancelled: number;
}

export interface MockLlm {
  readonly server: Server;
  stats(): MockLlmStats;
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
}

/** Prompts can be long (a whole conversation with documents): far above any chat request. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const openAiError = (
  res: ServerResponse,
  status: number,
  message: string,
  type = 'invalid_request_error',
  extra: { param?: string | null; code?: string | null } = {},
) => sendJson(res, status, { error: { message, type, param: extra.param ?? null, code: extra.code ?? null } });

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(payload.length) });
  res.end(payload);
}

export function createMockLlm(options: MockLlmOptions = {}): MockLlm {
  const defaults = options.defaults ?? DEFAULT_KNOBS;
  const scale = options.timeScale ?? 1;
  const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  const stats: MockLlmStats = { requests: 0, streamed: 0, tool_call_replies: 0, errors: 0, cancelled: 0 };
  let served = 0;

  const wait = (ms: number, res: ServerResponse) =>
    new Promise<boolean>((done) => {
      if (ms <= 0) return done(!res.destroyed);
      const onClose = () => {
        clearTimeout(timer);
        done(false);
      };
      const timer = setTimeout(() => {
        res.off('close', onClose);
        done(!res.destroyed);
      }, ms);
      res.once('close', onClose);
    });

  async function stream(res: ServerResponse, chunks: readonly TimedChunk[]): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const started = performance.now();
    for (const { atMs, chunk } of chunks) {
      const alive = await wait(atMs * scale - (performance.now() - started), res);
      if (!alive) {
        stats.cancelled += 1;
        return;
      }
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  async function completions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body.kind === 'aborted') return;
    if (body.kind === 'too_large') return openAiError(res, 413, `request body over ${MAX_BODY_BYTES} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch (error) {
      return openAiError(res, 400, `request body is not JSON: ${(error as Error).message}`);
    }
    const parsed = LlmRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return openAiError(res, 400, `${issue.path.join('.') || 'body'}: ${issue.message}`, 'invalid_request_error', {
        param: issue.path.join('.') || null,
      });
    }
    const request = parsed.data;
    const knobs = knobsOf(request.model, defaults);
    const n = (served += 1);
    const reply = planReply(request, knobs, (i) => `call_mock_${n.toString(16).padStart(6, '0')}_${i}`);
    if (reply.kind === 'error') {
      stats.errors += 1;
      return sendJson(res, reply.status, reply.body);
    }
    if (reply.kind === 'tools') stats.tool_call_replies += 1;
    const meta = { id: `chatcmpl-mock-${n.toString(16).padStart(12, '0')}`, model: request.model, created: clock() };
    if (request.stream === true) {
      stats.streamed += 1;
      return stream(res, streamOf(reply, meta, knobs));
    }
    if (await wait(completionDelayMs(reply, knobs) * scale, res)) sendJson(res, 200, completionOf(reply, meta));
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    stats.requests += 1;
    if (options.apiKey != null && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return openAiError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', { code: 'invalid_api_key' });
    }
    if (path === LLM_MODELS_PATH && req.method === 'GET') {
      return sendJson(res, 200, {
        object: 'list',
        data: (options.models ?? ['mock-model']).map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'chatbench',
        })),
      });
    }
    if (path === LLM_CHAT_PATH) {
      if (req.method !== 'POST') return openAiError(res, 405, `${req.method} ${path}: use POST`);
      completions(req, res).catch((error: unknown) => {
        if (!res.headersSent) openAiError(res, 500, `mock LLM failed: ${String(error)}`, 'server_error');
        else res.destroy();
      });
      return;
    }
    openAiError(
      res,
      404,
      `${req.method} ${path}: not served (the mock LLM serves POST ${LLM_CHAT_PATH} and GET ${LLM_MODELS_PATH})`,
    );
  });

  return {
    server,
    stats: () => ({ ...stats }),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface RunningMockLlm extends MockLlm {
  /** e.g. `http://127.0.0.1:8001/v1`: what an OpenAI client takes as its base URL. */
  readonly baseUrl: string;
}

/** Creates the mock and listens (default 127.0.0.1, an ephemeral port); rejects with the listen error. */
export async function startMockLlm(
  options: MockLlmOptions & { host?: string; port?: number } = {},
): Promise<RunningMockLlm> {
  const mock = createMockLlm(options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    mock.server.once('error', reject);
    mock.server.listen({ port: options.port ?? 0, host, backlog: 4096 }, () => {
      mock.server.off('error', reject);
      resolve();
    });
  });
  const { port } = mock.server.address() as AddressInfo;
  return { ...mock, baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1` };
}

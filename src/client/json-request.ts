/**
 * @module client/json-request
 * One small JSON request/response over undici, for the operations that are not measured streams
 * (project instructions, open-urls, `GET /version`, the judge). Resolves with the status, headers,
 * body text and latency; rejects only with the connection's own error, a TimeoutError, or a
 * ResponseTooLargeError (the callers classify them). The token is sent in the Authorization header
 * only.
 *
 * Bounded both ways (issue 23): `timeoutMs` limits the whole exchange, body included (no byte
 * resets it: a body dripping a byte a second ends with it), and the body is read no further than
 * `maxBodyBytes` (an endless or huge body ends the read at the cap, the connection is closed).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request, type Dispatcher } from 'undici';
import { joinSignals } from './join-signals.js';

export interface JsonEndpointOptions {
  /** Including any path prefix (`http://host/api`). */
  baseUrl: string;
  token?: string;
  dispatcher?: Dispatcher;
  /** The whole exchange, body included; default DEFAULT_JSON_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Bytes of the response body read at most; default DEFAULT_MAX_JSON_BODY_BYTES. */
  maxBodyBytes?: number | undefined;
  now?: () => number;
}

export interface JsonResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Monotonic ms from sent to the end of the body. */
  latencyMs: number;
}

/** The whole exchange by default (open-urls and project instructions without --timeout): 30 s. */
export const DEFAULT_JSON_TIMEOUT_MS = 30_000;

/** Bytes of a JSON response body by default: 16 MiB, far above any answer of these operations. */
export const DEFAULT_MAX_JSON_BODY_BYTES = 16 * 1024 * 1024;

/** The response body passed its cap: what was asked, and the cap. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  readonly code = 'BODY_TOO_LARGE';
  constructor(
    readonly what: string,
    readonly maxBytes: number,
  ) {
    super(`${what}: the response body exceeds ${maxBytes} bytes`);
  }
}

/** Sends `body` (JSON) to `path` under the base URL; a signal or the timeout aborts with the signal's reason. */
export async function jsonRequest(
  options: JsonEndpointOptions,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<JsonResponse> {
  const now = options.now ?? (() => performance.now());
  const url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_JSON_TIMEOUT_MS);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sent = now();
  // Not AbortSignal.any: a run-wide signal would keep a reference per request (join-signals.ts).
  const joined = signal ? joinSignals([signal, timeout]) : undefined;
  try {
    const response = await request(url, {
      method,
      headers,
      body: payload,
      signal: joined?.signal ?? timeout,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    const text = await readBody(
      response.body,
      options.maxBodyBytes ?? DEFAULT_MAX_JSON_BODY_BYTES,
      `${method} ${path}`,
    );
    return { status: response.statusCode, headers: response.headers, text, latencyMs: now() - sent };
  } finally {
    joined?.release();
  }
}

/** The body's text, read no further than `maxBytes` (ResponseTooLargeError past it; the body is destroyed). */
async function readBody(body: Dispatcher.ResponseData['body'], maxBytes: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      throw new ResponseTooLargeError(what, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/**
 * @module client/json-request
 * One small JSON request/response over undici, for the operations that are not measured streams
 * (project instructions, open-urls). Resolves with the status, headers, body text and latency;
 * rejects only with the connection's own error (the callers classify it). The token is sent in the
 * Authorization header only.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request, type Dispatcher } from 'undici';

export interface JsonEndpointOptions {
  /** Including any path prefix (`http://host/api`). */
  baseUrl: string;
  token?: string;
  dispatcher?: Dispatcher;
  /** Default 30 s. */
  timeoutMs?: number;
  now?: () => number;
}

export interface JsonResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Monotonic ms from sent to the end of the body. */
  latencyMs: number;
}

/** Sends `body` (JSON) to `path` under the base URL; a signal or the timeout aborts with the signal's reason. */
export async function jsonRequest(
  options: JsonEndpointOptions, method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal,
): Promise<JsonResponse> {
  const now = options.now ?? (() => performance.now());
  const url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sent = now();
  const response = await request(url, {
    method, headers, body: payload, signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text, latencyMs: now() - sent };
}

/**
 * @module client/open-urls-client
 * The open-urls operation (docs/reference/service-api.md "Open URLs"): one request, its outcome and latency. Like the chat
 * client it never throws for what the server or network does. A URL that could not be fetched is
 * simply missing from `results` (docs/reference/wire-format.md), so compare `results` with the URLs sent.
 */
import { z } from 'zod';
import { OPEN_URLS_PATH, OpenUrlsResponseSchema, type OpenUrlsResponse } from '../api/open-urls.js';
import type { Outcome } from '../records/record.js';
import { truncateText } from './exchange.js';
import { roundMs } from '../records/round-ms.js';
import { networkFailure, statusFigures } from './http-errors.js';
import {
  DEFAULT_JSON_TIMEOUT_MS,
  jsonRequest,
  ResponseTooLargeError,
  type JsonEndpointOptions,
} from './json-request.js';
import { redactDeep, secretsOf } from './redact.js';

export interface OpenUrlsClientOptions extends JsonEndpointOptions {
  /** Every other secret of the run (redact.ts runSecrets), taken out of what the server says. */
  secrets?: readonly string[] | undefined;
}

/** One open-urls exchange. `results`/`provider_type` only on a valid 200. */
export interface OpenUrlsExchange {
  outcome: Outcome;
  http_status: number | null;
  error_code: string | null;
  error_message: string | null;
  results: OpenUrlsResponse['results'];
  provider_type: string | null;
  /** ms from sent to the end of the body (or the failure). */
  latency_ms: number;
}

/**
 * Asks the service to fetch `urls`; `signal` aborting makes the outcome `cancelled`, the timeout
 * `timeout`. The token is taken out of everything the server said (redact.ts).
 */
export async function openUrls(
  options: OpenUrlsClientOptions,
  urls: readonly string[],
  signal?: AbortSignal,
): Promise<OpenUrlsExchange> {
  return redactDeep(await exchangeOf(options, urls, signal), secretsOf({}, options.token, options.secrets));
}

async function exchangeOf(
  options: OpenUrlsClientOptions,
  urls: readonly string[],
  signal?: AbortSignal,
): Promise<OpenUrlsExchange> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const empty = { results: [], provider_type: null };
  let response;
  try {
    response = await jsonRequest(options, 'POST', OPEN_URLS_PATH, { urls }, signal);
  } catch (error) {
    const latency_ms = roundMs(now() - started);
    const name = error instanceof Error ? error.name : '';
    if (signal?.aborted)
      return {
        ...empty,
        outcome: 'cancelled',
        http_status: null,
        error_code: null,
        error_message: 'cancelled by the caller',
        latency_ms,
      };
    if (name === 'TimeoutError')
      return {
        ...empty,
        outcome: 'timeout',
        http_status: null,
        error_code: 'MAX_DURATION',
        error_message: `no whole response within ${(options.timeoutMs ?? DEFAULT_JSON_TIMEOUT_MS) / 1000} s (--timeout)`,
        latency_ms,
      };
    if (error instanceof ResponseTooLargeError)
      return {
        ...empty,
        outcome: 'invalid_response',
        http_status: null,
        error_code: error.code,
        error_message: `${error.message} (--max-body-bytes)`,
        latency_ms,
      };
    const failure = networkFailure(error);
    return { ...empty, ...failure, error_message: failure.error_message, http_status: null, latency_ms };
  }
  const latency_ms = roundMs(response.latencyMs);
  if (response.status >= 300) {
    const f = statusFigures(response.status, response.headers, response.text, Date.now());
    return {
      ...empty,
      outcome: f.outcome,
      http_status: response.status,
      error_code: f.error_code,
      error_message: f.error_message,
      latency_ms,
    };
  }
  let parsed;
  try {
    parsed = OpenUrlsResponseSchema.safeParse(JSON.parse(response.text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    const reason = parsed ? z.prettifyError(parsed.error).replaceAll('\n', ' ') : 'the body is not JSON';
    return {
      ...empty,
      outcome: 'invalid_response',
      http_status: response.status,
      error_code: null,
      error_message: truncateText(reason),
      latency_ms,
    };
  }
  return {
    outcome: 'ok',
    http_status: response.status,
    error_code: null,
    error_message: null,
    results: parsed.data.results,
    provider_type: parsed.data.provider_type,
    latency_ms,
  };
}

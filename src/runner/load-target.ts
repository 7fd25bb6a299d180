/**
 * @module runner/load-target
 * What a load run sends through: one chat client per token over a single shared undici Agent (so
 * several tokens do not multiply the sockets), or the open-urls operation. Either way an arrival's
 * request becomes an Exchange, so both load models and the record builder handle one shape.
 */
import type { Agent } from 'undici';
import { createPreconnectingAgent } from '../client/preconnect.js';
import { createChatClient, DEFAULT_TIMEOUT_MS, type ChatClient } from '../client/chat-client.js';
import type { Exchange } from '../client/exchange.js';
import { roundMs } from '../records/round-ms.js';
import { emptyFigures } from '../client/full-response.js';
import { openUrls } from '../client/open-urls-client.js';
import { runSecrets } from '../client/redact.js';
import type { LoadRequest } from '../plan/load-plan.js';

export interface LoadTarget {
  readonly baseUrl: string;
  /** One attempt with token `tokenIndex`; resolves whatever happens (the clients never throw). */
  send(request: LoadRequest, tokenIndex: number, signal: AbortSignal): Promise<Exchange>;
  /** Opens up to `count` connections before the first arrival (client/preconnect); how many opened. */
  preconnect(count: number): Promise<number>;
  close(): Promise<void>;
}

export interface LoadTargetOptions {
  readonly baseUrl: string;
  /** At least one; an empty string sends no Authorization header. */
  readonly tokens: readonly string[];
  /** Longest silence between two parts (undefined: the client's default); an open-urls call's whole limit. */
  readonly timeoutMs?: number | undefined;
  readonly maxDurationMs?: number | undefined;
  readonly maxAnswerBytes?: number | undefined;
  /** Bytes one response body may carry (undefined: the client's default). */
  readonly maxBodyBytes?: number | undefined;
  /** Bytes of one stream line (undefined: the client's default). */
  readonly maxLineBytes?: number | undefined;
  readonly maxErrorBodyBytes?: number | undefined;
  /** Sockets of the shared Agent: size it to the in-flight bound. */
  readonly connections: number;
  readonly now?: () => number;
}

/** Chat and open-urls alike: the request's `urls` decide which operation an arrival uses. */
export function createLoadTarget(options: LoadTargetOptions): LoadTarget {
  const now = options.now ?? (() => performance.now());
  const pool = createPreconnectingAgent({ connections: options.connections, keepAliveTimeout: 30_000, pipelining: 1 });
  const dispatcher = pool.agent;
  // A service may echo any user's token in any user's answer: every token is taken out of every answer.
  const secrets = runSecrets({ tokens: options.tokens });
  const clients: ChatClient[] = options.tokens.map((token) =>
    createChatClient({
      baseUrl: options.baseUrl,
      token,
      dispatcher,
      timeoutMs: options.timeoutMs,
      maxDurationMs: options.maxDurationMs,
      now,
      secrets,
      // A load record drops the documents' text (app/load/load-record finishedRecord): not bounded, not redacted.
      keepDocuments: false,
      maxBodyBytes: options.maxBodyBytes,
      maxLineBytes: options.maxLineBytes,
      maxErrorBodyBytes: options.maxErrorBodyBytes,
      ...(options.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: options.maxAnswerBytes }),
    }),
  );
  return {
    baseUrl: options.baseUrl,
    send(request, tokenIndex, signal) {
      if (request.urls === null)
        return clients[tokenIndex]!.send(request.planned.body, signal, request.payload ?? undefined);
      return openUrlsExchange(options, dispatcher, options.tokens[tokenIndex]!, request.urls, signal, now, secrets);
    },
    preconnect: (count) => pool.preconnect(options.baseUrl, count),
    close: () => {
      pool.release();
      return dispatcher.close();
    },
  };
}

/** An open-urls call as an Exchange: its latency is total_ms; a URL that could not be fetched is not a failure of the request. */
async function openUrlsExchange(
  options: LoadTargetOptions,
  dispatcher: Agent,
  token: string,
  urls: readonly string[],
  signal: AbortSignal,
  now: () => number,
  secrets: readonly string[],
): Promise<Exchange> {
  const startedAt = new Date().toISOString();
  const sent = now();
  const result = await openUrls(
    {
      baseUrl: options.baseUrl,
      token,
      dispatcher,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      now,
      secrets,
      maxBodyBytes: options.maxBodyBytes,
    },
    urls,
    signal,
  );
  const fetched = result.results.length;
  const chars = result.results.reduce((sum, r) => sum + r.content.length, 0);
  return {
    ...emptyFigures(roundMs(result.latency_ms)),
    outcome: result.outcome,
    error_code: result.error_code,
    error_message: result.error_message,
    answer: result.outcome === 'ok' ? `${fetched} of ${urls.length} fetched, ${chars} characters` : null,
    answer_chars: chars,
    http_status: result.http_status,
    content_type: null,
    headers_ms: null,
    rate_limit: null,
    sent,
    started_at: startedAt,
    error_body: null,
    framing: null,
  };
}

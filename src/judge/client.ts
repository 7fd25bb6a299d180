/**
 * @module judge/client
 * Asks a judge model through any OpenAI-compatible endpoint: `POST {url}/v1/chat/completions`
 * with temperature 0 and, where the endpoint supports it, a JSON Schema `response_format`
 * (structured output); the reply is read by parse-verdict either way. An endpoint that refuses
 * `response_format` with a 400 or 422 is asked again without it, and never again with it this run.
 *
 * Retries (`retries`, each with its own wait): 429 (after its Retry-After or retry-after-ms,
 * capped), 5xx, network errors, timeouts, and replies that hold no verdict. Other statuses (401,
 * 404, …) are final. The client never throws for what the endpoint or the network does: an ask
 * ends in a verdict or in an error text, which the pipeline records as judge_error. The token goes
 * only into the Authorization header and is taken out of every error text.
 *
 * Bounds (issue 23): a reply is read to `maxReplyBytes` at most (default 4 MiB; past it the ask is
 * judge_error, not retried) within `timeoutMs` in all; a verdict's reason is kept to
 * MAX_REASON_CHARS. Every secret of the run (`secrets`: the service's tokens, mcp_headers values)
 * is taken out of what is sent to the judge and of what it says back.
 */
import { setTimeout as sleepTimer } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { CHAT_COMPLETIONS_PATH, ChatCompletionResponseSchema, VERDICT_JSON_SCHEMAS } from '../api/judge.js';
import { headerValue, networkFailure, parseRetryAfter } from '../client/http-errors.js';
import { jsonRequest, ResponseTooLargeError } from '../client/json-request.js';
import { redactText, secretsOf } from '../client/redact.js';
import { cutText } from '../records/bounds.js';
import { parseVerdict, type VerdictKind } from './parse-verdict.js';

export interface JudgeClientOptions {
  /** The judge's base URL; `/v1/chat/completions` is appended (a trailing `/v1` is not doubled). */
  url: string;
  model: string;
  token?: string | undefined;
  /** Per call, reply included (default 60 s). */
  timeoutMs?: number;
  /** Bytes of a reply read at most (default DEFAULT_MAX_REPLY_BYTES). */
  maxReplyBytes?: number | undefined;
  /** Every other secret of the run (redact.ts runSecrets): never sent to the judge, taken out of its replies. */
  secrets?: readonly string[] | undefined;
  /** Tries after the first (default 4). */
  retries?: number;
  /** The longest Retry-After honoured, seconds (default 60). */
  retryAfterCapS?: number;
  /** `auto` (default): ask with response_format, drop it if refused; `off`: never send it. */
  structuredOutput?: 'auto' | 'off';
  dispatcher?: Dispatcher;
  /** Waits between tries; tests pass one that records the delays. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Jitter of the backoff, uniform in [0, 1) (default Math.random). */
  random?: () => number;
}

export interface JudgeAsk {
  system: string;
  user: string;
  kind: VerdictKind;
}

export type AskResult =
  { ok: true; score: number; reason: string | null; attempts: number } | { ok: false; error: string; attempts: number };

export interface JudgeClient {
  readonly model: string;
  ask(request: JudgeAsk, signal?: AbortSignal): Promise<AskResult>;
  /** Whether asks still carry response_format. */
  structured(): boolean;
}

const defaultSleep = (ms: number, signal: AbortSignal | undefined) =>
  sleepTimer(ms, undefined, signal ? { signal } : {}).catch(() => undefined);

/** A base URL given as `…/v1` serves the same operation: drop it so the path is not doubled. */
export function judgeBaseUrl(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Backoff before retry `attempt` (from 1): half of min(10 s, 500 ms · 2^(attempt−1)) plus a random part of the other half. */
export function backoffMs(attempt: number, random: () => number): number {
  const bound = Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
  return bound / 2 + random() * (bound / 2);
}

/** Bytes of a judge's reply by default: a verdict is a few hundred bytes, a chatty one a few KB. */
export const DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024;
/** Characters of a verdict's reason kept (a judge's reason is a sentence or two). */
export const MAX_REASON_CHARS = 2_000;

const REFUSES_FORMAT = /response_format|json_schema|structured|format/i;

export function createJudgeClient(options: JudgeClientOptions): JudgeClient {
  const baseUrl = judgeBaseUrl(options.url);
  const retries = options.retries ?? 4;
  const capMs = (options.retryAfterCapS ?? 60) * 1000;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  let structured = options.structuredOutput !== 'off';
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const endpoint = {
    baseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs ?? 60_000,
    maxBodyBytes: maxReplyBytes,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  };
  const secrets = secretsOf({}, options.token, options.secrets);
  const clean = (text: string) => redactText(text, secrets);

  const bodyOf = (request: JudgeAsk) => ({
    model: options.model,
    temperature: 0,
    messages: [
      { role: 'system', content: clean(request.system) },
      { role: 'user', content: clean(request.user) },
    ],
    ...(structured
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: `chatbench_${request.kind}_verdict`,
              schema: VERDICT_JSON_SCHEMAS[request.kind],
              strict: true,
            },
          },
        }
      : {}),
  });

  async function ask(request: JudgeAsk, signal?: AbortSignal): Promise<AskResult> {
    let lastError = 'no attempt made';
    let attempts = 0;
    let droppedFormat = false;
    for (let attempt = 0; attempt <= retries; attempt += 1) {
      if (signal?.aborted) return { ok: false, error: 'cancelled', attempts };
      attempts += 1;
      let wait: number | null = null;
      try {
        const response = await jsonRequest(endpoint, 'POST', CHAT_COMPLETIONS_PATH, bodyOf(request), signal);
        if (response.status === 200) {
          const reply = readReply(response.text);
          if ('content' in reply) {
            const verdict = parseVerdict(reply.content, request.kind);
            if ('score' in verdict)
              return {
                ok: true,
                score: verdict.score,
                reason: verdict.reason === null ? null : cutText(clean(verdict.reason), MAX_REASON_CHARS),
                attempts,
              };
            lastError = clean(verdict.error);
          } else lastError = reply.error;
        } else if (
          (response.status === 400 || response.status === 422) &&
          structured &&
          !droppedFormat &&
          REFUSES_FORMAT.test(response.text)
        ) {
          // The endpoint has no structured output: ask again in plain text, without spending a try.
          structured = false;
          droppedFormat = true;
          attempt -= 1;
          continue;
        } else {
          lastError = clean(`HTTP ${response.status}${statusDetail(response.text)}`);
          if (response.status === 429) {
            const headerMs = Number(headerValue(response.headers, 'retry-after-ms'));
            const afterS = parseRetryAfter(headerValue(response.headers, 'retry-after'), Date.now());
            wait = Math.min(
              capMs,
              Number.isFinite(headerMs) && headerMs > 0
                ? headerMs
                : afterS !== null
                  ? afterS * 1000
                  : backoffMs(attempt + 1, random),
            );
          } else if (response.status < 500) return { ok: false, error: lastError, attempts };
        }
      } catch (error) {
        if (signal?.aborted) return { ok: false, error: 'cancelled', attempts };
        if (error instanceof ResponseTooLargeError)
          return {
            ok: false,
            error: `the judge's reply exceeds ${maxReplyBytes} bytes (--judge-max-reply-bytes)`,
            attempts,
          };
        const name = error instanceof Error ? error.name : '';
        lastError =
          name === 'TimeoutError'
            ? `no reply within ${endpoint.timeoutMs / 1000} s`
            : clean(networkFailure(error).error_message ?? 'network error');
      }
      if (attempt < retries) await sleep(wait ?? backoffMs(attempt + 1, random), signal);
    }
    return { ok: false, error: `${lastError} (${attempts} ${attempts === 1 ? 'try' : 'tries'})`, attempts };
  }

  return { model: options.model, ask, structured: () => structured };
}

/** The first choice's text, or why there is none. */
function readReply(text: string): { content: string } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: 'the judge endpoint did not reply with JSON' };
  }
  const parsed = ChatCompletionResponseSchema.safeParse(json);
  if (!parsed.success) return { error: 'the judge endpoint replied without choices[0].message' };
  const content = parsed.data.choices[0]?.message.content;
  return typeof content === 'string' ? { content } : { error: 'the judge replied with no content' };
}

/** `: message` from an error body (OpenAI's error.message, FastAPI's detail), or the start of the text. */
function statusDetail(text: string): string {
  let message: string | undefined;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    const candidate =
      typeof json.error === 'object' ? json.error?.message : (json.error ?? json.detail ?? json.message);
    if (typeof candidate === 'string') message = candidate;
  } catch {
    message = text.trim() === '' ? undefined : text.trim();
  }
  if (message === undefined) return '';
  return `: ${message.length > 200 ? `${message.slice(0, 197)}...` : message}`;
}

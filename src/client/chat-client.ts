/**
 * @module client/chat-client
 * Sends one send-chat-message request and measures it (docs/reference/metrics.md milestones). Uses undici's
 * low-level `dispatch` with a handler, so every chunk is time-stamped in the callback that delivers
 * it; between `sent` and `done` the only work is decoding and folding parts (collect.ts). Bodies of
 * full answers and of errors are buffered (bounded) and read after the end.
 *
 * Time limits (issue 10: real answers with tools or deep research take minutes; issue 23: a
 * service that drips bytes must not hold a request for ever): `timeoutMs` is the longest silence
 * allowed between two parts. The status and headers count as one, and every decoded stream part,
 * heartbeats included, resets it; bytes that make no part (a byte a second, junk, SSE comments) and
 * lines that fail to decode never do. A body that is not a stream (a full answer, an error body) gets
 * no reset after its headers: it must end within `timeoutMs` of them. Default 180 s, 300 s for a
 * request with `deep_research`. `maxDurationMs` caps a whole attempt (default 15 min, 60 min for
 * deep research). Either firing ends the attempt as `timeout`, its error_code saying which
 * (`SILENCE_TIMEOUT` or `MAX_DURATION`).
 *
 * Byte limits: a body holds at most `maxBodyBytes` (default 64 MiB; a stream's bytes are counted,
 * not kept); past it the attempt ends at once as `invalid_response` with error_code
 * `BODY_TOO_LARGE`. An error body (status ≥ 300) is read for its first 64 KiB only: the status has
 * decided, the attempt ends there.
 *
 * Never throws for anything the server or the network does: every ending is an Exchange with an
 * outcome. The token goes into the Authorization header and nowhere else (redacted from every text
 * that could carry it back).
 */
import { redactExchange, secretsOf, withoutCredentials } from './redact.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { createPreconnectingAgent } from './preconnect.js';
import { SEND_MESSAGE_PATH, type SendMessageRequest } from '../api/send-message.js';
import { createStreamDecoder, type StreamDecoder } from './wire/index.js';
import { createCollector, DEFAULT_MAX_ANSWER_BYTES, type Collector } from './collect.js';
import { createBodyText, type BodyText } from './body-text.js';
import type { BodyFigures, Exchange, Failure } from './exchange.js';
import { exchangeOf, truncateText } from './exchange.js';
import { roundMs } from '../records/round-ms.js';
import { fullResponseFigures } from './full-response.js';
import { headerValue, networkFailure, statusFigures } from './http-errors.js';
import { isoTime } from './iso-time.js';

export interface ChatClientOptions {
  /** Including any path prefix of the deployment (`http://host/api`); the client adds none. */
  baseUrl: string;
  token?: string;
  /** Default: an undici Agent with keep-alive and `connections` sockets per origin. */
  dispatcher?: Dispatcher;
  /** Sockets per origin of the default Agent; size it to the concurrency. Default 16. */
  connections?: number;
  /**
   * Longest silence allowed between two parts, ms. Default (undefined): DEFAULT_TIMEOUT_MS, or
   * DEEP_RESEARCH_TIMEOUT_MS for a request with `deep_research`.
   */
  timeoutMs?: number | undefined;
  /** Longest a whole attempt may take, ms. Default (undefined): DEFAULT_MAX_DURATION_MS, or DEEP_RESEARCH_MAX_DURATION_MS for `deep_research`. */
  maxDurationMs?: number | undefined;
  /** Bytes of one stream line or SSE event (default 16 MiB, client/wire); a longer one is a decode error. */
  maxLineBytes?: number | undefined;
  /** Bytes one response body may carry (a stream in all, a full answer); default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number | undefined;
  /** Bytes of an error body (status ≥ 300) read for its code and message; default DEFAULT_MAX_ERROR_BODY_BYTES. */
  maxErrorBodyBytes?: number | undefined;
  /**
   * Every other secret of the run (every token of a token file, the judge's key, mcp_headers values,
   * redact.ts runSecrets), taken out of what the server says beside this client's token.
   */
  secrets?: readonly string[] | undefined;
  /** Answer text kept per answer, UTF-8 bytes (default 1 MiB); answer_truncated says when it was cut. */
  maxAnswerBytes?: number;
  /** Whether records keep the answer's documents (client/collect CollectorOptions.keepDocuments); default true. */
  keepDocuments?: boolean;
  /** Monotonic ms clock; default performance.now. */
  now?: () => number;
  /** Timers of the time limits; default the global ones (tests pass fake ones). */
  timers?: Timers;
  /** Wall clock for started_at and HTTP dates; default Date.now. */
  wallClock?: () => number;
}

export interface ChatClient {
  readonly baseUrl: string;
  /**
   * One attempt. Resolves with the Exchange whatever happens; `signal` aborting makes it `cancelled`.
   * `payload`, when given, is `body` already serialised (a load plan serialises each body once).
   */
  send(body: SendMessageRequest, signal?: AbortSignal, payload?: string): Promise<Exchange>;
  /**
   * Opens up to `count` connections before the first request (client/preconnect), so the first
   * wave is not timed with its connecting; resolves with how many opened (0 with a dispatcher
   * passed in, which is the caller's to warm). Never rejects.
   */
  preconnect(count: number): Promise<number>;
  /** Closes the default Agent (a dispatcher passed in stays the caller's to close). */
  close(): Promise<void>;
}

/** The timer functions the time limits use. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
const GLOBAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Longest silence between two parts by default: the service's own load kit allows 180 s. */
export const DEFAULT_TIMEOUT_MS = 180_000;
/** Longest silence for a `deep_research` request by default (the load kit's 300 s). */
export const DEEP_RESEARCH_TIMEOUT_MS = 300_000;

/** The silence limit of one request: the one given, else the default for its kind. */
export function silenceLimitMs(timeoutMs: number | undefined, body: Pick<SendMessageRequest, 'deep_research'>): number {
  return timeoutMs ?? (body.deep_research === true ? DEEP_RESEARCH_TIMEOUT_MS : DEFAULT_TIMEOUT_MS);
}

/** Longest whole request by default: five times the longest silence; no real answer comes near. */
export const DEFAULT_MAX_DURATION_MS = 15 * 60_000;
/** Longest whole `deep_research` request by default. */
export const DEEP_RESEARCH_MAX_DURATION_MS = 60 * 60_000;

/** The duration limit of one request: the one given, else the default for its kind. */
export function durationLimitMs(
  maxDurationMs: number | undefined,
  body: Pick<SendMessageRequest, 'deep_research'>,
): number {
  return maxDurationMs ?? (body.deep_research === true ? DEEP_RESEARCH_MAX_DURATION_MS : DEFAULT_MAX_DURATION_MS);
}

/** Bodies of errors are read for their code and message only: by default the first 64 KiB. */
export const DEFAULT_MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Bytes of one response body by default (a stream's are counted, a full answer's kept): 64 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Creates a client bound to one base URL and token. */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const url = new URL(options.baseUrl);
  const origin = url.origin;
  const path = `${url.pathname.replace(/\/+$/, '')}${SEND_MESSAGE_PATH}`;
  const own =
    options.dispatcher === undefined
      ? createPreconnectingAgent({ connections: options.connections ?? 16, keepAliveTimeout: 30_000 })
      : undefined;
  const dispatcher: Dispatcher = options.dispatcher ?? own!.agent;
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? Date.now;
  const token = options.token ?? '';
  const extraSecrets = options.secrets ?? [];
  // The same for every request without mcp_headers of its own: computed once.
  const plainSecrets = secretsOf({}, token, extraSecrets);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxErrorBodyBytes = options.maxErrorBodyBytes ?? DEFAULT_MAX_ERROR_BODY_BYTES;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream, application/json',
  };
  if (token !== '') headers['authorization'] = `Bearer ${token}`;

  return {
    // Messages name the target; a user:password in the URL must not go with it.
    baseUrl: withoutCredentials(options.baseUrl),
    send(body, signal, serialised) {
      const payload = serialised ?? JSON.stringify(body);
      return new Promise<Exchange>((resolve) => {
        const attempt = new Attempt({
          stream: body.stream ?? true,
          modelNames: multiModelNames(body),
          timeoutMs: silenceLimitMs(options.timeoutMs, body),
          maxDurationMs: durationLimitMs(options.maxDurationMs, body),
          maxLineBytes: options.maxLineBytes,
          maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
          keepDocuments: options.keepDocuments ?? true,
          maxBodyBytes,
          maxErrorBodyBytes,
          now,
          wallClock,
          signal,
          timers: options.timers ?? GLOBAL_TIMERS,
          secrets: body.mcp_headers ? secretsOf(body, token, extraSecrets) : plainSecrets,
          done: resolve,
        });
        attempt.start(dispatcher, {
          origin,
          path,
          method: 'POST',
          headers,
          body: payload,
          headersTimeout: 0,
          bodyTimeout: 0,
        });
      });
    },
    preconnect: (count) => (own === undefined ? Promise.resolve(0) : own.preconnect(origin, count)),
    async close() {
      if (own === undefined) return;
      own.release();
      await own.agent.close();
    },
  };
}

/** Model names of a multi-model request (2+ llm_overrides, streamed): display_name ?? model_version ?? "model i". */
export function multiModelNames(body: SendMessageRequest): string[] | null {
  const overrides = body.llm_overrides;
  if ((body.stream ?? true) === false || overrides == null || overrides.length < 2) return null;
  return overrides.map((o, i) => o.display_name ?? o.model_version ?? `model ${i}`);
}

interface AttemptOptions {
  stream: boolean;
  modelNames: string[] | null;
  timeoutMs: number;
  maxDurationMs: number;
  maxLineBytes: number | undefined;
  maxAnswerBytes: number;
  keepDocuments: boolean;
  maxBodyBytes: number;
  maxErrorBodyBytes: number;
  timers: Timers;
  now: () => number;
  wallClock: () => number;
  signal: AbortSignal | undefined;
  /** What the server's texts must not carry back (redact.ts): taken out of the exchange before `done`. */
  secrets: readonly string[];
  /** Called once with the attempt's exchange, redacted. */
  done: (exchange: Exchange) => void;
}

/** One request's life: a DispatchHandler plus its timer, the caller's signal and the fold of its body. */
class Attempt implements Dispatcher.DispatchHandler {
  private sent = 0;
  private startedAt = '';
  private controller: Dispatcher.DispatchController | undefined;
  private pendingAbort: Error | undefined;
  private settled = false;
  private status: number | undefined;
  private responseHeaders: IncomingHttpHeaders = {};
  private headersAt: number | undefined;
  private decoder: StreamDecoder | undefined;
  private collector: Collector | undefined;
  /**
   * A full or error body as text, decoded as its chunks come (client/body-text). A copy of each
   * chunk as a Buffer (undici may reuse a chunk's memory) was an ArrayBuffer per chunk, ~11 KB a
   * full answer, freed only by a full collection once it outlived a scavenge: with 32 in flight
   * they stood at ~100 MB before one came. Created with the first chunk: a stream needs none.
   */
  private buffered: BodyText | undefined;
  private bufferedBytes = 0;
  /** Every byte of the body so far (a stream's too): what maxBodyBytes bounds. */
  private bodyBytes = 0;
  private statusInfo: ReturnType<typeof statusFigures> | undefined;
  private silenceTimer: unknown;
  private lastHeard = 0;
  private unwatchAbort: (() => void) | undefined;

  constructor(private readonly o: AttemptOptions) {}

  start(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions): void {
    if (this.o.signal?.aborted) {
      this.sent = this.o.now();
      this.startedAt = isoTime(this.o.wallClock());
      this.cancelByCaller();
      return;
    }
    // Made only when the caller passed a signal (a class field made it for every attempt).
    if (this.o.signal) this.unwatchAbort = watchAbort(this.o.signal, () => this.cancelByCaller());
    this.armSilence();
    this.startedAt = isoTime(this.o.wallClock());
    this.sent = this.o.now();
    try {
      dispatcher.dispatch(request, this);
    } catch (error) {
      this.fail(networkFailure(error));
    }
  }

  /** The caller's signal aborted: the attempt ends as cancelled. */
  private cancelByCaller(): void {
    this.fail({ outcome: 'cancelled', error_code: null, error_message: 'cancelled by the caller' });
  }

  /**
   * (Re)starts the silence limit: called at send, on the headers and on every part (`at`: the moment
   * the chunk carrying it arrived, already taken). One timer per
   * attempt, not one per part (nor one per limit): a part only moves `lastHeard`; when the timer
   * fires early (something was heard since it was set) it sets itself again for the rest of the
   * limit, so the limit still ends exactly `timeoutMs` after the last thing heard.
   */
  private armSilence(at = this.o.now()): void {
    this.lastHeard = at;
    if (this.silenceTimer === undefined) this.startSilenceTimer(Math.min(this.o.timeoutMs, this.o.maxDurationMs));
  }

  /**
   * The one timer of both limits: it fires at whichever comes first, the end of the silence or of
   * the whole request's duration (`sent` + maxDurationMs), and sets itself again for what is left.
   */
  private startSilenceTimer(ms: number): void {
    const limit = this.o.timeoutMs;
    this.silenceTimer = this.o.timers.setTimeout(() => {
      this.silenceTimer = undefined;
      if (this.settled) return;
      const now = this.o.now();
      const maxMs = this.o.maxDurationMs;
      const durationLeft = this.sent + maxMs - now;
      if (durationLeft <= 0) {
        return this.fail({
          outcome: 'timeout',
          error_code: 'MAX_DURATION',
          error_message: `the request took longer than --max-duration ${seconds(maxMs)} (the longest one request may take in all)`,
        });
      }
      const left = this.lastHeard + limit - now;
      if (left > 0) return this.startSilenceTimer(Math.min(left, durationLeft));
      const message =
        this.headersAt !== undefined && this.decoder === undefined
          ? `the response body did not end within ${seconds(limit)} of its headers (--timeout)`
          : `no part received for ${seconds(limit)} (--timeout, the longest silence between two parts)`;
      this.fail({ outcome: 'timeout', error_code: 'SILENCE_TIMEOUT', error_message: message });
    }, ms);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.pendingAbort) controller.abort(this.pendingAbort);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (this.settled) return;
    this.headersAt = this.o.now();
    this.status = statusCode;
    this.responseHeaders = headers;
    this.armSilence();
    if (statusCode < 300 && this.o.stream) {
      this.decoder = createStreamDecoder(
        this.o.maxLineBytes === undefined ? {} : { maxLineBytes: this.o.maxLineBytes },
      );
      this.collector = this.newCollector();
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    const t = this.o.now();
    this.bodyBytes += chunk.length;
    const errorBody = (this.status ?? 0) >= 300;
    if (!errorBody && this.bodyBytes > this.o.maxBodyBytes) return this.tooLarge();
    if (this.decoder && this.collector) {
      const parts = this.decoder.push(chunk);
      // Progress is a part: bytes that make none, and lines that fail to decode, are silence.
      let heard = false;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!;
        if (part.kind !== 'decode_error') heard = true;
        this.collector.onPart(part, t);
      }
      if (heard && !this.settled) this.armSilence(t);
      return;
    }
    // A full or error body: no reset per chunk (a byte a second must not hold it open).
    const room = (errorBody ? this.o.maxErrorBodyBytes : this.o.maxBodyBytes) - this.bufferedBytes;
    if (room > 0) (this.buffered ??= createBodyText()).push(room < chunk.length ? chunk.subarray(0, room) : chunk);
    this.bufferedBytes += Math.min(room, chunk.length);
    // The start of an error body says what went wrong; the status decided already.
    if (errorBody && this.bufferedBytes >= this.o.maxErrorBodyBytes)
      this.fail({ outcome: 'http_error', error_code: null, error_message: null });
  }

  /** The body passed maxBodyBytes: the attempt ends now, naming the cap. */
  private tooLarge(): void {
    this.fail({
      outcome: 'invalid_response',
      error_code: 'BODY_TOO_LARGE',
      error_message: `the response body exceeds --max-body-bytes ${this.o.maxBodyBytes} bytes (the most one response may carry)`,
    });
  }

  onResponseEnd(): void {
    if (this.settled) return;
    const t = this.o.now();
    if (this.decoder && this.collector) {
      for (const part of this.decoder.end()) this.collector.onPart(part, t);
      this.settle(this.collector.finish(t));
      return;
    }
    this.settle(this.bodyFigures(t));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.settled) return;
    this.fail(networkFailure(error));
  }

  /** Ends the attempt early: a timeout, the caller's cancel, or an error of the connection. */
  private fail(failure: Failure): void {
    if (this.settled) return;
    const t = this.o.now();
    if (this.status !== undefined && this.status >= 300)
      this.settle(this.errorStatusFigures(t)); // the status decided already
    else if (this.collector) this.settle(this.collector.finish(t, failure));
    else this.settle(this.newCollector().finish(t, failure));
    // After settling: aborting calls onResponseError synchronously, which must not reclassify.
    const reason = new Error(failure.error_message ?? failure.outcome);
    if (this.controller) {
      if (!this.controller.aborted) this.controller.abort(reason);
    } else {
      this.pendingAbort = reason;
    }
  }

  /** Figures of a buffered body at its end: an error status, or a full answer. */
  private bodyFigures(t: number): BodyFigures {
    if ((this.status ?? 0) >= 300) return this.errorStatusFigures(t);
    const totalMs = roundMs(t - this.sent);
    return fullResponseFigures(this.bufferedText(), totalMs, this.o.maxAnswerBytes, this.o.keepDocuments);
  }

  /** The buffered body as text (a character cut by the end or by a cap: U+FFFD, as Buffer.toString gives). */
  private bufferedText(): string {
    return this.buffered?.text() ?? '';
  }

  private newCollector(): Collector {
    return createCollector({
      sent: this.sent,
      modelNames: this.o.modelNames,
      maxAnswerBytes: this.o.maxAnswerBytes,
      keepDocuments: this.o.keepDocuments,
    });
  }

  /** A status ≥ 300 decides the outcome; the body (as much as arrived) gives the code and message. */
  private errorStatusFigures(t: number): BodyFigures {
    const text = this.bufferedText();
    this.statusInfo = statusFigures(this.status ?? 0, this.responseHeaders, text, this.o.wallClock());
    const { outcome, error_code, error_message } = this.statusInfo;
    return this.newCollector().finish(t, {
      outcome: outcome === 'ok' ? 'http_error' : outcome,
      error_code,
      error_message,
    });
  }

  private settle(figures: BodyFigures): void {
    if (this.settled) return;
    this.settled = true;
    if (this.silenceTimer !== undefined) this.o.timers.clearTimeout(this.silenceTimer);
    this.unwatchAbort?.();
    const status = this.status ?? null;
    const errorFields = this.statusInfo;
    this.buffered = undefined;
    // One copy of the body's figures with the HTTP fields after them, with fast properties
    // (client/exchange.ts exchangeOf says why not a spread or Object.assign).
    const exchange = exchangeOf(figures, {
      http_status: status,
      content_type: headerValue(this.responseHeaders, 'content-type') ?? null,
      headers_ms: this.headersAt === undefined ? null : roundMs(this.headersAt - this.sent),
      rate_limit: errorFields?.rate_limit ?? null,
      error_body: errorFields?.error_body ?? null,
      framing: this.decoder?.framing ?? null,
      sent: this.sent,
      started_at: this.startedAt,
    });
    if (figures.error_message !== null) exchange.error_message = truncateText(figures.error_message);
    this.o.done(redactExchange(exchange, this.o.secrets));
  }
}

/** The callbacks waiting on each signal: one 'abort' listener per signal, however many requests share it. */
interface AbortWatch {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}
const abortWatchers = new WeakMap<AbortSignal, AbortWatch>();

/**
 * Calls `onAbort` when `signal` aborts (in the order the callbacks were added, as listeners would
 * be); returns the function that stops watching. A load run shares one signal among all its
 * requests: adding and removing a listener per request on it costs more than the request's decoding.
 * The listener goes when the last watcher does: a signal of one request (an `AbortSignal.any`) with
 * a listener left on it is kept alive by Node while its sources live, and with it what the listener
 * can reach (an eval of 200,000 requests grew to 6 GB that way).
 */
export function watchAbort(signal: AbortSignal, onAbort: () => void): () => void {
  const watch = abortWatchers.get(signal) ?? startWatching(signal);
  watch.callbacks.add(onAbort);
  return () => {
    watch.callbacks.delete(onAbort);
    if (watch.callbacks.size === 0 && abortWatchers.get(signal) === watch) {
      abortWatchers.delete(signal);
      signal.removeEventListener('abort', watch.listener);
    }
  };
}

/** The one listener of `signal`, in a scope of its own: it holds no watcher's callback. */
function startWatching(signal: AbortSignal): AbortWatch {
  const callbacks = new Set<() => void>();
  const listener = () => {
    abortWatchers.delete(signal);
    // As an EventTarget does: those added during the abort wait for nothing, those removed are skipped.
    for (const callback of [...callbacks]) if (callbacks.has(callback)) callback();
    callbacks.clear();
  };
  signal.addEventListener('abort', listener, { once: true });
  const watch = { callbacks, listener };
  abortWatchers.set(signal, watch);
  return watch;
}

/** `180 s`, `1.5 s`, `250 ms`. */
function seconds(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(3))} s` : `${ms} ms`;
}

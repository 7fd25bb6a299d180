/**
 * @module client/http-errors
 * Reads what a failed exchange says about itself: error bodies of a status ≥ 300 (docs/reference/wire-format.md
 * "Errors and their bodies", both 422 shapes), Retry-After, and the errors Node and undici raise for
 * a connection. Never throws: whatever a server sends becomes figures.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Exchange, Failure } from './exchange.js';
import { truncateText } from './exchange.js';

/** Seconds to wait from a Retry-After value: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowWallMs: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, (date - nowWallMs) / 1000);
}

/** A header's single value (the first when repeated). */
export const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

type StatusFigures = Pick<Exchange, 'outcome' | 'error_code' | 'error_message' | 'rate_limit' | 'error_body'>;

/**
 * Outcome and error fields of a response with status ≥ 300: 429 → rate_limited with Retry-After (the
 * header, else the body's retry_after_seconds), scope and reset_at; anything else → http_error.
 * `error_code` from a JSON body's `error_code`; `error_message` from `detail` (a string, or the 422
 * list's messages), else `message`, capped at 300 characters.
 */
export function statusFigures(
  status: number,
  headers: IncomingHttpHeaders,
  body: string,
  nowWallMs: number,
): StatusFigures {
  const json = parseObject(body);
  const errorCode = typeof json?.['error_code'] === 'string' ? json['error_code'] : null;
  const message = messageOf(json) ?? (body.trim() === '' ? `HTTP ${status}` : null);
  const figures: StatusFigures = {
    outcome: status === 429 ? 'rate_limited' : 'http_error',
    error_code: errorCode,
    error_message: truncateText(message ?? `HTTP ${status}: ${body.trim()}`),
    rate_limit: null,
    error_body: body.trim() === '' ? null : truncateText(body.trim()),
  };
  if (status === 429) {
    const fromBody = json?.['retry_after_seconds'];
    figures.rate_limit = {
      retry_after_s:
        parseRetryAfter(headerValue(headers, 'retry-after'), nowWallMs) ??
        (typeof fromBody === 'number' && fromBody >= 0 ? fromBody : null),
      scope: typeof json?.['scope'] === 'string' ? json['scope'] : null,
      reset_at: typeof json?.['reset_at'] === 'string' ? json['reset_at'] : null,
    };
  }
  return figures;
}

function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(json: Record<string, unknown> | undefined): string | null {
  if (json === undefined) return null;
  const { detail, message } = json;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const messages = detail.map((d: unknown) =>
      typeof d === 'object' && d !== null && 'msg' in d ? String(d.msg) : JSON.stringify(d),
    );
    return messages.join('; ');
  }
  if (typeof message === 'string') return message;
  return null;
}

/** Connection-level failures whose code says the target could not be reached at all. */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * An error raised while connecting, sending or receiving, as a failure: an HTTP parser error (the
 * peer does not speak HTTP) is invalid_response; everything else (refused, reset, DNS, TLS, socket
 * closed) is network, with the Node/undici code (ECONNRESET, UND_ERR_SOCKET, …).
 */
export function networkFailure(error: unknown): Failure {
  const code = errorCode(error);
  const message = truncateText(describe(error));
  if (code?.startsWith('HPE_')) return { outcome: 'invalid_response', error_code: code, error_message: message };
  return { outcome: 'network', error_code: code ?? 'UNKNOWN', error_message: message };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects fail with an AggregateError of one error per address.
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length > 0) return errorCode(inner[0]);
  return errorCode((error as { cause?: unknown }).cause);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message !== '') return error.message;
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner[0] instanceof Error ? inner[0].message : error.name;
}

/**
 * @module client/redact
 * A request's secrets taken out of what the server said back. A server may echo the token or
 * `mcp_headers` values (a pydantic 422 echoes its `input`, a proxy may echo headers); those texts
 * would reach results.jsonl, reports and messages.
 */
import type { SendMessageRequest } from '../api/send-message.js';
import type { Exchange } from './exchange.js';

export const REDACTED = '[redacted]';
/** Shorter values are not redacted: replacing every "1" or "on" would garble messages, not protect. */
const MIN_SECRET_CHARS = 4;

/**
 * The strings to hide for `body`: every mcp_headers value, and for a value like `Bearer abc` its
 * credential part alone too; plus the token. Longest first, so a value goes before its own part.
 */
export function secretsOf(body: Pick<SendMessageRequest, 'mcp_headers'>, token = ''): string[] {
  const values = Object.values(body.mcp_headers ?? {});
  const parts = values.flatMap((v) => /^\S+\s+(\S+)$/.exec(v.trim())?.[1] ?? []);
  return [...new Set([token, ...values, ...parts])].filter((s) => s.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced by `[redacted]`; null stays null. */
export function redactText(text: string | null, secrets: readonly string[]): string | null {
  if (text === null) return null;
  let out = text;
  for (const secret of secrets) out = out.replaceAll(secret, REDACTED);
  return out;
}

/** The exchange's server-given texts (error message and body, each model's message) without `secrets`. */
export function redactExchange(exchange: Exchange, secrets: readonly string[]): Exchange {
  if (secrets.length === 0) return exchange;
  return {
    ...exchange,
    error_message: redactText(exchange.error_message, secrets),
    error_body: redactText(exchange.error_body, secrets),
    models: exchange.models?.map((m) => ({ ...m, error_message: redactText(m.error_message, secrets) })) ?? null,
  };
}

/** `https://user:pass@host/api` → `https://host/api`, for messages. */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href.replace(/\/+$/, '');
}

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
export function redactText<T extends string | null>(text: T, secrets: readonly string[]): T {
  if (text === null) return text;
  let out: string = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out as T;
}

/**
 * `value` with every secret replaced in every string it holds, at any depth, object keys included
 * (a service names packet types, models, scopes, documents: any of them may echo a credential).
 * Parts that hold no secret are returned as they are, so a clean exchange costs one walk.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  // Every request's exchange is walked, and almost none holds a secret: look first without
  // building anything, and copy only a value that has one.
  if (Array.isArray(value)) {
    for (const item of value) if (walk(item, secrets) !== item) return value.map((each: unknown) => walk(each, secrets));
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const key of keys) {
    if (redactText(key, secrets) !== key || walk(record[key], secrets) !== record[key]) {
      return Object.fromEntries(keys.map((k) => [redactText(k, secrets), walk(record[k], secrets)]));
    }
  }
  return value;
}

/**
 * The exchange with `secrets` taken out of everything the server said: the answer, codes and
 * messages, the 429's scope and reset time, model names, document ids, packet types, the error body.
 * Applied to every exchange the client layer hands over (chat, open-urls), so no record, report,
 * message or summary table can carry what the service echoed.
 */
export function redactExchange(exchange: Exchange, secrets: readonly string[]): Exchange {
  return redactDeep(exchange, secrets);
}

/** `https://user:pass@host/api` → `https://host/api`, for messages. */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href.replace(/\/+$/, '');
}

/**
 * @module app/redact-exchange
 * The request's own secrets taken out of what the server said back. The client already removes the
 * token; a server may also echo `mcp_headers` values (a pydantic 422 echoes its `input`, a proxy
 * may echo headers), and those texts reach results.jsonl and the early stop's message.
 */
import type { SendMessageRequest } from '../api/send-message.js';
import type { ChatClient } from '../client/chat-client.js';
import type { Exchange } from '../client/exchange.js';
import { displayUrl } from './manifest.js';

export const REDACTED = '[redacted]';
/** Shorter values are not redacted: replacing every "1" or "on" would garble messages, not protect. */
const MIN_SECRET_CHARS = 4;

/**
 * The strings to hide for `body`: every mcp_headers value, and for a value like `Bearer abc` its
 * credential part alone too. Longest first, so that a value is replaced before its own part.
 */
export function secretsOf(body: Pick<SendMessageRequest, 'mcp_headers'>): string[] {
  const values = Object.values(body.mcp_headers ?? {});
  const parts = values.flatMap((v) => /^\S+\s+(\S+)$/.exec(v.trim())?.[1] ?? []);
  return [...new Set([...values, ...parts])].filter((s) => s.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
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

/**
 * `client` whose exchanges come back without the secrets of their own request's mcp_headers, and
 * whose baseUrl (which the early stop's message names) carries no user:password.
 */
export function withSecretsRedacted(client: Pick<ChatClient, 'send' | 'baseUrl'>): Pick<ChatClient, 'send' | 'baseUrl'> {
  return {
    baseUrl: displayUrl(client.baseUrl),
    send: async (body, signal) => redactExchange(await client.send(body, signal), secretsOf(body)),
  };
}

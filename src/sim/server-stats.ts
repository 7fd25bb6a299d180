/**
 * @module sim/server-stats
 * The server's own counters: responses by route and status, 429s by limit scope, and the chat
 * answers their client closed before the end. Plain
 * counters on the hot path; the snapshot is built only when asked.
 */
import type { RateLimitScope } from './rate-limit.js';
import { RATE_LIMIT_SCOPES } from './rate-limit.js';

/** Route names used as keys in `http`; `unmatched` is every path no route serves. */
export const ROUTE_NAMES = [
  'send-chat-message',
  'create-chat-session',
  'file-upload',
  'open-urls',
  'project-instructions',
  'version',
  'health',
  'health-ready',
  'chat-completions',
  'unmatched',
] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

export interface ServerStats {
  /** Responses by route, then by status code (as a string key); `no_response` = the connection closed before any status was sent. */
  readonly http: Record<RouteName, Record<string, number>>;
  /** 429 responses by the limit that refused: a user's budget, the global budget, the gateway. */
  readonly rate_limited: Record<RateLimitScope, number>;
  /** Tokens the engine produced, as charged to the usage budgets. */
  readonly chat_tokens: number;
  /** Chat answers whose client closed the connection before the answer's end (a user leaving, `load --abandon`). */
  readonly cancelled_streams: number;
}

export function createServerStats() {
  const http = Object.fromEntries(ROUTE_NAMES.map((name) => [name, new Map<string, number>()])) as Record<
    RouteName,
    Map<string, number>
  >;
  const limited = Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [scope, 0])) as Record<RateLimitScope, number>;
  let chatTokens = 0;
  let cancelledStreams = 0;
  return {
    /** Counts one finished exchange; `status` undefined when none was sent (reset, client gone). */
    response(route: RouteName, status: number | undefined): void {
      const key = status === undefined ? 'no_response' : String(status);
      http[route].set(key, (http[route].get(key) ?? 0) + 1);
    },
    rateLimited(scope: RateLimitScope): void {
      limited[scope] += 1;
    },
    chatTokens(tokens: number): void {
      chatTokens += tokens;
    },
    cancelledStream(): void {
      cancelledStreams += 1;
    },
    snapshot(): ServerStats {
      const byRoute = Object.fromEntries(
        ROUTE_NAMES.map((name) => [name, Object.fromEntries(http[name])]),
      ) as ServerStats['http'];
      return {
        http: byRoute,
        rate_limited: { ...limited },
        chat_tokens: chatTokens,
        cancelled_streams: cancelledStreams,
      };
    },
  };
}
export type ServerStatsRecorder = ReturnType<typeof createServerStats>;

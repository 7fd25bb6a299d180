/**
 * @module sim/route
 * What a route handler gets from the server, and the auth step every operation starts with.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal, Scope } from './auth.js';
import { grants } from './auth.js';
import type { BodyOptions } from './parse-body.js';
import { replyInsufficient, replyNotAuthenticated } from './replies.js';

export interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Path parameters, URL-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The principal of the Authorization header; undefined for a missing or unknown token. */
  readonly principal: Principal | undefined;
  readonly body: BodyOptions;
}

export type RouteHandler = (ctx: RouteContext) => Promise<void> | void;

/**
 * The principal allowed to run an operation needing `scope`, or undefined once a 403 was sent.
 * `fallback` (anonymous access) stands in for a missing or unknown token only, never for a known
 * token that lacks the scope.
 */
export function authorize(ctx: RouteContext, scope: Scope, fallback?: Principal): Principal | undefined {
  const principal = ctx.principal ?? fallback;
  if (principal === undefined) {
    replyNotAuthenticated(ctx.res);
    return undefined;
  }
  if (!grants(principal.scopes, scope)) {
    replyInsufficient(ctx.res, scope);
    return undefined;
  }
  return principal;
}

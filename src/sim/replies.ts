/**
 * @module sim/replies
 * The service's error responses, each with the status and body docs/reference/wire-format.md gives it.
 */
import type { ServerResponse } from 'node:http';
import { NOT_AUTHENTICATED_DETAIL, PROJECT_NOT_FOUND_DETAIL } from '../api/index.js';
import type { Scope } from './auth.js';
import { sendJson } from './http.js';
import type { Refusal } from './rate-limit.js';
import { retryAfterSeconds } from './rate-limit.js';
import type { PydanticError, ValidationShape } from './validation.js';
import { validationErrorBody } from './validation.js';

/** 403 for a missing, unknown or expired token (the service says 403, not 401). */
export const replyNotAuthenticated = (res: ServerResponse) => sendJson(res, 403, { detail: NOT_AUTHENTICATED_DETAIL });

/** 403 for a valid token that lacks the operation's scope. */
export const replyInsufficient = (res: ServerResponse, scope: Scope) =>
  sendJson(res, 403, {
    error_code: 'INSUFFICIENT_PERMISSIONS',
    detail: `This token does not have the '${scope}' permission this operation requires.`,
  });

export const replyNotFound = (res: ServerResponse) => sendJson(res, 404, { detail: 'Not Found' });
export const replyProjectNotFound = (res: ServerResponse) => sendJson(res, 404, { detail: PROJECT_NOT_FOUND_DETAIL });

export const replyMethodNotAllowed = (res: ServerResponse, allowed: readonly string[]) =>
  sendJson(res, 405, { detail: 'Method Not Allowed' }, { headers: { allow: allowed.join(', ') } });

/** 413; the rest of the body is not read, so the connection cannot be reused. */
export const replyTooLarge = (res: ServerResponse, maxBytes: number) =>
  sendJson(res, 413, { detail: `Request body too large: the limit is ${maxBytes} bytes.` }, { close: true });

export const replyValidation = (res: ServerResponse, errors: readonly PydanticError[], shape: ValidationShape) =>
  sendJson(res, 422, validationErrorBody(errors, shape));

export const replyInternal = (res: ServerResponse) => sendJson(res, 500, { detail: 'Internal Server Error' });

const LIMIT_DETAIL = {
  user: 'Your usage budget for this period is spent.',
  global: 'The usage budget of this deployment for this period is spent.',
  gateway: 'Too many requests: the gateway request rate limit was reached.',
} as const;

/** 429 with `Retry-After` (whole seconds, rounded up) and the RATE_LIMITED body. */
export function replyRateLimited(res: ServerResponse, refusal: Refusal, nowMs: number): void {
  const seconds = retryAfterSeconds(refusal.resetAtMs, nowMs);
  sendJson(
    res,
    429,
    {
      scope: refusal.scope,
      reset_at: new Date(refusal.resetAtMs).toISOString(),
      retry_after_seconds: seconds,
      error_code: 'RATE_LIMITED',
      detail: `${LIMIT_DETAIL[refusal.scope]} Retry after ${seconds} s.`,
    },
    { headers: { 'retry-after': String(seconds) } },
  );
}

/**
 * 429 of a spent usage budget as the release writes it: from v4.5 the structured body with
 * Retry-After (replyRateLimited); before, `{"detail": "Token budget exceeded for user. Try again
 * later."}` with no code and no Retry-After.
 */
export function replyBudgetSpent(res: ServerResponse, refusal: Refusal, nowMs: number, structured: boolean): void {
  if (structured) return replyRateLimited(res, refusal, nowMs);
  const who = refusal.scope === 'global' ? 'organization' : 'user';
  sendJson(res, 429, { detail: `Token budget exceeded for ${who}. Try again later.` });
}

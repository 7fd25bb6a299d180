/**
 * @module sim/chat-route
 * POST {base}/chat/send-chat-message: authentication (anonymous access when enabled), the usage
 * budgets, validation, then the chat engine, which answers on the response itself. The tokens the
 * engine produced are charged to the budgets once it is done.
 */
import { SendMessageRequestSchema } from '../api/index.js';
import { ANONYMOUS_PRINCIPAL } from './auth.js';
import type { ChatEngine } from './chat/index.js';
import type { FileStore } from './chat-setup.js';
import { readValidBody } from './parse-body.js';
import type { RateLimiter } from './rate-limit.js';
import { replyBudgetSpent } from './replies.js';
import type { ReleaseTraits } from './releases.js';
import type { RouteContext } from './route.js';
import { authorize } from './route.js';
import type { ServerStatsRecorder } from './server-stats.js';
import type { Threadpool } from './threadpool.js';
import type { PydanticError } from './validation.js';
import { valueError } from './validation.js';

export interface ChatRouteOptions {
  readonly engine: ChatEngine;
  readonly limiter: RateLimiter;
  readonly stats: ServerStatsRecorder;
  readonly anonymousChat: boolean;
  readonly now: () => number;
  /** The release decides the 429 body of a spent budget. */
  readonly release?: ReleaseTraits;
  /** The request thread pool: a request holds a token from acceptance to its end. */
  readonly pool?: Threadpool;
  /** Uploaded files a request may attach by `file_descriptors`. */
  readonly files?: FileStore;
}

/** The deployed model validator: a request names an existing session or asks for a new one, not both. */
function oneSessionSource(
  value: { chat_session_id?: string | null; chat_session_info?: unknown },
  raw: unknown,
): PydanticError[] {
  if (value.chat_session_id == null || value.chat_session_info == null) return [];
  return [valueError(['body'], 'Only one of chat_session_id or chat_session_info should be provided, not both.', raw)];
}

export function chatHandler(options: ChatRouteOptions) {
  const fallback = options.anonymousChat ? ANONYMOUS_PRINCIPAL : undefined;
  return async (ctx: RouteContext): Promise<void> => {
    const principal = authorize(ctx, 'write:chat', fallback);
    if (principal === undefined) return;
    const refusal = options.limiter.admitChat(principal.userId);
    if (refusal !== undefined) {
      options.stats.rateLimited(refusal.scope);
      replyBudgetSpent(ctx.res, refusal, options.now(), options.release?.structuredBudget429 ?? true);
      return;
    }
    const request = await readValidBody(ctx.req, ctx.res, SendMessageRequestSchema, ctx.body, {
      after: oneSessionSource,
    });
    if (request === undefined) return;
    const controller = new AbortController();
    const onClose = () => {
      if (ctx.res.writableFinished) return;
      options.stats.cancelledStream();
      controller.abort();
    };
    ctx.res.once('close', onClose);
    // The service's handler is sync: it runs, and its stream plays, on a thread of the pool.
    const release = options.pool === undefined ? () => undefined : await options.pool.acquire(controller.signal);
    if (release === undefined) {
      ctx.res.off('close', onClose);
      return;
    }
    try {
      const { tokens } = await options.engine.handle({
        request,
        userId: principal.userId,
        res: ctx.res,
        signal: controller.signal,
        attachedTokens: options.files?.attachedTokens(principal.userId, request.file_descriptors) ?? 0,
      });
      options.limiter.charge(principal.userId, tokens);
      options.stats.chatTokens(tokens);
    } finally {
      release();
      ctx.res.off('close', onClose);
    }
  };
}

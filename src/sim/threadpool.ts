/**
 * @module sim/threadpool
 * The service's request thread pool, as `GET /health/ready` sees it. The service's chat handler is a
 * sync endpoint and its stream a sync generator, so each chat request holds one token of anyio's
 * thread limiter (40 by default, `ONYX_API_THREADPOOL_SIZE`) from acceptance to its last packet; a
 * request that finds none free waits for one. Readiness is sampled at each probe, as the service
 * does (`_SATURATED_SINCE` is set by the first saturated probe, cleared by the first healthy one),
 * so a pool that drains between two probes still reads as saturated throughout.
 */
import { z } from 'zod';
import type { ThreadpoolDepth } from '../api/index.js';
import { notReadyDetail } from '../api/index.js';

export const ThreadpoolConfigSchema = z.strictObject({
  /** Thread tokens (anyio's default is 40). */
  size: z.number().int().positive().default(40),
  /** How long the pool must stay saturated before `/health/ready` answers 503 (the service: 10 s). Real time, not scaled. */
  unready_after_ms: z.number().nonnegative().default(10_000),
  /** Requests waiting for a thread that count as saturation (the service: 1). */
  unready_queue_depth: z.number().int().positive().default(1),
  /**
   * A chat request over `size` waits for a free token before it starts, as in the service. Off by
   * default: the pool is then only counted (for `/health/ready`) and never slows a request down,
   * so a simulator's timings do not change with concurrency unless asked.
   */
  queue_requests: z.boolean().default(false),
});
export type ThreadpoolConfig = z.output<typeof ThreadpoolConfigSchema>;

/** What a probe reads: ready with the depth, or not ready with the service's 503 detail. */
export type Readiness =
  | { readonly ready: true; readonly depth: ThreadpoolDepth }
  | { readonly ready: false; readonly depth: ThreadpoolDepth; readonly detail: string };

export interface Threadpool {
  /** Resolves with the release function once the request holds a token; undefined if `signal` aborted first. */
  acquire(signal?: AbortSignal): Promise<(() => void) | undefined>;
  depth(): ThreadpoolDepth;
  /** One probe's sample: updates the saturation streak as the service's `readiness()` does. */
  readiness(): Readiness;
}

/** A pool with `config.size` tokens; `now` in milliseconds (the server's clock). */
export function createThreadpool(config: ThreadpoolConfig, now: () => number): Threadpool {
  let holding = 0;
  const waiters: Array<() => void> = [];
  let saturatedSince: number | undefined;

  const depth = (): ThreadpoolDepth => {
    const counted = config.queue_requests ? holding + waiters.length : holding;
    return {
      threadpool_total_tokens: config.size,
      threadpool_borrowed_tokens: Math.min(counted, config.size),
      threadpool_tasks_waiting: Math.max(0, counted - config.size),
    };
  };
  const releaser = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holding -= 1;
      const next = waiters.shift();
      if (next !== undefined) next();
    };
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.resolve(undefined);
      if (!config.queue_requests || holding < config.size) {
        holding += 1;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve) => {
        const onAbort = () => {
          const at = waiters.indexOf(grant);
          if (at !== -1) waiters.splice(at, 1);
          resolve(undefined);
        };
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          holding += 1;
          resolve(releaser());
        };
        waiters.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    depth,
    readiness() {
      const d = depth();
      const saturated =
        d.threadpool_borrowed_tokens >= d.threadpool_total_tokens &&
        d.threadpool_tasks_waiting >= config.unready_queue_depth;
      if (!saturated) {
        saturatedSince = undefined;
        return { ready: true, depth: d };
      }
      const t = now();
      saturatedSince ??= t;
      const saturatedFor = t - saturatedSince;
      if (saturatedFor < config.unready_after_ms) return { ready: true, depth: d };
      return { ready: false, depth: d, detail: notReadyDetail(saturatedFor, d.threadpool_tasks_waiting) };
    },
  };
}

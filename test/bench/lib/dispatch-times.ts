/**
 * @module bench/lib/dispatch-times
 * When undici actually wrote each request to its socket, from its diagnostics channels (no change
 * to the client): `undici:request:create` when the request is built inside `dispatch` (right after
 * the client stamps `sent`), `undici:client:sendHeaders` when its bytes are written. The gap is the
 * client's own send delay (its event loop, the connection pool); the rest of the way to the
 * simulator is the simulator's.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { epochNow } from './clock.js';

export interface DispatchWatch {
  /** By creation order since the watch began: epoch ms the request's headers were written, or NaN. */
  readonly writtenAt: readonly number[];
  stop(): void;
}

/**
 * Watches every undici request created from now on (in this process). The runner sends one
 * request per `send` with no retries here, so creation order is send order.
 */
export function watchDispatches(now: () => number = epochNow): DispatchWatch {
  const writtenAt: number[] = [];
  const index = new WeakMap<object, number>();
  const onCreate = (message: unknown) => {
    index.set((message as { request: object }).request, writtenAt.length);
    writtenAt.push(Number.NaN);
  };
  const onSendHeaders = (message: unknown) => {
    const i = index.get((message as { request: object }).request);
    if (i !== undefined) writtenAt[i] = now();
  };
  subscribe('undici:request:create', onCreate);
  subscribe('undici:client:sendHeaders', onSendHeaders);
  return {
    writtenAt,
    stop() {
      unsubscribe('undici:request:create', onCreate);
      unsubscribe('undici:client:sendHeaders', onSendHeaders);
    },
  };
}

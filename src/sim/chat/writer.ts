/**
 * @module sim/chat/writer
 * Plays a compiled plan of timed steps on a response through the shared scheduler. Each wake-up writes every
 * step already due as one `res.write` (a packet is never split across writes). When `res.write`
 * reports a full buffer the stream stops producing until 'drain' and its remaining timeline moves
 * later by the pause, so a slow reader neither grows memory nor counts as scheduler lag. When the
 * client leaves (abort signal or 'close') the stream's task is cancelled and nothing more is
 * written. After the last step the response ends, unless the last step reset the connection.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Scheduler, ScheduledTask } from './scheduler.js';
import { isReset, stepText, type WirePlan } from './wire-plan.js';

/** Status line and headers, sent with the first step (or on acceptance with `flushHead`). */
export interface ResponseHead {
  status: number;
  headers: Record<string, string | number>;
}

export interface PlayOptions {
  res: ServerResponse;
  signal: AbortSignal;
  head: ResponseHead;
  plan: WirePlan;
  scheduler: Scheduler;
  /** performance.now() when the request started: step times count from here. */
  start: number;
  now?: () => number;
  /**
   * Send the head at once, before the first step is due, as the service's StreamingResponse does
   * when it accepts a stream (Starlette writes `http.response.start` before iterating the body).
   */
  flushHead?: boolean;
}

/** Resolves when the last step is written, the connection was reset, or the client left. Never rejects. */
export function playSteps(options: PlayOptions): Promise<void> {
  const { res, plan, scheduler, start } = options;
  const count = plan.at.length;
  const now = options.now ?? (() => performance.now());
  return new Promise<void>((resolve) => {
    let next = 0;
    let shift = 0;
    let pausedAt = 0;
    let done = false;
    // After the first write has sent the head, a chunked stream's later packets go to the socket
    // with their chunk framing written here: one socket write each, where res.write makes three
    // plus a cork and a next-tick uncork. The bytes on the wire are the same.
    let direct = false;
    const write = (chunk: string): boolean => {
      const socket = res.socket;
      if (direct && socket !== null && !socket.destroyed) {
        const bytes = Buffer.byteLength(chunk);
        // The encoder escapes every non-ASCII character, so a chunk is almost always ASCII, whose
        // latin1 bytes are its UTF-8 bytes: the latin1 path is several times cheaper.
        return socket.write(`${bytes.toString(16)}\r\n${chunk}\r\n`, bytes === chunk.length ? 'latin1' : 'utf8');
      }
      const flushed = res.write(chunk);
      direct = (res as { chunkedEncoding?: boolean }).chunkedEncoding === true;
      return flushed;
    };
    const finish = (): void => {
      if (done) return;
      done = true;
      scheduler.cancel(task);
      options.signal.removeEventListener('abort', finish);
      res.off('close', finish);
      res.off('drain', resume);
      res.socket?.off('drain', resume);
      resolve();
    };
    const scheduleNext = (): void => {
      task.due = start + shift + (plan.at[next] ?? 0);
      scheduler.schedule(task);
    };
    const resume = (): void => {
      if (done) return;
      shift += now() - pausedAt;
      scheduleNext();
    };
    const run = (): void => {
      if (done) return;
      let chunk = '';
      const limit = now() + 0.2;
      let reset = false;
      for (; next < count && start + shift + (plan.at[next] ?? 0) <= limit; next++) {
        if (isReset(plan, next)) {
          reset = true;
          break;
        }
        chunk += stepText(plan, next);
      }
      if (!res.headersSent) res.writeHead(options.head.status, options.head.headers);
      const flushed = chunk === '' || write(chunk);
      if (reset) resetAfterPoll(res, () => done, finish);
      else if (next >= count) {
        res.end();
        finish();
      } else if (!flushed) {
        pausedAt = now();
        (direct ? res.socket : res)?.once('drain', resume);
      } else scheduleNext();
    };
    const task: ScheduledTask = { due: 0, slot: -1, run };
    if (options.signal.aborted || res.destroyed) return finish();
    options.signal.addEventListener('abort', finish, { once: true });
    res.once('close', finish);
    if (count === 0) {
      if (!res.headersSent) res.writeHead(options.head.status, options.head.headers);
      res.end();
      return finish();
    }
    if (options.flushHead === true) {
      res.writeHead(options.head.status, options.head.headers);
      res.flushHeaders();
    }
    scheduleNext();
  });
}

/**
 * The reset, after the loop's next poll phase: a client in this process (the tests', a user's dry
 * run) reads what is already in its socket's buffer before the RST drops it. A loop held past
 * RESET_AFTER_MS runs the reset's timer before the poll that would read them (`npm run
 * test:stress`, session 52: a full answer's status lost).
 */
function resetAfterPoll(res: ServerResponse, done: () => boolean, finish: () => void): void {
  setImmediate(() => {
    if (!done()) resetConnection(res);
    finish();
  });
}

/** An abrupt close: TCP RST where the platform allows, so the client sees a reset, not a clean end. */
export function resetConnection(res: ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
  if (socket === null) {
    res.destroy();
    return;
  }
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

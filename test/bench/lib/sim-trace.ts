/**
 * @module bench/lib/sim-trace
 * What the simulator did with each chat request, seen from inside its process: when the request
 * arrived, when its first write and the write carrying the first `message_delta` were made, and when
 * those bytes left for the kernel. The benchmark needs this to split a timing error between "the
 * simulator was late" and "the client measured late"; the simulator's own stats only give an
 * aggregate send lag.
 *
 * It hooks the server from outside (src/sim stays untouched): a 'request' listener placed before the
 * simulator's own, and a wrapper around that response's `write`, and its socket's (the simulator
 * writes a stream's later packets to the socket directly, framed), for its first writes only. Node
 * corks a response's socket for the rest of the tick, and the scheduler writes every due stream in
 * one tick, so bytes leave at the end of that batch: the "flush" stamp is taken in a nextTick queued
 * right after the write, which runs just after the socket's uncork.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { epochNow } from './clock.js';

/** One streamed chat response. Times are epoch ms (clock.ts) of the simulator's process. */
export interface SimTrace {
  /** `reserved_assistant_message_id`: the key the client's record shares. */
  message_id: number;
  /** The 'request' event: headers parsed, body possibly still on its way. */
  arrival: number;
  /** The first `res.write` (the bare parts due at 0) was called … */
  first_call: number;
  /** … and its bytes were handed to the kernel. */
  first_flush: number;
  /**
   * Same for the first write holding a stream line (a `{`): the first write may be the headers alone
   * (a simulator that flushes them first), which no client counts as a part. Absent: not traced.
   */
  part_call?: number | null;
  part_flush?: number | null;
  /** Same for the first write holding a `message_delta`; null when none came (errors). */
  delta_call: number | null;
  delta_flush: number | null;
}

export interface TraceRecorder {
  /** The traces gathered since the last call, which are then forgotten. */
  drain(): SimTrace[];
}

const MESSAGE_ID = /"reserved_assistant_message_id":\s*(\d+)/;
const CHAT_PATH = 'send-chat-message';

/** Starts tracing every chat response of `server`; call before the simulator handles its first request. */
export function traceChatResponses(server: Server, now: () => number = epochNow): TraceRecorder {
  let traces: SimTrace[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!(req.url ?? '').includes(CHAT_PATH)) return;
    wrapWrites(res, now(), now, (trace) => traces.push(trace));
  });
  return {
    drain() {
      const out = traces;
      traces = [];
      return out;
    },
  };
}

/** Wraps `res.write` and its socket's `write` until the first delta went out (or the response closed), then puts them back. */
function wrapWrites(res: ServerResponse, arrival: number, now: () => number, done: (trace: SimTrace) => void): void {
  const original = res.write;
  const socket = res.socket;
  const originalSocketWrite = socket?.write;
  const trace: SimTrace = {
    message_id: -1,
    arrival,
    first_call: Number.NaN,
    first_flush: Number.NaN,
    part_call: null,
    part_flush: null,
    delta_call: null,
    delta_flush: null,
  };
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    res.write = original;
    if (socket && originalSocketWrite) socket.write = originalSocketWrite;
    res.off('close', finish); // a response that ends before any delta (an error) keeps null delta times
    if (trace.message_id >= 0) done(trace);
  };
  const traced = (write: (...a: unknown[]) => boolean) =>
    function tracedWrite(this: unknown, ...args: unknown[]): boolean {
      const called = now();
      const ok = write.apply(this, args);
      const chunk = args[0];
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
      if (Number.isNaN(trace.first_call)) {
        trace.first_call = called;
        process.nextTick(() => void (trace.first_flush = now()));
      }
      if (trace.part_call === null && text.includes('{')) {
        trace.part_call = called;
        process.nextTick(() => void (trace.part_flush = now()));
      }
      // res.write itself writes to the socket (headers first): take the id from whichever write holds it.
      if (trace.message_id < 0) trace.message_id = Number(MESSAGE_ID.exec(text)?.[1] ?? -1);
      if (text.includes('"message_delta"') && trace.delta_call === null) {
        trace.delta_call = called;
        // later writes pass untouched
        res.write = original;
        if (socket && originalSocketWrite) socket.write = originalSocketWrite;
        process.nextTick(() => {
          trace.delta_flush = now();
          finish();
        });
      }
      return ok;
    };
  res.write = traced(original as (...a: unknown[]) => boolean) as ServerResponse['write'];
  if (socket && originalSocketWrite)
    socket.write = traced(originalSocketWrite as (...a: unknown[]) => boolean) as typeof socket.write;
  res.once('close', finish);
}

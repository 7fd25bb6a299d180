/**
 * A real HTTP server on 127.0.0.1:0 that answers the n-th request with the n-th scripted response
 * (the last one repeats), writing each chunk at its scripted time after the request body arrived
 * (autocannon's `responses[n]`). It records when each chunk was actually written, on the same
 * monotonic clock the client uses (performance.now: same process), so tests compare the client's
 * measurements with the real send times rather than with the timer's intent.
 * Closed in teardown: closeAllConnections() then close().
 *
 * `GET …/version` (what `chatbench eval` asks first, to learn the release) is answered 404, as a
 * deployment that does not route it would, without taking a scripted response or being recorded:
 * the script is the chat endpoint's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { onTestFinished } from 'vitest';

export interface ScriptedChunk {
  /** ms after the request body was received. */
  at_ms: number;
  bytes: string | Uint8Array;
}

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** When the status line and headers are sent, ms after the request; default 0. */
  headers_at_ms?: number;
  chunks?: ScriptedChunk[];
  /** Destroy the socket (a reset) after the last chunk instead of ending the body. */
  destroyAfter?: boolean;
  /** Destroy the socket as soon as the request arrives: nothing is sent. */
  destroyBeforeHeaders?: boolean;
  /** Write the chunks, then neither end nor destroy: a stall until the client gives up. */
  stall?: boolean;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** performance.now() when the body had arrived. */
  receivedAt: number;
  /** performance.now() right after each chunk was handed to the socket. */
  writtenAt: number[];
  headersWrittenAt: number | undefined;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:PORT/api` (the deployed prefix, so clients are tested with one). */
  baseUrl: string;
  origin: string;
  requests: ReceivedRequest[];
  /** Requests being answered right now, and the most at once. */
  inFlight(): number;
  peakInFlight(): number;
  close(): Promise<void>;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8' } as const;

/** Starts the server and registers its teardown on the current test. */
export async function startScriptedServer(responses: readonly ScriptedResponse[]): Promise<ScriptedServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && /\/version(\?|$)/.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
      return;
    }
    const index = requests.length;
    const script = responses[Math.min(index, responses.length - 1)] ?? {};
    const pieces: Buffer[] = [];
    inFlight++;
    peak = Math.max(peak, inFlight);
    res.on('close', () => inFlight--);
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(pieces).toString('utf8'),
        receivedAt: performance.now(),
        writtenAt: [],
        headersWrittenAt: undefined,
      };
      requests.push(received);
      play(script, req, res, received, timers);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const close = async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onTestFinished(close);
  return { baseUrl: `${origin}/api`, origin, requests, inFlight: () => inFlight, peakInFlight: () => peak, close };
}

function play(
  script: ScriptedResponse,
  req: IncomingMessage,
  res: ServerResponse,
  received: ReceivedRequest,
  timers: Set<NodeJS.Timeout>,
): void {
  if (script.destroyBeforeHeaders) {
    req.socket.destroy();
    return;
  }
  // The steps are played one after another, each timer armed only once the step before it has
  // run: bytes leave in the order scripted, whatever the machine does. (Armed all at once, timers
  // 1 ms apart fired out of order whenever the process paused a millisecond while arming them: a
  // delay is truncated to whole ms from a loop clock that moved during the pause, so a later chunk
  // could get an earlier expiry, or tie with its predecessor and lose the tie. The deep-research
  // stream, 27 lines 1 ms apart, then got a delta before its citation_info under load.)
  const headersAt = script.headers_at_ms ?? 0;
  const headers = () => {
    if (res.headersSent) return;
    res.writeHead(script.status ?? 200, { ...SSE_HEADERS, ...script.headers });
    res.flushHeaders();
    received.headersWrittenAt = performance.now();
  };
  const chunks = script.chunks ?? [];
  const steps: { at_ms: number; run: () => void }[] = [
    { at_ms: headersAt, run: headers },
    ...chunks.map((chunk) => ({
      at_ms: Math.max(chunk.at_ms, headersAt),
      run: () => {
        res.write(chunk.bytes);
        received.writtenAt.push(performance.now());
      },
    })),
  ];
  const due = (index: number) => received.receivedAt + steps[index]!.at_ms - performance.now();
  // Arms the timer of one step; when it fires it runs that step and every later one already due
  // (as timers due at one instant would), then arms the next.
  const arm = (first: number) => {
    if (first === steps.length) {
      finish(script, req, res);
      return;
    }
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        let index = first;
        do {
          if (res.destroyed) return;
          steps[index]!.run();
          index++;
        } while (index < steps.length && due(index) <= 0);
        arm(index);
      },
      Math.max(0, due(first)),
    );
    timers.add(timer);
  };
  arm(0);
}

function finish(script: ScriptedResponse, req: IncomingMessage, res: ServerResponse): void {
  if (script.stall) return;
  // Let the written bytes leave before the reset, as a server that crashes mid-stream would.
  if (script.destroyAfter) setImmediate(() => req.socket.destroy());
  else res.end();
}

/** One NDJSON line as the deployed service writes it (json.dumps spacing does not matter to the client). */
export const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

const placement = (model_index: number | null, turn_index = 1) => ({
  turn_index,
  tab_index: 0,
  sub_turn_index: null,
  model_index,
});
/** A Packet line of the given obj, for model_index 0 unless said. */
export const packetLine = (obj: Record<string, unknown>, model_index: number | null = 0): string =>
  line({ placement: placement(model_index), obj });

/** A complete single-model answer: ids at t0, message_start, deltas with a citation, stop. */
export function answerChunks(t: { ids: number; start: number; firstDelta: number; step: number }): ScriptedChunk[] {
  return [
    { at_ms: t.ids, bytes: line({ user_message_id: 1, reserved_assistant_message_id: 2 }) },
    {
      at_ms: t.start,
      bytes: packetLine({ type: 'message_start', final_documents: null, pre_answer_processing_seconds: 0.1 }),
    },
    { at_ms: t.firstDelta, bytes: packetLine({ type: 'message_delta', content: 'Docker Compose' }) },
    {
      at_ms: t.firstDelta + t.step,
      bytes:
        packetLine({ type: 'citation_info', citation_number: 1, document_id: 'doc-1' }) +
        packetLine({ type: 'message_delta', content: ' [[1]](https://x)' }),
    },
    {
      at_ms: t.firstDelta + 2 * t.step,
      bytes: packetLine({ type: 'message_delta', content: '.' }) + packetLine({ type: 'stop', stop_reason: null }),
    },
  ];
}

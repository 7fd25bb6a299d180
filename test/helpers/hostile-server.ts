/**
 * A service we did not write, on 127.0.0.1:0: raw node:http, answering each request with whatever
 * the test's function returns for it (the parsed JSON body, the headers), written at once. What the
 * reliability attacks use to play a hostile or broken deployment: echoing credentials, sending
 * absurd numbers, escape codes, formulas. Closed in teardown: closeAllConnections() then close().
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface HostileRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body, or undefined when it is not JSON. */
  readonly body:
    { message?: string; stream?: boolean; llm_overrides?: unknown[] | null; [key: string]: unknown } | undefined;
}

export interface HostileAnswer {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** The body, in one write; an array is written as one write per element. */
  readonly body: string | readonly string[];
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Answer only once this settles (a test holds requests in flight, then lets them go). */
  readonly after?: Promise<unknown>;
}

export interface HostileServer {
  /** `http://127.0.0.1:PORT/api`. */
  readonly baseUrl: string;
  /** Every request but eval's `GET /version` probe (answered 404). */
  readonly requests: HostileRequest[];
}

/**
 * Starts the server; it is closed when the current test finishes, or through `teardown` (e.g.
 * vitest's afterAll for a server started in beforeAll).
 */
export async function startHostileServer(
  answer: (request: HostileRequest) => HostileAnswer,
  teardown: (close: () => Promise<void>) => void = onTestFinished,
): Promise<HostileServer> {
  const requests: HostileRequest[] = [];
  const server = createServer((req, res) => {
    // eval's probe of the release: not part of what a test scripts or counts.
    if (req.method === 'GET' && req.url?.endsWith('/version')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail": "Not Found"}');
      return;
    }
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      let body: HostileRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(pieces).toString('utf8')) as HostileRequest['body'];
      } catch {
        body = undefined;
      }
      const request = { url: req.url ?? '', headers: req.headers, body };
      requests.push(request);
      const reply = answer(request);
      const write = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream; charset=utf-8', ...reply.headers });
        for (const chunk of typeof reply.body === 'string' ? [reply.body] : reply.body) res.write(chunk);
        res.end();
      };
      const send = () => (reply.delayMs ? void setTimeout(write, reply.delayMs) : write());
      if (reply.after) void reply.after.then(send, send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  teardown(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api`, requests };
}

/** One NDJSON line. */
export const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** A Packet line for model `modelIndex` (0 for a single model). */
export const packet = (obj: Record<string, unknown>, modelIndex: number | null = 0): string =>
  line({ placement: { turn_index: 1, tab_index: 0, sub_turn_index: null, model_index: modelIndex }, obj });

/** A SearchDoc as the service sends it, with this id. */
export const searchDoc = (id: string) => ({
  document_id: id,
  chunk_ind: 0,
  semantic_identifier: id,
  link: null,
  blurb: '',
  source_type: 'file',
  boost: 0,
  hidden: false,
  metadata: {},
  score: 1,
  match_highlights: [],
  updated_at: null,
  primary_owners: null,
  secondary_owners: null,
  is_internet: false,
});

/** A full (stream=false) answer. */
export const fullAnswer = (o: {
  answer: string;
  documents?: readonly string[];
  citations?: ReadonlyArray<[number, string]>;
}): string =>
  JSON.stringify({
    answer: o.answer,
    answer_citationless: o.answer,
    top_documents: (o.documents ?? []).map(searchDoc),
    citation_info: (o.citations ?? []).map(([n, id]) => ({ citation_number: n, document_id: id })),
    message_id: 2,
    chat_session_id: 'c1',
    error_msg: null,
  });

/** A single-model streamed answer: ids, message_start with `documents`, the deltas, citations, stop. */
export function streamedAnswer(o: {
  deltas: readonly string[];
  documents?: readonly string[];
  citations?: ReadonlyArray<[number, string]>;
  extra?: readonly string[];
}): string[] {
  return [
    line({ user_message_id: 1, reserved_assistant_message_id: 2 }),
    packet({
      type: 'message_start',
      final_documents: (o.documents ?? []).map(searchDoc),
      pre_answer_processing_seconds: 0.1,
    }),
    ...(o.citations ?? []).map(([n, id]) => packet({ type: 'citation_info', citation_number: n, document_id: id })),
    ...(o.extra ?? []),
    ...o.deltas.map((content) => packet({ type: 'message_delta', content })),
    packet({ type: 'stop', stop_reason: null }),
  ];
}

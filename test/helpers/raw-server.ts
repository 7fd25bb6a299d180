/**
 * A service that answers with raw node:http, on 127.0.0.1:0, for the attacks no scripted body can
 * play: bodies that drip, never end, or never stop growing. The handler gets each request with its
 * body read; `endless` writes a chunk for as long as the client reads (with backpressure) and stops
 * when the connection closes. Closed in teardown: closeAllConnections() then close().
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly body: string;
}

export interface RawServer {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Every request, in arrival order, with its body. */
  readonly requests: RawRequest[];
}

/** Starts the server; `handle` answers each request (the body read already). */
export async function startRawServer(handle: (request: RawRequest, res: ServerResponse) => void): Promise<RawServer> {
  const requests: RawRequest[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(pieces).toString('utf8') };
      requests.push(request);
      handle(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** Writes `chunk` again and again, as fast as the client reads, until the connection closes. */
export function endless(res: ServerResponse, chunk: string): void {
  const piece = Buffer.from(chunk);
  let open = true;
  res.on('close', () => (open = false));
  const pump = () => {
    while (open && res.write(piece));
    if (open) res.once('drain', pump);
  };
  pump();
}

/** Writes `chunk` every `everyMs` until the connection closes (a service dripping bytes). */
export function drip(res: ServerResponse, chunk: string, everyMs: number): void {
  const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(chunk)), everyMs);
  res.on('close', () => clearInterval(timer));
}

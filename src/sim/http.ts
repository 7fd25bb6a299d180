/**
 * @module sim/http
 * The server's small HTTP edge: reading a bounded body and writing JSON the way the deployed
 * service's framework writes whole bodies (Starlette JSONResponse: compact separators, UTF-8 as is).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PyJson } from './encode/index.js';
import { dumpsResponse } from './encode/index.js';

/** A body read to its end, or why it was not. */
export type BodyResult =
  | { readonly kind: 'ok'; readonly text: string; readonly bytes: Buffer }
  | { readonly kind: 'too_large' }
  | { readonly kind: 'aborted' };

/**
 * Reads the request body up to `maxBytes`. A declared Content-Length over the limit is refused
 * before a byte is read; a body that grows past it stops being read at that point. Either way
 * the caller answers 413 and closes the connection (the rest of the body is never drained).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ kind: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('aborted', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        finish({ kind: 'too_large' });
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      const bytes = Buffer.concat(chunks, size);
      finish({ kind: 'ok', text: bytes.toString('utf8'), bytes });
    };
    const onAbort = () => finish({ kind: 'aborted' });
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('aborted', onAbort);
  });
}

/** Writes a complete JSON response. `close` asks the client to drop the connection afterwards. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: PyJson,
  options: { headers?: Record<string, string>; close?: boolean } = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const payload = Buffer.from(dumpsResponse(body), 'utf8');
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(payload.length),
    ...(options.close ? { connection: 'close' } : {}),
    ...options.headers,
  });
  res.end(payload);
}

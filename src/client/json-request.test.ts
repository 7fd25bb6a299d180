/**
 * The bounded reader of the JSON operations (issue 23): a body past its byte cap and a body that
 * drips past the whole-call timeout both end the read, each with its own error.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it, onTestFinished } from 'vitest';
import { jsonRequest, ResponseTooLargeError } from './json-request.js';

async function serve(answer: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('a body past maxBodyBytes: ResponseTooLargeError naming the cap', async () => {
  const baseUrl = await serve((res) => res.writeHead(200).end('x'.repeat(10_000)));
  await expect(jsonRequest({ baseUrl, maxBodyBytes: 1_000 }, 'GET', '/version')).rejects.toBeInstanceOf(
    ResponseTooLargeError,
  );
  await expect(jsonRequest({ baseUrl, maxBodyBytes: 1_000 }, 'GET', '/version')).rejects.toThrow(
    /GET \/version: the response body exceeds 1000 bytes/,
  );
  expect((await jsonRequest({ baseUrl, maxBodyBytes: 10_000 }, 'GET', '/version')).text).toHaveLength(10_000);
});

it('a body that drips: the whole-call timeout ends it (no byte resets it)', async () => {
  const baseUrl = await serve((res) => {
    res.writeHead(200);
    const timer = setInterval(() => res.write(' '), 20);
    res.on('close', () => clearInterval(timer));
  });
  await expect(jsonRequest({ baseUrl, timeoutMs: 300 }, 'GET', '/version')).rejects.toMatchObject({
    name: 'TimeoutError',
  });
});

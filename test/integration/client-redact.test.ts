/**
 * The client takes a request's own secrets (the token, mcp_headers values) out of whatever the
 * server says back, so no command (eval, load, capacity) can write them anywhere.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it, onTestFinished } from 'vitest';
import { createChatClient } from '../../src/client/chat-client.js';

it('redacts an echoed token and mcp_headers values, and keeps credentials out of its base URL', async () => {
  // A server that echoes the whole request back in a 422, as a pydantic error echoes its input.
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: [{ msg: 'echo', input: JSON.parse(body), auth: req.headers.authorization }] }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  onTestFinished(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const client = createChatClient({
    baseUrl: `http://user:hunter22@127.0.0.1:${port}/api`,
    token: 'onyx_pat_TOKEN_SECRET',
    timeoutMs: 5000,
  });
  onTestFinished(() => client.close());
  const exchange = await client.send({
    message: 'hi',
    stream: false,
    mcp_headers: { Authorization: 'Bearer USER-JWT-SECRET', 'X-Team': 'blue-team-key' },
  });
  expect(exchange.outcome).toBe('http_error');
  const said = JSON.stringify(exchange);
  expect(said).toContain('[redacted]');
  for (const secret of ['onyx_pat_TOKEN_SECRET', 'USER-JWT-SECRET', 'blue-team-key'])
    expect(said).not.toContain(secret);
  expect(client.baseUrl).toBe(`http://127.0.0.1:${port}/api`);
});

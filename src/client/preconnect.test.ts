import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createPreconnectingAgent } from './preconnect.js';

async function countingServer(): Promise<{
  origin: string;
  connections: () => number;
  requests: () => number;
  server: Server;
}> {
  let connections = 0;
  let requests = 0;
  const server = createServer((_req, res) => {
    requests += 1;
    res.end('ok');
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    requests: () => requests,
    server,
  };
}

describe('createPreconnectingAgent', () => {
  it('opens the connections before any request, and the first requests use them instead of connecting', async () => {
    const s = await countingServer();
    const pool = createPreconnectingAgent({ connections: 3 });
    onTestFinished(async () => {
      pool.release();
      await pool.agent.close();
    });
    expect(await pool.preconnect(`${s.origin}/api`, 3)).toBe(3);
    // The server accepts on its own turn of the loop: wait (bounded) until it has seen them.
    for (let i = 0; i < 100 && s.connections() < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(s.connections()).toBe(3);
    expect(s.requests()).toBe(0); // connections, not requests
    const bodies = await Promise.all(
      [1, 2, 3].map(async () => (await request(`${s.origin}/x`, { dispatcher: pool.agent })).body.text()),
    );
    expect(bodies).toEqual(['ok', 'ok', 'ok']);
    expect(s.connections()).toBe(3);
  });

  it('never rejects for a target that cannot be reached, and release() closes what no request took', async () => {
    const s = await countingServer();
    const pool = createPreconnectingAgent({ connections: 2 });
    onTestFinished(() => pool.agent.close());
    expect(await pool.preconnect('http://127.0.0.1:1/api', 2)).toBe(0);
    expect(await pool.preconnect(s.origin, 2)).toBe(2);
    pool.release();
    // A request after the release connects afresh.
    expect(await (await request(`${s.origin}/y`, { dispatcher: pool.agent })).body.text()).toBe('ok');
    expect(s.connections()).toBe(3);
  });
});

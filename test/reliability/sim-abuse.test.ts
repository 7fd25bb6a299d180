/**
 * Issue 7 §6: the simulator keeps serving others while raw sockets on loopback abuse it — slow
 * headers, slow bodies, half-open connections, 2,000 rapid connects, malformed HTTP. Every loop is
 * bounded; a normal chat request during the abuse must still succeed promptly.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { call, startSim, TOKENS } from '../helpers/start-sim.js';

const BODY = JSON.stringify({ message: 'How many days of paid time off do employees get?', stream: false });

/** A raw socket to the simulator, destroyed in teardown. */
async function rawSocket(sim: RunningSimulator): Promise<Socket> {
  const { hostname, port } = new URL(sim.baseUrl);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined); // resets from the server are part of the abuse
  onTestFinished(() => void socket.destroy());
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/**
 * One normal full-mode chat request: 200 with an answer. Served while the abuse goes on is the
 * promise; how fast a busy machine serves it is not this test's (a hang fails by the timeout).
 */
async function expectServed(sim: RunningSimulator): Promise<void> {
  const result = await call(sim, '/chat/send-chat-message', { token: TOKENS.demo, body: JSON.parse(BODY) });
  expect(result.status).toBe(200);
  expect((result.json as { answer?: string }).answer).toBeTruthy();
}

/** Everything the server wrote back on `socket` until it closed or `ms` passed. */
function replyOf(socket: Socket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (b: Buffer) => (text += b.toString('latin1')));
    const done = () => resolve(text);
    socket.once('close', done);
    setTimeout(done, ms);
  });
}

const path = (sim: RunningSimulator) => `${new URL(sim.baseUrl).pathname}/chat/send-chat-message`;

describe('the simulator under abusive clients', () => {
  it('slow-header and slow-body clients, and half-open connections, do not hold up a normal request', async () => {
    const sim = await startSim();
    const slow: Socket[] = [];
    for (let i = 0; i < 30; i += 1) {
      const socket = await rawSocket(sim);
      if (i % 3 === 0)
        socket.write(`POST ${path(sim)} HTTP/1.1\r\nHost: x\r\nX-Slow: `); // headers never end
      else if (i % 3 === 1)
        socket.write(
          `POST ${path(sim)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${TOKENS.demo}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 10)}`,
        );
      else socket.end(`POST ${path(sim)} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"mess`); // half-open: our side is closed
      slow.push(socket);
    }
    const drip = setInterval(() => slow.forEach((s, i) => i % 3 !== 2 && !s.destroyed && s.write('a')), 50);
    try {
      for (let i = 0; i < 3; i += 1) await expectServed(sim);
    } finally {
      clearInterval(drip);
    }
    await expectServed(sim);
  });

  it('2,000 rapid connects (opened and dropped at once), a normal request during them and after', async () => {
    const sim = await startSim();
    const { hostname, port } = new URL(sim.baseUrl);
    let during: Promise<void> | undefined;
    for (let batch = 0; batch < 20; batch += 1) {
      if (batch === 10) during = expectServed(sim); // a normal request in the middle of the storm
      await Promise.all(
        Array.from(
          { length: 100 },
          () =>
            new Promise<void>((resolve) => {
              const socket = connect(Number(port), hostname);
              socket.on('error', () => resolve());
              socket.once('connect', () => {
                if (batch % 2 === 0) socket.resetAndDestroy();
                else socket.destroy();
                resolve();
              });
            }),
        ),
      );
    }
    await during;
    await expectServed(sim);
  });

  it.each([
    { name: 'garbage bytes', bytes: 'GARBAGE \x00\x01\x02 NOT HTTP\r\n\r\n' },
    { name: 'a bad header line', bytes: `POST /x HTTP/1.1\r\nHost x\r\nBad Header\r\n\r\n` },
    { name: 'headers over 16 KiB', bytes: `GET /api HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n` },
    {
      name: 'a bad Content-Length',
      bytes: 'POST /api/chat/send-chat-message HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
    },
    {
      name: 'a bad chunked body',
      bytes:
        'POST /api/chat/send-chat-message HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n',
    },
  ])('malformed HTTP ($name) gets a 4xx or a closed socket, and the server keeps serving', async ({ bytes }) => {
    const sim = await startSim();
    const socket = await rawSocket(sim);
    socket.write(bytes);
    const reply = await replyOf(socket, 1_000);
    if (reply !== '') expect(reply).toMatch(/^HTTP\/1\.1 4\d\d /);
    await expectServed(sim);
  });
});

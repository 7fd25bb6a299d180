/**
 * The simulator sends a stream's response headers when it accepts the request, as the service's
 * StreamingResponse does (issue 25 §3), so `headers_ms` and `ttfp_ms` can be told apart: with the
 * first part a minute away, the status and headers still arrive at once.
 */
import { request } from 'undici';
import { expect, it } from 'vitest';
import { startSim, TOKENS } from '../helpers/start-sim.js';

it('a stream answers its headers on acceptance, long before its first part', async () => {
  const sim = await startSim({ config: { chat: { time_scale: 1, ttfp_ms: { median: 60_000, p99: 60_000 } } } });
  const controller = new AbortController();
  const res = await request(`${sim.baseUrl}/chat/send-chat-message`, {
    method: 'POST',
    signal: controller.signal,
    headers: { authorization: `Bearer ${TOKENS.demo}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'How many days of paid time off do employees get?', stream: true }),
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  controller.abort();
  await res.body.text().catch(() => undefined);
});

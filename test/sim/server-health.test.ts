/**
 * The service's probes on the simulator (issue 25 §3): `/health` in every release, `/health/ready`
 * from v4.7 with the pool depth as floats, and its 503 once the simulated request thread pool has
 * been saturated at every probe for `threadpool.unready_after_ms` (a fake clock: no waiting).
 */
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { call, startSim, TOKENS } from '../helpers/start-sim.js';

const CHAT = '/chat/send-chat-message';
/** The service's bodies, written by Python (test/fixtures/onyx-releases/generate.py). */
const fixture = (name: string) => readFileSync(new URL(`../fixtures/onyx-releases/${name}`, import.meta.url), 'utf8');
const QUESTION = 'How many days of paid time off do employees get?';

describe('health probes', () => {
  it('GET /health is public liveness in every release', async () => {
    for (const release of ['2.7', '4.6', '4.8']) {
      const sim = await startSim({ config: { onyx_release: release } });
      const res = await call(sim, '/health');
      expect([res.status, res.text]).toEqual([200, fixture('health-v2.7.json')]);
    }
  });

  it('GET /health/ready exists from v4.7 and reports the pool as floats', async () => {
    const old = await startSim({ config: { onyx_release: '4.6' } });
    expect((await call(old, '/health/ready')).status).toBe(404);
    const sim = await startSim({ config: { onyx_release: '4.7.3' } });
    const res = await call(sim, '/health/ready');
    expect([res.status, res.text]).toEqual([200, fixture('health-ready-v4.7.json')]);
    expect(sim.stats().http['health-ready']).toEqual({ '200': 1 });
  });

  it('answers 503 SERVICE_UNAVAILABLE once the pool stayed saturated for unready_after_ms, then recovers', async () => {
    const clock = { t: 0 };
    // Slow streams (time_scale 1): two chat requests hold the single token and wait for it until closed.
    const sim = await startSim({
      now: () => clock.t,
      config: { threadpool: { size: 1, unready_after_ms: 10_000, queue_requests: true }, chat: { time_scale: 1 } },
    });
    const open = [0, 1].map(() => new AbortController());
    const streams = open.map((c) =>
      request(`${sim.baseUrl}${CHAT}`, {
        method: 'POST',
        signal: c.signal,
        headers: { authorization: `Bearer ${TOKENS.demo}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: QUESTION, stream: true }),
      }).catch(() => undefined),
    );
    const until = Date.now() + 2_000;
    while (sim.threadpool().threadpool_tasks_waiting < 1 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 5));
    expect(sim.threadpool()).toEqual({
      threadpool_total_tokens: 1,
      threadpool_borrowed_tokens: 1,
      threadpool_tasks_waiting: 1,
    });
    expect((await call(sim, '/health/ready')).status).toBe(200); // the first saturated probe starts the streak
    clock.t += 12_345;
    const down = await call(sim, '/health/ready');
    expect([down.status, down.text]).toEqual([503, fixture('503-v4.7-not-ready.json')]);
    expect((await call(sim, '/health')).status).toBe(200); // liveness is not readiness
    open.forEach((c) => c.abort());
    await Promise.all(streams);
    const drained = Date.now() + 2_000;
    while (sim.threadpool().threadpool_borrowed_tokens > 0 && Date.now() < drained)
      await new Promise((r) => setTimeout(r, 5));
    expect((await call(sim, '/health/ready')).status).toBe(200);
  });
});

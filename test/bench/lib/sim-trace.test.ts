/**
 * The benchmark's instruments against a real simulator and the real client, in one process: the
 * simulator's traces join the client's exchanges by message id, their times are in causal order,
 * and undici's write times fall between the client's `sent` and the simulator's arrival.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createChatClient } from '../../../src/client/chat-client.js';
import { createSimServer, DEMO_TOKEN, loadCorpus } from '../../../src/sim/index.js';
import { epochNow } from './clock.js';
import { watchDispatches } from './dispatch-times.js';
import { traceChatResponses } from './sim-trace.js';
import { decompose } from './timing-figures.js';

const fixed = (ms: number) => ({ median: ms, p99: ms });

async function startTracedSim() {
  const sim = createSimServer({
    corpus: await loadCorpus(),
    seed: 1,
    config: {
      chat: {
        profiles: {
          default: { pre_answer_ms: fixed(40), first_token_ms: fixed(20), token_ms: fixed(5), answer_sentences: 1 },
        },
      },
    },
  });
  const traces = traceChatResponses(sim.server);
  await new Promise<void>((resolve) => sim.server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => sim.close());
  const { port } = sim.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}${sim.config.base_path}`, traces };
}

describe('simulator traces and dispatch times', () => {
  it('join the client exchanges, in causal order, on one clock', async () => {
    const { baseUrl, traces } = await startTracedSim();
    const client = createChatClient({ baseUrl, token: DEMO_TOKEN, timeoutMs: 10_000, now: epochNow });
    onTestFinished(() => client.close());
    const watch = watchDispatches();
    const questions = [
      'How do I request paid time off?',
      'What is the expense policy for travel?',
      'How do I reset my password?',
    ];
    const exchanges = await Promise.all(questions.map((message) => client.send({ message, stream: true })));
    watch.stop();
    const traced = traces.drain();
    expect(exchanges.map((e) => e.outcome)).toEqual(['ok', 'ok', 'ok']);
    expect(traced.map((t) => t.message_id).sort()).toEqual(exchanges.map((e) => e.message_id).sort());
    expect(traces.drain()).toEqual([]); // drained once
    expect(watch.writtenAt).toHaveLength(3);
    for (const t of traced) {
      expect(t.arrival).toBeLessThanOrEqual(t.first_call);
      expect(t.first_call).toBeLessThanOrEqual(t.first_flush);
      // a late first step may go out in the same write as the answer step: then the two are equal
      expect(t.first_call).toBeLessThanOrEqual(t.delta_call ?? Number.NaN);
      expect(t.first_flush).toBeLessThanOrEqual(t.delta_flush ?? Number.NaN);
      expect(t.delta_call).toBeLessThanOrEqual(t.delta_flush ?? Number.NaN);
      // the answer step is due 60 ms after the stream started, which is after the arrival; timers fire late, never early
      expect((t.delta_call ?? 0) - t.arrival).toBeGreaterThan(59.5);
    }
    const timings = exchanges.map((e, i) => ({
      message_id: e.message_id,
      sent: e.sent,
      written: watch.writtenAt[i] ?? Number.NaN,
      ttfp_ms: e.ttfp_ms,
      ttft_ms: e.ttft_ms,
      outcome: e.outcome,
    }));
    const { rows, unmatched } = decompose(timings, traced, 0, { first_part_ms: 0, first_answer_ms: 60 });
    expect(unmatched).toBe(0);
    for (const row of rows) {
      expect(row.client_send_ms).toBeGreaterThanOrEqual(0);
      expect(row.sim_read_ms).toBeGreaterThanOrEqual(0);
      // bytes reach the client after the simulator handed them over (same process, same clock)
      expect(row.client_first_part_ms).toBeGreaterThanOrEqual(0);
      expect(row.client_first_answer_ms).toBeGreaterThanOrEqual(0);
      expect(row.ttft_error_ms).toBeGreaterThanOrEqual(0);
    }
  });
});

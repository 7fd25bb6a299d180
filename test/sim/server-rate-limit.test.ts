// Rate limits over real HTTP with a fake clock: usage budgets (per user and global, charged with
// the engine's tokens, refusing until the window resets) and the gateway's requests-per-second
// token bucket (per token and global); the 429 body, Retry-After, and the counts in stats().
import { describe, expect, it } from 'vitest';
import { RateLimitedBodySchema } from '../../src/api/index.js';
import { TOKENS, call, startSim } from '../helpers/start-sim.js';

const CHAT = {
  path: '/chat/send-chat-message',
  body: { message: 'How many days of paid time off do I get?', stream: false },
};
const GET_PROJECT = '/user/projects/1/instructions';

function fakeClock(start = Date.parse('2026-01-05T10:00:00.000Z')) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('usage budgets', () => {
  it('a spent per-user budget refuses that user (and only that user) until the window resets', async () => {
    const clock = fakeClock();
    const sim = await startSim({
      now: clock.now,
      config: { rate_limits: { budgets: { per_user: { tokens: 1, window_s: 60 } } } },
    });
    expect((await call(sim, CHAT.path, { token: TOKENS.demo, body: CHAT.body })).status).toBe(200);
    clock.advance(10_000);
    for (let i = 0; i < 2; i += 1) {
      const refused = await call(sim, CHAT.path, { token: TOKENS.chatOnly, body: CHAT.body }); // same user as demo
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('50');
      expect(refused.json).toEqual({
        scope: 'user',
        reset_at: '2026-01-05T10:01:00.000Z',
        retry_after_seconds: 50,
        error_code: 'RATE_LIMITED',
        detail: expect.any(String),
      });
      expect(RateLimitedBodySchema.safeParse(refused.json).success).toBe(true);
    }
    expect((await call(sim, CHAT.path, { token: TOKENS.secondUser, body: CHAT.body })).status).toBe(200);
    clock.advance(50_000);
    expect((await call(sim, CHAT.path, { token: TOKENS.demo, body: CHAT.body })).status).toBe(200);
    expect(sim.stats().rate_limited).toEqual({ user: 2, global: 0, gateway: 0 });
  });

  it('the budget is charged with the tokens the engine produced, not per request', async () => {
    const probe = await startSim();
    await call(probe, CHAT.path, { token: TOKENS.demo, body: CHAT.body });
    const n = probe.stats().chat_tokens; // the same seed and question give the same answer
    expect(n).toBeGreaterThan(5);
    const requestsAdmitted = async (budget: number) => {
      const sim = await startSim({
        config: { rate_limits: { budgets: { per_user: { tokens: budget, window_s: 60 } } } },
      });
      let admitted = 0;
      for (let i = 0; i < 4; i += 1)
        if ((await call(sim, CHAT.path, { token: TOKENS.demo, body: CHAT.body })).status === 200) admitted += 1;
      return admitted;
    };
    expect(await requestsAdmitted(n)).toBe(1);
    expect(await requestsAdmitted(n + 1)).toBe(2);
    expect(await requestsAdmitted(2 * n + 1)).toBe(3);
  });

  it('a spent global budget refuses every user with scope "global"', async () => {
    const clock = fakeClock();
    const sim = await startSim({
      now: clock.now,
      config: { rate_limits: { budgets: { global: { tokens: 5, window_s: 30 } } } },
    });
    expect((await call(sim, CHAT.path, { token: TOKENS.demo, body: CHAT.body })).status).toBe(200);
    const refused = await call(sim, CHAT.path, { token: TOKENS.secondUser, body: CHAT.body });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ scope: 'global', retry_after_seconds: 30, error_code: 'RATE_LIMITED' });
    // Budgets are for chat: other operations go on.
    expect((await call(sim, GET_PROJECT, { token: TOKENS.demo })).status).toBe(200);
    expect(sim.stats().rate_limited.global).toBe(1);
  });
});

describe('gateway requests per second', () => {
  it('a per-token bucket refuses past its burst, per token, with Retry-After rounded up', async () => {
    const clock = fakeClock();
    const sim = await startSim({
      now: clock.now,
      config: { rate_limits: { requests_per_second: { per_token: { rate: 4, burst: 2 } } } },
    });
    expect((await call(sim, GET_PROJECT, { token: TOKENS.demo })).status).toBe(200);
    expect((await call(sim, GET_PROJECT, { token: TOKENS.demo })).status).toBe(200);
    const refused = await call(sim, GET_PROJECT, { token: TOKENS.demo });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1'); // 0.25 s → 1
    expect(refused.json).toMatchObject({
      scope: 'gateway',
      retry_after_seconds: 1,
      error_code: 'RATE_LIMITED',
      reset_at: '2026-01-05T10:00:00.250Z',
    });
    expect((await call(sim, GET_PROJECT, { token: TOKENS.secondUser })).status).toBe(404); // its own bucket
    clock.advance(250);
    expect((await call(sim, GET_PROJECT, { token: TOKENS.demo })).status).toBe(200);
    expect(sim.stats().rate_limited).toEqual({ user: 0, global: 0, gateway: 1 });
  });

  it('a global bucket applies before routing and auth, to every request', async () => {
    const clock = fakeClock();
    const sim = await startSim({
      now: clock.now,
      config: { rate_limits: { requests_per_second: { global: { rate: 0.4, burst: 1 } } } },
    });
    expect((await call(sim, '/nowhere')).status).toBe(404);
    const refused = await call(sim, GET_PROJECT, { token: TOKENS.demo });
    expect([refused.status, refused.headers['retry-after']]).toEqual([429, '3']); // 2.5 s → 3
    clock.advance(2_500);
    expect((await call(sim, GET_PROJECT, { token: TOKENS.demo })).status).toBe(200);
    expect(sim.stats().http['project-instructions']).toEqual({ '200': 1, '429': 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { createLoadCounters } from './load-run.js';
import { CHARS_PER_TOKEN, createLoadTicker, type LoadTick } from './load-ticker.js';

/** A ticker on a fake clock; its timer never fires (1 h), stop() emits the tick under test. */
function ticker(windowMs = 5000) {
  let t = 0;
  const ticks: LoadTick[] = [];
  const live = createLoadTicker({
    counters: createLoadCounters(),
    now: () => t,
    zero: 0,
    onTick: (tick) => void ticks.push(tick),
    intervalMs: 3_600_000,
    windowMs,
  });
  return { live, ticks, at: (ms: number) => void (t = ms) };
}

describe('the live output tokens/s estimate (issue 27 §6: from characters, never the tokenizer on the request path)', () => {
  it('is the answer characters ended in the window ÷ CHARS_PER_TOKEN ÷ the window seconds', () => {
    const { live, ticks, at } = ticker();
    at(1_000);
    live.observe(100, 200, 4_000); // leaves the window before the tick
    at(7_000);
    live.observe(100, 200, 2_000);
    live.observe(null, null, 0); // a failed request: nothing
    at(9_000);
    live.observe(100, 200, 2_000);
    live.stop();
    expect(ticks.at(-1)!.output_tokens_per_s_est).toBeCloseTo(4_000 / CHARS_PER_TOKEN / 5);
  });

  it('spans the time since the start while it is shorter than the window, and is null without answers', () => {
    const first = ticker();
    first.at(2_000);
    first.live.observe(50, 60, 800);
    first.live.stop();
    expect(first.ticks.at(-1)!.output_tokens_per_s_est).toBeCloseTo(800 / CHARS_PER_TOKEN / 2);
    const none = ticker();
    none.at(2_000);
    none.live.observe(50, null);
    none.live.stop();
    expect(none.ticks.at(-1)!.output_tokens_per_s_est).toBeNull();
  });
});

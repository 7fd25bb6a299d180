import { describe, expect, it } from 'vitest';
import { createProgress, type RunProgress } from './progress.js';
import { CHARS_PER_TOKEN } from './load-ticker.js';

describe("the eval's progress: output tokens/s estimated from characters (no tokenizer on the request path)", () => {
  it('is the ok answers’ characters ÷ CHARS_PER_TOKEN ÷ the seconds since the start; null before any', () => {
    let t = 0;
    let answerChars = 0;
    const seen: RunProgress[] = [];
    const progress = createProgress({
      total: 10,
      now: () => t,
      runStart: 0,
      intervalMs: 3_600_000,
      onProgress: (p) => void seen.push(p),
      snapshot: () => ({
        done: 2,
        sent: 2,
        skipped: 0,
        inFlight: 0,
        outcomes: {} as RunProgress['outcomes'],
        answerChars,
      }),
    });
    t = 1_000;
    progress.tick();
    answerChars = 8_000;
    t = 4_000;
    progress.finish();
    expect(seen.map((p) => p.outputTokensPerSEst)).toEqual([null, 8_000 / CHARS_PER_TOKEN / 4]);
  });
});

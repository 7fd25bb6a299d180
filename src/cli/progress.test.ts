import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressView, formatProgress } from './progress.js';

const tick = {
  done: 120,
  total: 400,
  outcomes: { ok: 117, rate_limited: 2, http_error: 1 },
  inFlight: 8,
  ratePerS: 12.3,
};

describe('progress', () => {
  it('formats counts, rate and ETA', () => {
    expect(formatProgress(tick)).toBe('120/400 30% · ok 117 · errors 1 · 429s 2 · 12.3/s · in flight 8 · ETA 23s');
    expect(formatProgress({ ...tick, done: 400 })).not.toContain('ETA');
    expect(formatProgress({ ...tick, done: 0, ratePerS: 0 })).not.toContain('ETA');
  });

  it('shows the output tokens/s estimate from characters, marked ≈, once an answer ended', () => {
    expect(formatProgress({ ...tick, outputTokensPerSEst: 1234.5 })).toBe(
      '120/400 30% · ok 117 · errors 1 · 429s 2 · 12.3/s · ≈1,235 tok/s · in flight 8 · ETA 23s',
    );
    expect(formatProgress({ ...tick, outputTokensPerSEst: null })).not.toContain('tok/s');
  });

  it('counts skipped conversation turns apart from errors (nothing was sent for them)', () => {
    const withSkipped = { ...tick, done: 123, outcomes: { ...tick.outcomes, skipped: 3 } };
    expect(formatProgress(withSkipped)).toBe(
      '123/400 30% · ok 117 · errors 1 · skipped 3 · 429s 2 · 12.3/s · in flight 8 · ETA 23s',
    );
  });

  it('writes a plain line at most every interval when not a terminal, and always the last one', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d) => (text += d));
    let t = 0;
    const view = createProgressView(out, { plainEveryMs: 5000, now: () => t });
    view.update(tick);
    t = 1000;
    view.update({ ...tick, done: 130 });
    t = 6000;
    view.update({ ...tick, done: 200 });
    view.update({ ...tick, done: 400 });
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ')[0]),
    ).toEqual(['120/400', '200/400', '400/400']);
  });

  it('rewrites one line in place on a terminal and clears it on stop', () => {
    const out = Object.assign(new PassThrough(), { isTTY: true });
    let text = '';
    out.on('data', (d) => (text += d));
    const view = createProgressView(out);
    view.update(tick);
    view.update({ ...tick, done: 121 });
    view.stop();
    expect(text).not.toContain('\n');
    expect(text.endsWith('\r\x1b[2K')).toBe(true);
  });
});

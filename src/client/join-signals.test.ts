import { describe, expect, it } from 'vitest';
import { joinSignals } from './join-signals.js';

describe('joinSignals', () => {
  it('aborts with the reason of the first source that aborts', () => {
    const run = new AbortController();
    const request = new AbortController();
    const joined = joinSignals([run.signal, request.signal]);
    expect(joined.signal.aborted).toBe(false);
    request.abort('left');
    expect(joined.signal.aborted).toBe(true);
    expect(joined.signal.reason).toBe('left');
    run.abort('stop');
    expect(joined.signal.reason).toBe('left');
  });

  it('is aborted at once when a source already is', () => {
    const run = new AbortController();
    run.abort('before');
    const joined = joinSignals([new AbortController().signal, run.signal]);
    expect(joined.signal.aborted).toBe(true);
    expect(joined.signal.reason).toBe('before');
    joined.release();
  });

  it('once released, no longer follows its sources: a run-wide signal keeps nothing of finished requests', () => {
    const run = new AbortController();
    const finished = Array.from({ length: 1000 }, () => {
      const joined = joinSignals([run.signal]);
      joined.release();
      joined.release(); // a second release does nothing
      return joined.signal;
    });
    const live = joinSignals([run.signal]);
    run.abort('interrupt');
    expect(finished.filter((signal) => signal.aborted)).toHaveLength(0);
    expect(live.signal.reason).toBe('interrupt');
  });
});

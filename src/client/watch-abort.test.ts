import { describe, expect, it } from 'vitest';
import { watchAbort } from './chat-client.js';

describe('watchAbort: one listener per signal', () => {
  it('calls every watcher still waiting, in the order added, once', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    watchAbort(controller.signal, () => calls.push('a'));
    const stopB = watchAbort(controller.signal, () => calls.push('b'));
    watchAbort(controller.signal, () => calls.push('c'));
    stopB();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'c']);
  });

  it('a watcher stopped during the abort by another is skipped, as a removed listener is', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    let stopSecond = () => {};
    watchAbort(controller.signal, () => {
      calls.push('first');
      stopSecond();
    });
    stopSecond = watchAbort(controller.signal, () => calls.push('second'));
    controller.abort();
    expect(calls).toEqual(['first']);
  });
});

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

  it('takes its listener off the signal when the last watcher stops, and puts one back for the next', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const added: string[] = [];
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: AddEventListenerOptions,
    ) => {
      added.push(`+${type}`);
      add(type, listener, options);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, listener: EventListenerOrEventListenerObject) => {
      added.push(`-${type}`);
      remove(type, listener);
    }) as typeof signal.removeEventListener;
    const stopA = watchAbort(signal, () => calls.push('a'));
    const stopB = watchAbort(signal, () => calls.push('b'));
    stopA();
    stopB();
    watchAbort(signal, () => calls.push('c'));
    controller.abort();
    expect(added).toEqual(['+abort', '-abort', '+abort']);
    expect(calls).toEqual(['c']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterMs, createRecordQueue, RECORD_BATCH_MS } from './record-queue.js';

/** A deferral the test runs by hand, standing in for setImmediate. */
function manualDefer() {
  const drains: Array<() => void> = [];
  return {
    defer: (drain: () => void) => void drains.push(drain),
    runAll: () => drains.splice(0).forEach((d) => d()),
    get scheduled() {
      return drains.length;
    },
  };
}

describe('createRecordQueue', () => {
  it('handles nothing in push(), everything in order at the deferred drain, with one drain per batch', () => {
    const seen: number[] = [];
    const d = manualDefer();
    const queue = createRecordQueue((n: number) => seen.push(n), d.defer);
    queue.push(1);
    queue.push(2);
    queue.push(3);
    expect(seen).toEqual([]);
    expect(queue.pending).toBe(3);
    expect(d.scheduled).toBe(1);
    d.runAll();
    expect(seen).toEqual([1, 2, 3]);
    expect(queue.pending).toBe(0);
    queue.push(4);
    expect(d.scheduled).toBe(1);
    d.runAll();
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('flush() handles what is queued at once; a drain scheduled before it finds nothing left', () => {
    const seen: string[] = [];
    const d = manualDefer();
    const queue = createRecordQueue((s: string) => seen.push(s), d.defer);
    queue.push('a');
    queue.push('b');
    queue.flush();
    expect(seen).toEqual(['a', 'b']);
    d.runAll();
    expect(seen).toEqual(['a', 'b']);
  });

  it('keeps handling the others when one throws, and throws the first error at the next push and at flush', () => {
    const seen: number[] = [];
    const d = manualDefer();
    const queue = createRecordQueue((n: number) => {
      if (n % 2 === 0) throw new Error(`bad ${n}`);
      seen.push(n);
    }, d.defer);
    for (const n of [1, 2, 3, 4, 5]) queue.push(n);
    d.runAll();
    expect(seen).toEqual([1, 3, 5]);
    expect(() => queue.push(6)).toThrow('bad 2');
    expect(() => queue.flush()).toThrow('bad 2');
  });

  it('drains on the real event loop after the current callback, not inside it', async () => {
    const order: string[] = [];
    const queue = createRecordQueue((s: string) => order.push(s));
    queue.push('record');
    order.push('rest of the callback');
    await Promise.resolve();
    order.push('microtasks');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual(['rest of the callback', 'microtasks', 'record']);
  });

  describe("afterMs: a load run's batches", () => {
    afterEach(() => void vi.useRealTimers());

    it('handles the records of a batch together, RECORD_BATCH_MS after the first came, with one timer a batch', () => {
      vi.useFakeTimers();
      const seen: number[] = [];
      const queue = createRecordQueue((n: number) => seen.push(n), afterMs(RECORD_BATCH_MS));
      queue.push(1);
      vi.advanceTimersByTime(RECORD_BATCH_MS - 1);
      queue.push(2);
      expect(seen).toEqual([]);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(seen).toEqual([1, 2]);
      expect(vi.getTimerCount()).toBe(0);
      queue.push(3);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(RECORD_BATCH_MS);
      expect(seen).toEqual([1, 2, 3]);
    });

    it("flush() at the run's end handles what waits at once; the timer then finds nothing left", () => {
      vi.useFakeTimers();
      const seen: number[] = [];
      const queue = createRecordQueue((n: number) => seen.push(n), afterMs(RECORD_BATCH_MS));
      queue.push(1);
      queue.flush();
      expect(seen).toEqual([1]);
      vi.runAllTimers();
      expect(seen).toEqual([1]);
    });
  });
});

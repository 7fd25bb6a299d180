import { expect, it } from 'vitest';
import {
  collectGarbage,
  collectGarbageEvery,
  collectGarbageIfGrown,
  collectGarbageIfHeld,
  withTightHeap,
} from './heap.js';

it('collectGarbageEvery collects once every N records, never between', () => {
  let collections = 0;
  const tick = collectGarbageEvery(3, () => (collections += 1));
  const seen: number[] = [];
  for (let i = 1; i <= 10; i += 1) {
    tick();
    seen.push(collections);
  }
  expect(seen).toEqual([0, 0, 1, 1, 1, 2, 2, 2, 3, 3]);
});

it('collectGarbage runs a full collection without --expose-gc, again and again', () => {
  expect(() => {
    collectGarbage();
    collectGarbage();
  }).not.toThrow();
});

it('collectGarbageIfGrown collects only once the heap grew past the growth since the last collection', () => {
  collectGarbage();
  expect(collectGarbageIfGrown(Number.MAX_SAFE_INTEGER)).toBe(false);
  // Held until the check: 4 MB of live objects past the last collection's heap.
  const held = Array.from({ length: 64 }, () => new Array<number>(8192).fill(1.5));
  expect(collectGarbageIfGrown(1024 * 1024)).toBe(true);
  expect(collectGarbageIfGrown(1024 * 1024)).toBe(false); // measured again from this collection
  expect(held.length).toBe(64);
});

it('collectGarbageIfHeld collects when the last collection left much live past the least, which collectGarbageIfGrown leaves', () => {
  collectGarbage();
  // 4 MB live at the next collection (a run's data at the reports' last one), then dropped.
  let held: number[][] | null = Array.from({ length: 64 }, () => new Array<number>(8192).fill(1.5));
  collectGarbage();
  expect(held.length).toBe(64);
  held = null;
  expect(collectGarbageIfGrown(Number.MAX_SAFE_INTEGER)).toBe(false); // the heap did not grow since
  expect(collectGarbageIfHeld(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(false);
  expect(collectGarbageIfHeld(Number.MAX_SAFE_INTEGER, 1024 * 1024)).toBe(true);
  expect(held).toBeNull();
});

it('withTightHeap sets the growth once for nested calls and puts it back when the outermost ends, thrown or not', async () => {
  const set: string[] = [];
  const setFlags = (flags: string) => void set.push(flags);
  const value = await withTightHeap(
    async () => {
      await expect(
        withTightHeap(
          () => {
            throw new Error('a report failed');
          },
          { setFlags },
        ),
      ).rejects.toThrow('a report failed');
      expect(set).toEqual(['--heap-growing-percent=20']); // still tight for the outer call
      return 'reports';
    },
    { setFlags },
  );
  expect(value).toBe('reports');
  expect(set).toEqual(['--heap-growing-percent=20', '--heap-growing-percent=0']);
  await expect(withTightHeap(() => Promise.reject(new Error('x')), { percent: 50, setFlags })).rejects.toThrow('x');
  expect(set.slice(2)).toEqual(['--heap-growing-percent=50', '--heap-growing-percent=0']);
});

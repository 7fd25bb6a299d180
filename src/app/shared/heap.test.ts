import { expect, it } from 'vitest';
import { collectGarbage, collectGarbageEvery, collectGarbageIfGrown } from './heap.js';

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

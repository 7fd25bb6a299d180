import { expect, it } from 'vitest';
import { collectGarbage, collectGarbageEvery } from './heap.js';

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

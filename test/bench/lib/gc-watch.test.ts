import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { watchGc } from './gc-watch.js';

it('counts the pauses of the collections that allocation causes, then stops counting', async () => {
  const watch = watchGc();
  let keep: number[][] = [];
  for (let i = 0; i < 200_000; i++) {
    keep.push([i, i + 1, i + 2]); // ~20 MB through the young generation: several scavenges
    if (keep.length > 1_000) keep = [];
  }
  await sleep(20); // entries arrive asynchronously
  const pauses = watch.read();
  expect(pauses.count).toBeGreaterThan(0);
  expect(pauses.total_ms).toBeGreaterThanOrEqual(pauses.max_ms);
  watch.stop();
  expect(watch.read()).toEqual(pauses);
});

import { describe, expect, it } from 'vitest';
import { inShard } from '../../../plan/shard.js';
import { isLoopback, parseWorkers, resolveWorkers, shareOf, workerShard } from './split.js';

describe('workerShard', () => {
  it('gives worker w of N the requests k ≡ w (mod N), whole', () => {
    for (let k = 0; k < 50; k++) {
      const owners = [0, 1, 2].filter((w) => inShard(k, workerShard(null, w, 3)));
      expect(owners).toEqual([k % 3]);
    }
  });

  it("inside --shard i/M, splits the shard's own requests again: worker w takes its requests number j with j mod N = w", () => {
    for (const [index, count] of [
      [1, 2],
      [2, 2],
      [3, 4],
    ] as const) {
      const shard = { index, count };
      const mine = Array.from({ length: 200 }, (_, k) => k).filter((k) => inShard(k, shard));
      for (let w = 0; w < 3; w++) {
        const worker = Array.from({ length: 200 }, (_, k) => k).filter((k) => inShard(k, workerShard(shard, w, 3)));
        expect(worker).toEqual(mine.filter((_, j) => j % 3 === w));
      }
    }
  });

  it('one worker is the shard itself', () => {
    expect(workerShard({ index: 2, count: 5 }, 0, 1)).toEqual({ index: 2, count: 5 });
    expect(workerShard(null, 0, 1)).toBeNull();
  });
});

describe('shareOf', () => {
  it('splits a bound into shares that add up to it and differ by at most one, each at least 1', () => {
    for (const total of [1, 7, 16, 1000]) {
      const shares = [0, 1, 2].map((w) => shareOf(total, w, 3));
      if (total >= 3) expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      expect(Math.min(...shares)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('--workers', () => {
  it('parses N or auto, and words a bad value', () => {
    expect(parseWorkers('auto')).toBe('auto');
    expect(parseWorkers('4')).toBe(4);
    expect(parseWorkers(2)).toBe(2);
    expect(parseWorkers('0')).toBe('--workers: 0 is outside 1..64');
    expect(parseWorkers('-1')).toBe('--workers: "-1" is not a whole number or auto');
    expect(parseWorkers('two')).toBe('--workers: "two" is not a whole number or auto');
  });

  it('auto: cores − 1 for a remote target, 1 on loopback or the embedded simulator', () => {
    expect(resolveWorkers('auto', { url: 'https://chat.example.com/api', cores: 8 })).toEqual({
      count: 7,
      reason: 'auto: 8 cores − 1',
    });
    expect(resolveWorkers('auto', { url: 'https://chat.example.com', cores: 1 }).count).toBe(1);
    expect(resolveWorkers('auto', { url: 'http://127.0.0.1:8080', cores: 8 })).toEqual({
      count: 1,
      reason: 'auto: the target is on this machine',
    });
    expect(resolveWorkers('auto', { url: null, cores: 8 }).count).toBe(1);
    expect(resolveWorkers(3, { url: 'http://localhost', cores: 8 })).toEqual({ count: 3, reason: '--workers' });
  });

  it('knows loopback addresses', () => {
    for (const url of [
      'http://localhost:3000',
      'http://127.0.0.1',
      'http://127.1.2.3:9',
      'http://[::1]:80',
      'http://app.localhost',
    ])
      expect(isLoopback(url), url).toBe(true);
    for (const url of ['http://10.0.0.1', 'https://example.com', 'http://[::2]', 'not a url'])
      expect(isLoopback(url), url).toBe(false);
  });
});

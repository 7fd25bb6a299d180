import { describe, expect, it } from 'vitest';
import { createFirstLines, createStringColumn } from './string-column.js';

describe('createFirstLines', () => {
  it('gives the first line of an id seen again, undefined for a new one', () => {
    const lines = createFirstLines();
    expect(lines.seen('q1', 2)).toBeUndefined();
    expect(lines.seen('q2', 3)).toBeUndefined();
    expect(lines.seen('q1', 4)).toBe(2);
    expect(lines.seen('q1', 5)).toBe(2);
    expect(lines.seen('', 6)).toBeUndefined();
    expect(lines.seen('', 7)).toBe(6);
    expect(lines.seen('漢字 é', 8)).toBeUndefined();
    expect(lines.seen('漢字 é', 9)).toBe(8);
  });

  it('tells apart ids of one 32-bit hash ("costarring" and "liquid" collide under FNV-1a)', () => {
    const lines = createFirstLines();
    expect(lines.seen('costarring', 2)).toBeUndefined();
    expect(lines.seen('liquid', 3)).toBeUndefined();
    expect(lines.seen('liquid', 4)).toBe(3);
    expect(lines.seen('costarring', 5)).toBe(2);
  });

  it('a hundred thousand ids: each new once, each seen again with its line', () => {
    const lines = createFirstLines();
    // Asserted once each: an expect() per id cost more than the ids.
    const seenBefore: number[] = [];
    for (let i = 0; i < 100_000; i += 1) if (lines.seen(`id-${i}`, i + 2) !== undefined) seenBefore.push(i);
    expect(seenBefore).toEqual([]);
    const wrongLine: number[] = [];
    for (let i = 0; i < 100_000; i += 997) if (lines.seen(`id-${i}`, 0) !== i + 2) wrongLine.push(i);
    expect(wrongLine).toEqual([]);
  });
});

describe('createStringColumn', () => {
  it('gives back each string added, past its first buffer', () => {
    const column = createStringColumn();
    const texts = Array.from({ length: 5000 }, (_, i) => `${'é'.repeat(i % 40)}#${i}`);
    for (const text of texts) column.add(text);
    expect(texts.map((_, i) => column.get(i))).toEqual(texts);
  });
});

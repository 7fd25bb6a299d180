import { describe, expect, it } from 'vitest';
import { createGapRecorder, parseSchedstat, type Gap } from './gaps.mjs';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseSchedstat', () => {
  it.each([
    ['1500000 250000 12\n', { cpuMs: 1.5, waitMs: 0.25 }],
    ['0 0 0\n', { cpuMs: 0, waitMs: 0 }],
    ['123456789012 1 3', { cpuMs: 123456.789012, waitMs: 0.000001 }],
  ])('%j', (text, expected) => {
    const b = bytes(text);
    expect(parseSchedstat(b, b.length)).toEqual(expected);
  });

  it.each(['', 'x 1 2', '12', ' 1 2'])('%j is not schedstat', (text) => {
    const b = bytes(text);
    expect(parseSchedstat(b, b.length)).toBeNull();
  });

  it('reads only `length` bytes of a reused buffer', () => {
    const b = new Uint8Array(32).fill(57); // '9' past the end must not be read
    b.set(bytes('2000000 1000000 1\n'));
    expect(parseSchedstat(b, 18)).toEqual({ cpuMs: 2, waitMs: 1 });
  });
});

describe('createGapRecorder', () => {
  it('keeps gaps over either threshold, split into CPU and run-queue wait, on an injected clock', () => {
    const kept: Gap[] = [];
    const recorder = createGapRecorder({ cpuMs: 3, wallMs: 6 }, (gap) => kept.push(gap));
    // [t, cpu, wait] as the ticks would read them.
    const ticks: [number, number, number][] = [
      [0, 0, 0],
      [1, 0.2, 0], // an ordinary tick
      [9, 4.2, 0.5], // 8 ms wall, 4 ms CPU: both over
      [10.5, 8.7, 0.5], // 1.5 ms wall with 4.5 ms CPU cannot happen, but the CPU threshold alone keeps it
      [30.5, 9, 15.5], // 20 ms standing still: 0.3 CPU, 15 waiting, the rest blocked
      [31.5, 9.1, 15.5],
    ];
    for (const [t, cpu, wait] of ticks) recorder.tick(t, cpu, wait);
    expect(kept.map((g) => ({ ...g, cpu: +g.cpu.toFixed(3), wait: +g.wait.toFixed(3) }))).toEqual([
      { at: 1, wall: 8, cpu: 4, wait: 0.5 },
      { at: 9, wall: 1.5, cpu: 4.5, wait: 0 },
      { at: 10.5, wall: 20, cpu: 0.3, wait: 15 },
    ]);
  });

  it('keeps nothing from the first tick alone', () => {
    const kept: Gap[] = [];
    createGapRecorder({ cpuMs: 0, wallMs: 0 }, (gap) => kept.push(gap)).tick(5, 100, 100);
    expect(kept).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { GROUPS, heldBetween, ownGroup, parseStatBusy } from './held.mjs';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseStatBusy', () => {
  it('sums user, nice, system, irq, softirq and steal of the first line, in ms', () => {
    const b = bytes('cpu  100 2 30 9999 7 1 4 5 0 0\ncpu0 50 1 15 5000 3 0 2 2 0 0\n');
    expect(parseStatBusy(b, b.length)).toBe((100 + 2 + 30 + 1 + 4 + 5) * 10);
  });

  it('reads a line cut short by the buffer, and only `length` bytes', () => {
    const b = new Uint8Array(64).fill(57);
    b.set(bytes('cpu  1 0 2 50 0'));
    expect(parseStatBusy(b, 15)).toBe(30);
  });

  it.each(['', 'cpu0 1 2 3 4', 'intr 1 2 3 4', 'cpu  1 2'])('%j is not /proc/stat', (text) => {
    const b = bytes(text);
    expect(parseStatBusy(b, b.length)).toBeNull();
  });
});

describe('ownGroup', () => {
  it.each([
    [100, 0],
    [101, 1],
    [106, 1],
    [107, 2],
    [110, 2],
    [130, 3],
  ])('thread %i of a process whose main thread is 100 is in group %i', (tid, group) => {
    // 6 platform threads, then libuv's 4, as Node 20 starts them before the preload runs
    const atStart = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110];
    expect(ownGroup(tid, 100, atStart, 4)).toBe(group);
    expect(GROUPS[group]).toBeDefined();
  });
});

describe('heldBetween', () => {
  const groups = (...cpu: number[]) => GROUPS.map((_, i) => cpu[i] ?? 0);

  it("splits a bracket's busy time into each group's CPU and the other processes'", () => {
    const before = { t: 100, machineMs: 1_000, groups: groups(50, 10, 4, 0, 200, 5) };
    const after = { t: 130, machineMs: 1_060, groups: groups(52, 13, 5, 1, 220, 5) };
    expect(heldBetween(before, after)).toEqual({ span: 30, groups: groups(2, 3, 1, 1, 20, 0), other: 33 });
  });

  it('never counts below 0 (an ended thread, /proc/stat counting in 10 ms steps)', () => {
    const before = { t: 0, machineMs: 500, groups: groups(10, 8) };
    const after = { t: 5, machineMs: 500, groups: groups(14, 2) };
    expect(heldBetween(before, after)).toEqual({ span: 5, groups: groups(4, 0), other: 0 });
  });
});

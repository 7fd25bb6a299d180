import { describe, expect, it } from 'vitest';
import { summarise, windowOf, type LoggedLine } from './summary.js';

const gap = (at: number, wall: number, cpu: number, wait: number): LoggedLine => ({ k: 'gap', at, wall, cpu, wait });
const gc = (at: number, dur: number, kind: string, flags = 0): LoggedLine => ({ k: 'gc', at, dur, kind, flags });

describe('summarise', () => {
  const lines: LoggedLine[] = [
    { k: 'origin', epoch: 1_000_000, mono_us: 5 },
    gap(50, 300, 120, 150), // before the window (loading): not counted
    gc(60, 40, 'mark-compact'),
    gap(1000, 8, 6, 1), // 6 ms own CPU
    gap(2000, 13, 11, 1), // 11 ms own CPU
    gap(2500, 40, 7, 30), // 7 ms of CPU right after 30 ms off the CPU: catching up
    gap(3000, 4, 3.5, 0), // over 3 only
    gap(4000, 30, 1, 9), // blocked 19 ms: a GC waiting for a helper thread
    gc(4001, 28, 'scavenge'),
    gc(5000, 1.5, 'scavenge'),
    gc(6000, 0.5, 'scavenge'),
    gc(7000, 7, 'mark-compact'),
    gc(8000, 12, 'mark-compact', 32), // the memory reducer's
    gc(9000, 30, 'mark-compact', 48), // external memory pressure: all garbage too
    gap(30_000, 500, 100, 300), // after the window (reports)
    { k: 'held', at: 40, wait: 150, span: 300, groups: [100, 50, 0, 80, 20], other: 300 }, // before the window
    { k: 'held', at: 2495, wait: 30, span: 45, groups: [7, 2, 0.4, 20, 1], other: 60.2 },
    { k: 'held', at: 3995, wait: 9, span: 36, groups: [1, 3, 0, 10, 0], other: 5 }, // the simulator held the core
  ];

  it('counts CPU gaps, GCs and where long gaps went, inside the window only', () => {
    expect(summarise(lines, [500, 20_000])).toEqual({
      cpuOver: { 3: 4, 5: 3, 10: 1 },
      ownOver5: 2,
      gcByKind: { scavenge: 3, 'mark-compact': 2, 'mark-compact (memory reducer)': 1 },
      gcPauses: [1, 1, 0, 1, 1, 2],
      longGaps: { count: 4, cpu: 25, wait: 41, blocked: 21 },
      blockedOver5: 1,
      held: { count: 2, span: 81, groups: [8, 5, 0, 30, 1], other: 65, ours: { count: 1, maxWait: 9 } },
    });
  });

  it('an empty window counts nothing', () => {
    expect(summarise(lines, [100_000, 200_000])).toEqual({
      cpuOver: { 3: 0, 5: 0, 10: 0 },
      ownOver5: 0,
      gcByKind: {},
      gcPauses: [0, 0, 0, 0, 0, 0],
      longGaps: { count: 0, cpu: 0, wait: 0, blocked: 0 },
      blockedOver5: 0,
      held: { count: 0, span: 0, groups: [], other: 0, ours: { count: 0, maxWait: 0 } },
    });
  });
});

describe('windowOf', () => {
  it("places generator.json's window on the preload's clock", () => {
    const lines: LoggedLine[] = [{ k: 'origin', epoch: Date.parse('2026-01-01T00:00:00.000Z') - 1500, mono_us: 0 }];
    expect(windowOf(lines, { started_at: '2026-01-01T00:00:00.000Z', duration_ms: 20_000 })).toEqual([1500, 21_500]);
  });

  it('refuses a log without its origin', () => {
    expect(() => windowOf([], { started_at: '2026-01-01T00:00:00.000Z', duration_ms: 1 })).toThrow(/origin/);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScheduler, type ScheduledTask } from './scheduler.js';

afterEach(() => vi.useRealTimers());

const task = (due: number, log: string[], name: string): ScheduledTask => ({
  due,
  slot: -1,
  run: () => log.push(name),
});

describe('createScheduler', () => {
  it('runs tasks in due order on one timer, reports lag, and forgets cancelled ones', () => {
    vi.useFakeTimers();
    let clock = 0;
    const lags: number[] = [];
    const scheduler = createScheduler(
      (lag) => lags.push(lag),
      () => clock,
    );
    const log: string[] = [];
    const tasks = [task(30, log, 'c'), task(10, log, 'a'), task(20, log, 'b'), task(25, log, 'x'), task(40, log, 'd')];
    for (const t of tasks) scheduler.schedule(t);
    scheduler.cancel(tasks[3]!);
    scheduler.cancel(tasks[3]!); // twice is harmless
    expect(scheduler.size).toBe(4);
    expect(vi.getTimerCount()).toBe(1);
    clock = 12;
    vi.advanceTimersByTime(12);
    expect(log).toEqual(['a']);
    expect(lags).toEqual([2]);
    clock = 45;
    vi.advanceTimersByTime(40);
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    expect(lags).toEqual([2, 25, 15, 5]);
    expect(scheduler.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
  it('a task may schedule the next one from inside run(); close() clears everything', () => {
    vi.useFakeTimers();
    let clock = 0;
    const scheduler = createScheduler(
      () => {},
      () => clock,
    );
    let runs = 0;
    const t: ScheduledTask = {
      due: 5,
      slot: -1,
      run: () => {
        runs++;
        t.due += 5;
        scheduler.schedule(t);
      },
    };
    scheduler.schedule(t);
    for (let i = 1; i <= 4; i++) {
      clock = i * 5;
      vi.advanceTimersByTime(5);
    }
    expect(runs).toBe(4);
    scheduler.close();
    expect(scheduler.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
  it('keeps heap order under random inserts and cancels', () => {
    vi.useFakeTimers();
    let clock = 0;
    const scheduler = createScheduler(
      () => {},
      () => clock,
    );
    const ran: number[] = [];
    const tasks = Array.from({ length: 500 }, (_, i) => ({ due: (i * 7919) % 1000, slot: -1, run: () => ran.push(i) }));
    tasks.forEach((t) => scheduler.schedule(t));
    tasks.filter((_, i) => i % 3 === 0).forEach((t) => scheduler.cancel(t));
    clock = 2000;
    vi.advanceTimersByTime(2000);
    const dues = ran.map((i) => tasks[i]!.due);
    expect(ran).toHaveLength(tasks.length - Math.ceil(tasks.length / 3));
    expect(dues).toEqual([...dues].sort((a, b) => a - b));
  });
});

/**
 * @module bench/lib/gc-watch
 * Garbage-collection pauses of this process, from perf_hooks' 'gc' entries. With the event-loop
 * delay and the CPU time this tells a process's own stall (a long GC, a long callback) from the
 * kernel giving its core to another process (a long loop delay with no GC and little CPU).
 */
import { PerformanceObserver } from 'node:perf_hooks';

/** Pauses since the watch began, ms. */
export interface GcPauses {
  count: number;
  total_ms: number;
  max_ms: number;
}

export interface GcWatch {
  /** The pauses so far (entries are delivered asynchronously: read after an await). */
  read(): GcPauses;
  stop(): void;
}

/** Starts counting GC pauses. */
export function watchGc(): GcWatch {
  const pauses: GcPauses = { count: 0, total_ms: 0, max_ms: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pauses.count++;
      pauses.total_ms += entry.duration;
      pauses.max_ms = Math.max(pauses.max_ms, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    read: () => ({ count: pauses.count, total_ms: round(pauses.total_ms), max_ms: round(pauses.max_ms) }),
    stop: () => observer.disconnect(),
  };
}

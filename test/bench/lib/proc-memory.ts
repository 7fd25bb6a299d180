/**
 * @module bench/lib/proc-memory
 * A live process's resident memory from /proc, for the memory benchmarks: VmRSS now, and VmHWM, the
 * kernel's high-water mark, which no sampling interval can miss.
 */
import { readFileSync } from 'node:fs';

/** VmRSS and VmHWM of a live process, MB to 0.1; null once it is gone. */
export function procMemory(pid: number): { rss: number; hwm: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return { rss: Math.round(kb('VmRSS') / 102.4) / 10, hwm: Math.round(kb('VmHWM') / 102.4) / 10 };
  } catch {
    return null;
  }
}

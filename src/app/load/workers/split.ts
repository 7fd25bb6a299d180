/**
 * @module app/load/workers/split
 * How `--workers N` splits one run across worker threads, exactly as shards split it (plan/shard.ts,
 * plan/arrivals.ts): worker w (from 0) of N takes the requests (arrivals, users, conversation units)
 * whose number k has k mod N = w. Inside `--shard i/M` the shard's own requests are split again the
 * same way, which is itself a shard of a finer split: k ≡ i − 1 (mod M) and ⌊k / M⌋ ≡ w (mod N) is
 * k ≡ (i − 1) + M·w (mod M·N), the shard ((i − 1) + M·w + 1)/(M·N). So a worker runs the very code
 * a shard runs, with that shard, and `merge` checks its records like any shard's. Pure.
 */
import { isIP } from 'node:net';
import type { Shard } from '../../../plan/shard.js';
import type { LoadSpec } from '../../../plan/load-plan.js';

/** The most worker threads a run may start (a thread per core of a large machine; beyond it, shard across machines). */
export const MAX_WORKERS = 64;

/** Worker `w` (from 0) of `count` inside `shard` (null: the whole plan), as a shard of the finer split. */
export function workerShard(shard: Shard | null, w: number, count: number): Shard | null {
  if (count === 1) return shard;
  const outer = shard ?? { index: 1, count: 1 };
  return { index: outer.index - 1 + outer.count * w + 1, count: outer.count * count };
}

/** Worker w's fair share of `total` (the shares of every worker add up to it, and differ by at most one); at least `min`. */
export function shareOf(total: number, w: number, count: number, min = 1): number {
  return Math.max(min, Math.floor((total - w + count - 1) / count));
}

/**
 * The spec worker w runs: its shard, and its share of the open model's in-flight bound and
 * connections (the closed model's users are split by the shard itself).
 */
export function workerSpec(spec: LoadSpec, w: number, count: number): LoadSpec {
  if (count === 1) return spec;
  return {
    ...spec,
    shard: workerShard(spec.shard, w, count),
    max_in_flight: spec.max_in_flight === undefined ? spec.max_in_flight : shareOf(spec.max_in_flight, w, count),
    connections: spec.connections == null ? spec.connections : shareOf(spec.connections, w, count),
  };
}

/** `--workers`: a whole number from 1, or `auto`. Returns a message for the caller to wrap, or the choice. */
export function parseWorkers(value: unknown): number | 'auto' | string {
  const text = String(value).trim();
  if (text === 'auto') return 'auto';
  if (!/^\d+$/.test(text)) return `--workers: "${text}" is not a whole number or auto`;
  const n = Number(text);
  if (n < 1 || n > MAX_WORKERS) return `--workers: ${n} is outside 1..${MAX_WORKERS}`;
  return n;
}

export interface WorkerChoice {
  readonly count: number;
  /** Why this many, for the start line. */
  readonly reason: string;
}

/**
 * `auto`: cores − 1 (one core left to the parent thread, which writes records, and to the rest of
 * the machine) when the target is elsewhere; 1 when it is on loopback, where the target shares the
 * machine's cores and more threads would take them from it.
 */
export function resolveWorkers(option: number | 'auto', target: { url: string | null; cores: number }): WorkerChoice {
  if (option !== 'auto') return { count: option, reason: '--workers' };
  if (target.url === null || isLoopback(target.url)) return { count: 1, reason: 'auto: the target is on this machine' };
  const count = Math.max(1, Math.min(MAX_WORKERS, target.cores - 1));
  return { count, reason: `auto: ${target.cores} cores − 1` };
}

export function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host.startsWith('::ffff:127.');
  return false;
}

/**
 * @module metrics/load-gaps
 * ITL of a load run: the gaps between successive answer deltas (`answer_gaps_ms` of each record) of
 * each window's `ok` requests, pooled, one sample per gap (`vllm bench serve`'s ITL; the eval's
 * `answer_gap_ms`, metrics/group-figures). A request belongs to the window of its arrival, as every
 * other load figure (metrics/load-window). The gaps go into one mergeable histogram per window
 * (metrics/pooled-latency), never into per-request arrays: memory stays flat for a million requests.
 * The windows' bounds are known only once every record was read, so the app feeds the records
 * through here in a second read of results.jsonl (app/load/render-load-reports).
 */
import type { RequestRecord } from '../records/record.js';
import type { LoadSummary, WindowName } from '../records/load-summary.js';
import type { LatencyStats } from '../records/summary.js';
import { arrivalOf, windowOf, type WindowBounds } from './load-window.js';
import { createPooledLatency, type PooledLatency } from './pooled-latency.js';

type GapRecord = Pick<RequestRecord, 'outcome' | 'scheduled_offset_ms' | 'sent_offset_ms' | 'answer_gaps_ms'>;

export interface LoadGapPools {
  add(record: GapRecord): void;
  /** The pooled ITL of each window; null where no gap was recorded. */
  stats(): Record<WindowName, LatencyStats | null>;
}

export function createLoadGapPools(bounds: Record<WindowName, WindowBounds>): LoadGapPools {
  const pools: Partial<Record<WindowName, PooledLatency>> = {};
  return {
    add(record) {
      // Failed requests are counted by outcome only, never mixed into latencies (as the eval's).
      if (record.outcome !== 'ok' || record.answer_gaps_ms.length === 0) return;
      const pool = (pools[windowOf(arrivalOf(record), bounds)] ??= createPooledLatency());
      for (const gap of record.answer_gaps_ms) pool.record(gap);
    },
    stats: () => ({
      warmup: pools.warmup?.stats() ?? null,
      measured: pools.measured?.stats() ?? null,
      cooldown: pools.cooldown?.stats() ?? null,
    }),
  };
}

/** `summary` with each window's `latency.answer_gap_ms` set from the pools. */
export function withLoadGaps(summary: LoadSummary, gaps: Record<WindowName, LatencyStats | null>): LoadSummary {
  const at = (name: WindowName) => ({
    ...summary.windows[name],
    latency: { ...summary.windows[name].latency, answer_gap_ms: gaps[name] },
  });
  return { ...summary, windows: { warmup: at('warmup'), measured: at('measured'), cooldown: at('cooldown') } };
}

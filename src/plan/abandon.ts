/**
 * @module plan/abandon
 * `load --abandon SHARE[@AFTER]`: which arrivals the client abandons, and after how long. Pure and
 * stateless: arrival `index`'s draw depends only on the seed and the index, so every shard and
 * worker decides the same arrival alike. AFTER is a duration (`2s`) or a range (`500ms-3s`, drawn
 * uniformly); without it, 500ms-5s.
 */
import type { LoadSpecShape } from '../records/load-spec.js';
import { uniformAt } from './load-plan.js';

export type Abandon = NonNullable<LoadSpecShape['abandon']>;

/** The default delay range when `--abandon` names only a share. */
export const DEFAULT_ABANDON_AFTER = { after_min_ms: 500, after_max_ms: 5000 } as const;

// Distinct streams of the seed, so that the draws do not repeat the question order's or each other's.
const WHO = 0x6a09e667;
const WHEN = 0x3c6ef372;

/** ms after the send at which arrival `index` is abandoned; null when it is not. */
export function abandonAfterMs(abandon: Abandon | null, seed: number, index: number): number | null {
  if (abandon === null || abandon.share <= 0) return null;
  if (uniformAt((seed ^ WHO) >>> 0, index) >= abandon.share) return null;
  const { after_min_ms: min, after_max_ms: max } = abandon;
  return min + uniformAt((seed ^ WHEN) >>> 0, index) * (max - min);
}

/**
 * Parses `SHARE[@AFTER]`: `0.1`, `0.1@2s`, `0.25@500ms-3s`. `parseDuration` reads one duration
 * (the CLI's); a problem is returned as a message naming the flag.
 */
export function parseAbandon(text: string, parseDuration: (text: string) => number): Abandon | string {
  const [shareText, after, ...rest] = text.split('@');
  const share = Number(shareText);
  if (
    rest.length > 0 ||
    shareText === undefined ||
    shareText.trim() === '' ||
    !Number.isFinite(share) ||
    share <= 0 ||
    share > 1
  ) {
    return `--abandon ${JSON.stringify(text)}: give SHARE[@AFTER], a share in (0, 1] and a delay or range, e.g. 0.1, 0.1@2s or 0.1@500ms-3s`;
  }
  if (after === undefined) return { share, ...DEFAULT_ABANDON_AFTER };
  const [lo, hi, ...more] = after.split('-');
  if (more.length > 0 || lo === undefined || lo === '')
    return `--abandon ${JSON.stringify(text)}: the delay is a duration (2s) or a range (500ms-3s)`;
  const min = parseDuration(lo);
  const max = hi === undefined ? min : parseDuration(hi);
  if (max < min) return `--abandon ${JSON.stringify(text)}: the range ${after} ends before it starts`;
  return { share, after_min_ms: min, after_max_ms: max };
}

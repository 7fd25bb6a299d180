/**
 * @module plan/shard
 * Deterministic shards of a plan (`--shard i/N`, 1-based). The unit of distribution is the
 * conversation: unit `u` (a request's `unit`, its own index for a question on its own) goes to
 * shard `u mod N + 1`, so every turn of a conversation is in one shard (and one worker) and runs
 * in order there. Every planned request is in exactly one shard; the split depends only on the
 * plan, so it is the same on every machine. Because the plan interleaves sets per question, each
 * shard gets a fair mix of sets and questions; without conversations shards differ in size by at
 * most one request.
 */
import type { Shard } from '../records/shard.js';

export { ShardSchema, type Shard } from '../records/shard.js';

/** Parses `i/N`; returns a message for the caller to wrap, or the shard. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return `"${text}" is not a shard: give i/N, e.g. 2/4`;
  const shard = { index: Number(match[1]), count: Number(match[2]) };
  if (shard.count < 1) return `"${text}": the shard count must be at least 1`;
  if (shard.index < 1 || shard.index > shard.count)
    return `"${text}": the shard index must be between 1 and ${shard.count}`;
  return shard;
}

export function inShard(index: number, shard: Shard | null | undefined): boolean {
  return !shard || index % shard.count === shard.index - 1;
}

/** The requests of one shard, in plan order, keeping their plan `index`: whole units (conversations). */
export function selectShard<T extends { index: number; unit?: number | undefined }>(
  plan: readonly T[],
  shard: Shard | null | undefined,
): T[] {
  return plan.filter((p) => inShard(p.unit ?? p.index, shard));
}

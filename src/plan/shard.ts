/**
 * @module plan/shard
 * Deterministic shards of an eval plan (`--shard i/N`, 1-based). The unit of distribution is the
 * dataset's unit, a conversation or a question on its own: unit `u` (its position in the dataset)
 * goes to shard `u mod N + 1` with every set, mode and repeat it is asked under. So every turn of a
 * conversation is in one shard and runs in order there, and each shard compares its sets on the
 * same questions: a shard's verdict (and `demo --quick`, the first tenth) pairs them as the whole
 * run's does. Every planned request is in exactly one shard; the split depends only on the plan,
 * so it is the same on every machine. Without conversations shards differ in size by at most one
 * question's requests. (A load plan shards its arrivals instead: plan/arrivals.ts.)
 */
import type { Shard } from '../records/shard.js';

export type { Shard } from '../records/shard.js';

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

/**
 * The requests of one shard of a whole plan, in plan order, keeping their plan `index`: whole
 * dataset units, numbered in the order the plan first asks them (the dataset's order).
 */
export function selectShard<
  T extends { readonly question_id: string; readonly conversation?: { readonly id: string } | null },
>(plan: readonly T[], shard: Shard | null | undefined): T[] {
  const units = new Map<string, number>();
  return plan.filter((p) => {
    const id = p.conversation ? `conversation|${p.conversation.id}` : `question|${p.question_id}`;
    let unit = units.get(id);
    if (unit === undefined) units.set(id, (unit = units.size));
    return inShard(unit, shard);
  });
}

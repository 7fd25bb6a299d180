/**
 * @module plan/arrivals
 * When each request of a load run should be sent, computed before the run (style.md rule 2).
 *
 * Open model: a rate profile (req/s, piecewise linear: a constant rate, or `--stages`) is
 * integrated into Λ(t), the expected arrivals by time t; arrival n is placed where Λ(t) reaches
 * point n. Constant arrivals use the points 0, 1, 2, … (so a constant rate gives offsets
 * n·1000/rate, the first at 0, as k6's constant-arrival-rate); Poisson arrivals use the points of a
 * unit-rate Poisson process (sums of seeded Exp(1) gaps), which time-rescaling turns into a
 * Poisson process of the profile's rate, ramps included. Offsets come from a generator, so a long
 * run never holds its schedule in memory.
 *
 * Closed model: the number of virtual users over time (`userSteps`): user u (from 0) is active
 * while the ramp's line is above u.
 *
 * Shards (`--shard i/N`): arrival n belongs to shard (n mod N) + 1 and user u to shard
 * (u mod N) + 1, so the shards' rates and users always add up exactly to the whole.
 */
import type { Shard } from './shard.js';
import type { Stage } from './stages.js';

/** A piece of the rate profile: the rate moves linearly from `from` to `to` (req/s) over `duration_ms`. */
export interface RateSegment {
  readonly duration_ms: number;
  readonly from: number;
  readonly to: number;
}

/** One planned arrival: its global number (from 0, across every shard) and its offset from the schedule's zero. */
export interface Arrival {
  readonly index: number;
  readonly offset_ms: number;
}

import type { ArrivalShape } from '../records/load-spec.js';
export { ARRIVAL_SHAPES, type ArrivalShape } from '../records/load-spec.js';

/** A constant rate for `durationMs` (Infinity when only a request count bounds the run). */
export const constantProfile = (rate: number, durationMs: number): RateSegment[] => [
  { duration_ms: durationMs, from: rate, to: rate },
];

/** The stages as rate segments; the first ramps up from 0. */
export function stagesProfile(stages: readonly Stage[]): RateSegment[] {
  let from = 0;
  return stages.map((stage) => {
    const segment = { duration_ms: stage.duration_ms, from, to: stage.target };
    from = stage.target;
    return segment;
  });
}

/** mulberry32: a small seeded PRNG in [0, 1), the same sequence on every platform. */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ArrivalOptions {
  readonly profile: readonly RateSegment[];
  readonly shape: ArrivalShape;
  /** Seeds the Poisson gaps; the same seed gives the same schedule. */
  readonly seed: number;
  /** Stop after this many arrivals of the whole schedule (every shard together); null: no bound. */
  readonly maxArrivals?: number | null | undefined;
  /** Only this shard's arrivals (their global index is kept). */
  readonly shard?: Shard | null | undefined;
}

/** The unit-rate points: 0, 1, 2, … or a seeded Poisson process of rate 1. */
function* unitPoints(shape: ArrivalShape, seed: number): Generator<number> {
  if (shape === 'constant') {
    for (let n = 0; ; n++) yield n;
  }
  const random = seededUniform(seed);
  let point = 0;
  for (;;) {
    point += -Math.log(1 - random());
    yield point;
  }
}

/**
 * Seconds into a segment at which its integral reaches `lambda` (0 ≤ lambda ≤ the segment's area).
 * Λ(t) = r0·t + a·t² with a = (r1 − r0)/(2D); the root is written 2λ/(r0 + √(r0² + 4aλ)) to stay exact
 * when the slope is tiny or negative.
 */
function invert(segment: RateSegment, lambda: number): number {
  if (lambda <= 0) return 0;
  const seconds = segment.duration_ms / 1000;
  const a = Number.isFinite(seconds) ? (segment.to - segment.from) / (2 * seconds) : 0;
  if (a === 0) return lambda / segment.from;
  const root = Math.sqrt(Math.max(0, segment.from * segment.from + 4 * a * lambda));
  return (2 * lambda) / (segment.from + root);
}

/** Expected arrivals of one segment: the integral of its rate (Infinity for an endless positive rate). */
export const areaOf = (s: RateSegment): number =>
  Number.isFinite(s.duration_ms) ? ((s.from + s.to) / 2) * (s.duration_ms / 1000) : s.from > 0 ? Infinity : 0;

/** The arrivals of a schedule (of one shard), in time order. Ends with the profile or at `maxArrivals`. */
export function* arrivals(options: ArrivalOptions): Generator<Arrival> {
  const points = unitPoints(options.shape, options.seed);
  const max = options.maxArrivals ?? Infinity;
  let index = 0;
  let point = points.next().value as number;
  let start = 0;
  let base = 0;
  for (const segment of options.profile) {
    const area = areaOf(segment);
    while (index < max && point < base + area) {
      const offset = start + invert(segment, point - base) * 1000;
      if (!options.shard || index % options.shard.count === options.shard.index - 1) yield { index, offset_ms: offset };
      index++;
      point = points.next().value as number;
    }
    if (index >= max) return;
    start += segment.duration_ms;
    base += area;
  }
}

/** How many arrivals an iterator still holds (consumes it). */
export function countRemaining(iterator: Iterator<unknown>): number {
  let count = 0;
  while (!iterator.next().done) count++;
  return count;
}

/** Users u < `users` with u ≡ shard − 1 (mod N): shard i's share of a user count. */
export function shardUsers(users: number, shard: Shard | null | undefined): number {
  if (!shard) return users;
  return Math.max(0, Math.floor((users - (shard.index - 1) + shard.count - 1) / shard.count));
}

/** A change of the number of active virtual users at `offset_ms`. */
export interface UserStep {
  readonly offset_ms: number;
  readonly users: number;
}

/**
 * The closed model's user count over time, as steps (the first at 0). A fixed `--concurrency` is
 * one step; stages ramp: while the line rises from a to b, the k-th user joins when it passes k − 1;
 * while it falls, the count drops to k when it reaches k. The last step is 0 at the stages' end.
 */
export function userSteps(source: { users: number } | { stages: readonly Stage[] }, shard?: Shard | null): UserStep[] {
  const steps: UserStep[] = [];
  const push = (offset_ms: number, users: number) => {
    const mine = shardUsers(users, shard);
    const last = steps.at(-1);
    if (last && last.offset_ms === offset_ms) steps.pop();
    if (steps.at(-1)?.users !== mine) steps.push({ offset_ms, users: mine });
  };
  if ('users' in source) {
    push(0, source.users);
    return steps;
  }
  push(0, 0);
  let start = 0;
  let from = 0;
  for (const stage of source.stages) {
    const a = from;
    const b = stage.target;
    const at = (level: number) => start + ((level - a) / (b - a)) * stage.duration_ms;
    if (b > a)
      for (let k = Math.floor(a) + 1; k <= Math.ceil(b); k++) push(at(Math.max(a, k - 1)), Math.min(k, Math.ceil(b)));
    else if (b < a) for (let k = Math.ceil(a) - 1; k >= Math.ceil(b); k--) push(at(k), k);
    start += stage.duration_ms;
    from = b;
  }
  push(start, 0);
  return steps;
}

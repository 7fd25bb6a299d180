/**
 * @module sim/rng
 * Seeded randomness for the simulator. Every random choice the simulator makes comes from an Rng
 * derived from the run seed plus what identifies the request (its text, its occurrence), so the
 * same seed and the same requests give the same bytes whatever the concurrency. The generator is
 * sfc32 (128-bit state, passes PractRand); seeds come from a string hash spread over the state so
 * that uuids drawn from different requests do not collide the way a 32-bit seed would.
 */

/** A deterministic source of numbers. Not cryptographic. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n); n ≥ 1. */
  int(n: number): number;
  /** True with probability p (p ≤ 0 never, p ≥ 1 always). */
  chance(p: number): boolean;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** A random version-4 uuid, lowercase, hyphenated. */
  uuid(): string;
}

/** z of the 99th percentile of the standard normal. */
const Z_P99 = 2.3263478740408408;

/**
 * Creates an Rng from any list of seed parts (numbers or strings). The same parts give the same
 * sequence; any difference in any part gives an unrelated one.
 */
export function createRng(...parts: ReadonlyArray<string | number>): Rng {
  const hash = xmur3(parts.map((p) => `${typeof p}:${String(p)}`).join('\u0000'));
  let a = hash(),
    b = hash(),
    c = hash(),
    d = hash();
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next32(); // let the seeds mix before the first draw
  const next = (): number => next32() / 4294967296;
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => p > 0 && (p >= 1 || next() < p),
    normal: () => {
      const u = 1 - next(); // (0, 1]: log(0) would be -Infinity
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    uuid: () => {
      const hex = [next32(), next32(), next32(), next32()].map((w) => w.toString(16).padStart(8, '0')).join('');
      const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    },
  };
}

/** A log-normal distribution given by its median and 99th percentile (p99 ≥ median > 0). */
export interface LogNormal {
  median: number;
  p99: number;
}

/** Draws from a log-normal: median·exp(σ·z) with σ chosen so that the p99 lands where asked. */
/** sampleLogNormal, where a median of 0 is no delay at all (0, no draw). */
export function drawDelay(rng: Rng, dist: LogNormal): number {
  return dist.median === 0 ? 0 : sampleLogNormal(rng, dist);
}

export function sampleLogNormal(rng: Rng, dist: LogNormal): number {
  const sigma = Math.log(dist.p99 / dist.median) / Z_P99;
  return dist.median * Math.exp(sigma * rng.normal());
}

/** xmur3 string hash: a generator of well-mixed 32-bit seeds from one string. */
function xmur3(text: string): () => number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
}

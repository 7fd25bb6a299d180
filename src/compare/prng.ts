/**
 * @module compare/prng
 * The seeded generator behind every bootstrap: sfc32 (Chris Doty-Humphrey's small fast counter,
 * passes PractRand to 2^50+ bytes), its state filled from a string by a 32-bit FNV-1a hash and
 * splitmix32. Each figure gets its own stream, derived from (seed, group, figure), so adding a
 * figure or a group never changes another's interval.
 */

/** Uniform numbers in [0, 1) with 32 bits of resolution; the same seed gives the same sequence on every platform. */
export type Random = () => number;

/** FNV-1a over the UTF-16 code units of `text`: a stable 32-bit seed from any string. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** splitmix32: spreads one 32-bit seed over the four words of sfc32's state. */
function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * sfc32 seeded by a number or a string (strings are hashed first). The bootstrap draws millions of
 * indices: `tally` and `sumOfDraws` run a whole resample's draws with the state in locals, and as
 * methods of one class they are one call target the optimizer inlines (through a closure per figure,
 * each call site saw many targets and every draw allocated a boxed number). Each gives what a loop of
 * `Math.floor(next() * n)` draws would, in the same order (src/compare/bootstrap.test.ts), so the
 * intervals of a seed never changed; test/bench/bootstrap.bench.ts times them against another checkout.
 */
export class Sfc32 {
  // State in a typed array: fields holding values past 2^30 would be boxed on every write, which
  // made each draw ~20 times slower.
  private readonly state: Uint32Array;

  constructor(seed: number | string) {
    const mix = splitmix32(typeof seed === 'string' ? hashSeed(seed) : seed);
    this.state = new Uint32Array([mix(), mix(), mix(), mix()]);
    // The first outputs still echo the seed's structure; discard them as sfc32's author advises.
    for (let i = 0; i < 12; i += 1) this.word();
  }

  /** The next 32-bit output. */
  private word(): number {
    const s = this.state;
    const a = s[0]!;
    const b = s[1]!;
    const c = s[2]!;
    const d = s[3]!;
    const t = (a + b + d) >>> 0;
    s[3] = d + 1;
    s[0] = b ^ (b >>> 9);
    s[1] = c + (c << 3);
    s[2] = ((c << 21) | (c >>> 11)) + t;
    return t;
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  next(): number {
    return this.word() / 4294967296;
  }

  /**
   * `counts[Math.floor(next() * n)] += 1`, `draws` times, with the state held in locals for the
   * whole loop rather than read from and written to the array at every draw (a bootstrap resample of
   * n values draws n indices).
   */
  tally(counts: Uint32Array, n: number, draws: number): void {
    const s = this.state;
    let a = s[0]!;
    let b = s[1]!;
    let c = s[2]!;
    let d = s[3]!;
    for (let i = 0; i < draws; i += 1) {
      const t = (a + b + d) >>> 0;
      d = (d + 1) >>> 0;
      a = (b ^ (b >>> 9)) >>> 0;
      b = (c + (c << 3)) >>> 0;
      c = (((c << 21) | (c >>> 11)) + t) >>> 0;
      counts[Math.floor((t / 4294967296) * n)]! += 1;
    }
    s[0] = a;
    s[1] = b;
    s[2] = c;
    s[3] = d;
  }

  /**
   * The sum of `values[Math.floor(next() * values.length)]` over as many draws as there are values,
   * added in the order drawn (so the same sum as that loop), the state in locals as in `tally`.
   */
  sumOfDraws(values: Float64Array): number {
    const n = values.length;
    const s = this.state;
    let a = s[0]!;
    let b = s[1]!;
    let c = s[2]!;
    let d = s[3]!;
    let sum = 0;
    for (let i = 0; i < n; i += 1) {
      const t = (a + b + d) >>> 0;
      d = (d + 1) >>> 0;
      a = (b ^ (b >>> 9)) >>> 0;
      b = (c + (c << 3)) >>> 0;
      c = (((c << 21) | (c >>> 11)) + t) >>> 0;
      sum += values[Math.floor((t / 4294967296) * n)]!;
    }
    s[0] = a;
    s[1] = b;
    s[2] = c;
    s[3] = d;
    return sum;
  }
}

/** A generator seeded by a number or a string, as a function: `Sfc32`'s `next`. */
export function createRandom(seed: number | string): Random {
  const generator = new Sfc32(seed);
  return () => generator.next();
}

/**
 * @module metrics/stats
 * Descriptive statistics for the summary: exact percentiles over a full sample, means with a 95%
 * Student-t interval, proportions with a 95% Wilson interval. Sums run over sorted values so that
 * the same multiset of values always gives the same bits, whatever order the records came in.
 */
import type { LatencyStats, MeanEstimate } from '../records/summary.js';

/** The two-sided 95% normal quantile, Φ⁻¹(0.975). */
const Z_95 = 1.959963984540054;

/**
 * The p-quantile (p in [0, 1]) of an ascending sample, by linear interpolation between the closest
 * ranks (k6 TrendSink's rule, Hyndman–Fan type 7): rank = p·(n−1); the result lies between
 * sorted[⌊rank⌋] and sorted[⌈rank⌉] in proportion to rank's fraction. p = 0 → min, p = 1 → max,
 * one value → that value. An empty sample has no percentile: undefined, never 0.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.min(Math.max(p, 0), 1) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const below = sorted[lower] ?? Number.NaN;
  const above = sorted[Math.ceil(rank)] ?? Number.NaN;
  return below + (above - below) * (rank - lower);
}

/** count, mean, min, p50…p99.9 (by `percentile`), max of a sample; null when it is empty. */
export function latencyStats(values: readonly number[]): LatencyStats | null {
  if (values.length === 0) return null;
  return latencyStatsOfSorted([...values].sort((a, b) => a - b));
}

/**
 * Values in ascending order read by rank: an array, a typed array or a SortedValues (whose
 * whole microseconds are read back as the doubles they stand for).
 */
export interface Ascending {
  readonly length: number;
  at(index: number): number | undefined;
}

/** `percentile` over values read by rank (the same arithmetic, so the same bits). */
function percentileAt(sorted: Ascending, p: number): number {
  const rank = Math.min(Math.max(p, 0), 1) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const below = sorted.at(lower) ?? Number.NaN;
  const above = sorted.at(Math.ceil(rank)) ?? Number.NaN;
  return below + (above - below) * (rank - lower);
}

/** latencyStats of a sample already sorted ascending (not copied). */
export function latencyStatsOfSorted(sorted: Ascending): LatencyStats | null {
  if (sorted.length === 0) return null;
  const at = (p: number) => percentileAt(sorted, p);
  let sum = 0;
  for (let i = 0; i < sorted.length; i += 1) sum += sorted.at(i)!;
  return {
    count: sorted.length,
    mean: sum / sorted.length,
    min: at(0),
    p50: at(0.5),
    p90: at(0.9),
    p95: at(0.95),
    p99: at(0.99),
    p99_9: at(0.999),
    max: at(1),
  };
}

/**
 * A sample of numbers kept for exact percentiles, never the records the values came from. Every
 * millisecond figure of a record is rounded to the µs (records/round-ms), so while each value v is
 * exactly k / 1000 for an integer k in [0, 2³²), the sample keeps k in a Uint32Array: 4 bytes a
 * value where a Float64Array takes 8 (the reports phase of a million-request eval keeps several such
 * samples per group). The first value that is not (a rate, a negative, more than 71 minutes) moves
 * the sample to Float64Arrays. k / 1000 gives back v to the bit, so every figure is the same.
 *
 * The values are held in chunks of CHUNK_VALUES, the first growing by doubling up to a chunk: one
 * array that doubled left its old copies (1 + 2 + … MB per figure at a million values) as garbage
 * outside the heap until a full collection, and up to half its length unused; a million-request
 * eval's reports phase peaked at 521 MB with them (docs/limits.md).
 */
export interface NumberSample {
  readonly length: number;
  push(value: number): void;
  /** The values in ascending order: a new array each call, the sample unchanged. */
  sorted(): Float64Array;
  /**
   * The values in ascending order, kept as the sample kept them (4 bytes a value when each is a
   * whole number of microseconds): what a run's data holds until its comparisons resample it. The
   * sample is spent (empty) after it.
   */
  sortedValues(): SortedValues;
}

/**
 * A sample's values in ascending order (NumberSample.sortedValues): doubles, or whole microseconds
 * (k / 1000 gives back each value to the bit, and the order of the k is the values').
 */
export class SortedValues implements Ascending {
  private constructor(
    private readonly values: Float64Array | Uint32Array,
    private readonly micros: boolean,
  ) {}
  /** Sorts `values` in place and keeps them. */
  static of(values: Float64Array | Uint32Array, micros: boolean): SortedValues {
    values.sort();
    return new SortedValues(values, micros);
  }
  /**
   * The values of several together, ascending: one part is itself (no copy); more are joined into
   * one new array, whole microseconds while every part holds them.
   */
  static union(parts: readonly SortedValues[]): SortedValues {
    if (parts.length === 1) return parts[0]!;
    const micros = parts.every((part) => part.micros);
    const length = parts.reduce((n, part) => n + part.length, 0);
    const out = micros ? new Uint32Array(length) : new Float64Array(length);
    let at = 0;
    for (const part of parts) {
      if (micros || !part.micros) out.set(part.values, at);
      else for (let i = 0; i < part.length; i += 1) out[at + i] = part.values[i]! / 1000;
      at += part.length;
    }
    return SortedValues.of(out, micros);
  }
  get length(): number {
    return this.values.length;
  }
  /** The value at rank `index` as a double (k / 1000 for whole microseconds); undefined past the end. */
  at(index: number): number | undefined {
    const value = this.values[index];
    return value === undefined || !this.micros ? value : value / 1000;
  }
  /** The values as doubles, ascending: a new array each call. */
  toFloat64(): Float64Array {
    if (!this.micros) return (this.values as Float64Array).slice();
    const out = new Float64Array(this.values.length);
    for (let i = 0; i < this.values.length; i += 1) out[i] = this.values[i]! / 1000;
    return out;
  }
}

/** Every value of a sample's chunks (all full but the last, `fill` of it), in one array of their kind. */
function joinChunks(chunks: Uint32Array[] | Float64Array[], fill: number, length: number): Uint32Array | Float64Array {
  const out = chunks[0] instanceof Uint32Array ? new Uint32Array(length) : new Float64Array(length);
  let at = 0;
  for (let c = 0; c < chunks.length; c += 1) {
    const n = c === chunks.length - 1 ? fill : chunks[c]!.length;
    out.set(chunks[c]!.subarray(0, n), at);
    at += n;
  }
  return out;
}

const MAX_MICROS = 2 ** 32 - 1;
/** 16,384 values: 64 KB of micros, 128 KB of doubles. */
export const CHUNK_VALUES = 16_384;

export function createNumberSample(initialCapacity = 64): NumberSample {
  const first = Math.max(1, Math.min(initialCapacity, CHUNK_VALUES));
  // Every chunk but the last is full; `fill` values of the last are set.
  let micros: Uint32Array[] | null = [new Uint32Array(first)];
  let values: Float64Array[] | null = null;
  let length = 0;
  let fill = 0;
  const toFloat = (): Float64Array[] => {
    const chunks = micros!.map((chunk) => {
      const floats = new Float64Array(chunk.length);
      for (let i = 0; i < chunk.length; i += 1) floats[i] = chunk[i]! / 1000;
      return floats;
    });
    micros = null;
    return chunks;
  };
  /** Room for one more value in the last chunk: doubles a first chunk under CHUNK_VALUES, else adds one. */
  const room = <T extends Uint32Array | Float64Array>(chunks: T[], make: (n: number) => T): T => {
    const last = chunks[chunks.length - 1]!;
    if (fill < last.length) return last;
    if (chunks.length === 1 && last.length < CHUNK_VALUES) {
      const grown = make(Math.min(last.length * 2, CHUNK_VALUES));
      grown.set(last);
      chunks[0] = grown;
      return grown;
    }
    const next = make(CHUNK_VALUES);
    chunks.push(next);
    fill = 0;
    return next;
  };
  const joined = () => joinChunks(micros ?? values!, fill, length);
  return {
    get length() {
      return length;
    },
    sortedValues() {
      const compact = micros !== null;
      const all = joined();
      micros = [new Uint32Array(1)];
      values = null;
      length = 0;
      fill = 0;
      return SortedValues.of(all, compact);
    },
    push(value) {
      if (micros !== null) {
        const k = Math.round(value * 1000);
        if (k >= 0 && k <= MAX_MICROS && k / 1000 === value && (k !== 0 || Object.is(value, 0))) {
          room(micros, (n) => new Uint32Array(n))[fill++] = k;
          length += 1;
          return;
        }
        values = toFloat();
      }
      room(values!, (n) => new Float64Array(n))[fill++] = value;
      length += 1;
    },
    // Straight into doubles: joined micros and their doubles would both be live (12 bytes a value).
    sorted() {
      const out = new Float64Array(length);
      const chunks = micros ?? values!;
      let at = 0;
      for (let c = 0; c < chunks.length; c += 1) {
        const chunk = chunks[c]!;
        const n = c === chunks.length - 1 ? fill : chunk.length;
        if (micros !== null) for (let i = 0; i < n; i += 1) out[at++] = chunk[i]! / 1000;
        else {
          out.set(chunk.subarray(0, n), at);
          at += n;
        }
      }
      return out.sort();
    },
  };
}

/**
 * The mean of a sample with its 95% Student-t interval: mean ± t(0.975, n−1) · s / √n, s the sample
 * standard deviation (n−1 denominator). n = 1 → the interval is the mean itself. Nothing is
 * clamped (a mean of values in [0, 1] can have an interval reaching past them). Empty → null.
 */
export function meanEstimate(values: readonly number[]): MeanEstimate | null {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return meanEstimateOfCounts(counts);
}

/**
 * meanEstimate over a multiset given as value → count (what the summarizer keeps: scores take few
 * distinct values). Values are visited in ascending order, so the result is order-independent.
 */
export function meanEstimateOfCounts(counts: ReadonlyMap<number, number>): MeanEstimate | null {
  const values = [...counts.keys()].sort((a, b) => a - b);
  let n = 0;
  let sum = 0;
  for (const v of values) {
    const c = counts.get(v) ?? 0;
    n += c;
    sum += v * c;
  }
  if (n === 0) return null;
  const mean = sum / n;
  if (n === 1) return { mean, ci_low: mean, ci_high: mean, n };
  let squares = 0;
  for (const v of values) squares += (counts.get(v) ?? 0) * (v - mean) ** 2;
  const half = (studentTQuantile(0.975, n - 1) * Math.sqrt(squares / (n - 1))) / Math.sqrt(n);
  return { mean, ci_low: mean - half, ci_high: mean + half, n };
}

/**
 * A proportion successes / n with its 95% Wilson score interval:
 * (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), z = Φ⁻¹(0.975). Unlike the normal interval it
 * stays inside [0, 1] and is not degenerate at 0 or n successes. n = 0 → null.
 */
export function proportionEstimate(successes: number, n: number): MeanEstimate | null {
  return wilsonEstimate(successes, n);
}

/**
 * The Wilson interval for `successes` of `n`, where n may be an effective sample size (not a whole
 * number: metrics/clustered). n ≤ 0 → null.
 */
export function wilsonEstimate(successes: number, n: number): MeanEstimate | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0 or n successes the bound is exactly 0 or 1; the formula leaves ±1e-16 of rounding there.
  const low = successes <= 0 ? 0 : Math.max(0, centre - half);
  const high = successes >= n ? 1 : Math.min(1, centre + half);
  return { mean: p, ci_low: low, ci_high: high, n };
}

/**
 * The p-quantile of Student's t distribution with `df` degrees of freedom (df > 0, p in (0, 1)):
 * the exact CDF (through the regularized incomplete beta function) inverted by bisection to a
 * relative 1e-13. Exact closed forms for df = 1 and 2. t(0.975, 1) = 12.7062, t(0.975, 29) = 2.0452.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return Number.NaN;
  // Summaries ask for the same few (p, df) thousands of times (every score of every group and
  // category): the bisection runs once per pair.
  const key = `${p}|${df}`;
  const known = QUANTILES.get(key);
  if (known !== undefined) return known;
  const value = tQuantile(p, df);
  if (QUANTILES.size < 10_000) QUANTILES.set(key, value);
  return value;
}

const QUANTILES = new Map<string, number>();

function tQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 64 && studentTCdf(hi, df) < p; i += 1) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i += 1) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The two-sided p-value of a standard normal statistic z: 2 · (1 − Φ(|z|)) = erfc(|z| / √2).
 * erfc by its Chebyshev fit (Numerical Recipes erfcc, relative error under 1.2e-7 everywhere).
 */
export function normalTwoSidedP(z: number): number {
  if (!Number.isFinite(z)) return Number.isNaN(z) ? Number.NaN : 0;
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -x * x -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return Math.min(1, t * Math.exp(poly));
}

/**
 * The two-sided p-value of the paired t-test that the mean of `diffs` is 0: t = mean / (s / √n)
 * with n − 1 degrees of freedom. Under 2 values → null (no test). All values equal → 1 when they
 * are 0, else 0 (a difference with no spread at all).
 */
export function pairedTTestP(diffs: readonly number[]): number | null {
  const n = diffs.length;
  if (n < 2) return null;
  const sorted = [...diffs].sort((a, b) => a - b);
  let sum = 0;
  for (const d of sorted) sum += d;
  const mean = sum / n;
  let squares = 0;
  for (const d of sorted) squares += (d - mean) ** 2;
  const sd = Math.sqrt(squares / (n - 1));
  // Below rounding noise of the mean: the values are all equal.
  if (!(sd > 1e-12 * Math.max(1, Math.abs(mean)))) return mean === 0 ? 1 : 0;
  const t = mean / (sd / Math.sqrt(n));
  // The lower tail directly: 1 − CDF would lose every digit of a small p.
  return Math.min(1, 2 * studentTCdf(-Math.abs(t), n - 1));
}

/** P(T ≤ t) for Student's t with df degrees of freedom: 1 − ½·I_{df/(df+t²)}(df/2, ½) for t ≥ 0. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** I_x(a, b) by its continued fraction (Numerical Recipes betai), on the side where it converges fast. */
function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** Modified Lentz evaluation of the incomplete-beta continued fraction. */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 10_000; m += 1) {
    const m2 = 2 * m;
    for (const coefficient of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + coefficient * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + coefficient / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x ≥ 0.5 (Lanczos, g = 7; relative error ~1e-15). */
function logGamma(x: number): number {
  const z = x - 1;
  let series = LANCZOS[0] ?? 1;
  for (let i = 1; i < LANCZOS.length; i += 1) series += (LANCZOS[i] ?? 0) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(series);
}

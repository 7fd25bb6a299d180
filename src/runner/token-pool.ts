/**
 * @module runner/token-pool
 * Several credentials for one load run (`--token` repeated, or `--token-file` with one token per
 * line and an optional weight), so per-user limits can be told from global ones. Requests take
 * tokens round-robin, or by weight with smooth weighted round-robin (nginx): deterministic, and the
 * tokens interleave instead of coming in bursts. Records keep the token's index only, never its value.
 */
import { InputError } from '../errors.js';

export interface TokenPool {
  readonly size: number;
  /** The index of the token the next request uses. */
  next(): number;
}

/** `weights` (one per token, > 0) or null for plain round-robin. */
export function createTokenPool(size: number, weights: readonly number[] | null = null): TokenPool {
  if (size < 1) throw new RangeError('a token pool needs at least one token');
  if (weights === null || weights.every((w) => w === weights[0])) {
    let i = -1;
    return { size, next: () => (i = (i + 1) % size) };
  }
  if (weights.length !== size || weights.some((w) => !(w > 0))) throw new RangeError('one positive weight per token');
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  return {
    size,
    next() {
      let best = 0;
      for (let i = 0; i < size; i++) {
        current[i]! += weights[i]!;
        if (current[i]! > current[best]!) best = i;
      }
      current[best]! -= total;
      return best;
    },
  };
}

/** The tokens of a token file and their weights (null when no line gives one). */
export interface TokenList {
  readonly tokens: string[];
  readonly weights: number[] | null;
}

/**
 * Parses a token file: one `token [weight]` per line; blank lines and `#` comments skipped; a line
 * without a weight weighs 1. Every bad line is listed (by number, never by its token) in one InputError.
 */
export function parseTokenFile(text: string, file: string): TokenList {
  const tokens: string[] = [];
  const weights: number[] = [];
  const problems: string[] = [];
  let weighted = false;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const cells = line.split(/\s+/);
    const where = `${file}:${i + 1}`;
    if (cells.length > 2)
      return void problems.push(`${where}: expected "token" or "token weight", got ${cells.length} columns`);
    const weight = cells[1] === undefined ? 1 : Number(cells[1]);
    if (cells[1] !== undefined) weighted = true;
    if (!Number.isFinite(weight) || weight <= 0)
      return void problems.push(`${where}: the weight must be a number above 0`);
    tokens.push(cells[0]!);
    weights.push(weight);
  });
  if (tokens.length === 0 && problems.length === 0)
    problems.push(`${file}: no tokens (one per line, optionally followed by a weight)`);
  if (problems.length > 0) throw new InputError(problems);
  return { tokens, weights: weighted ? weights : null };
}

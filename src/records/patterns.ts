/**
 * @module records/patterns
 * The regular expressions of the dataset's `must_match` and `must_not_match` columns. A pattern is
 * kept as `/source/flags`; a bare pattern in the dataset becomes `/source/iu` (case-insensitive,
 * like must_contain). One parser for the dataset reader (which reports a bad pattern before anything
 * is sent) and for the metrics (which match it).
 */

const LITERAL = /^\/(.*)\/([a-z]*)$/s;
/** Flags a pattern may carry: `g` and `y` make `test` stateful, `d` and `v` add nothing here. */
const ALLOWED_FLAGS = /^[imsu]*$/;

/** The `/source/flags` form of a dataset cell's pattern: kept when it has that form, else `/cell/iu`. */
export function canonicalPattern(text: string): string {
  return LITERAL.test(text) ? text : `/${text}/iu`;
}

/** Compiles a `/source/flags` pattern; throws an Error whose message says what is wrong. */
export function compilePattern(pattern: string): RegExp {
  const literal = LITERAL.exec(pattern);
  const [source, flags] = literal === null ? [pattern, 'iu'] : [literal[1] ?? '', literal[2] ?? ''];
  if (!ALLOWED_FLAGS.test(flags)) throw new Error(`flags "${flags}": only i, m, s and u are allowed`);
  if (source === '') throw new Error('the pattern is empty');
  return new RegExp(source, flags);
}

const compiled = new Map<string, RegExp>();

/** compilePattern with a cache (the same patterns are matched against every answer of a run). */
export function cachedPattern(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) {
    re = compilePattern(pattern);
    if (compiled.size < 10_000) compiled.set(pattern, re);
  }
  return re;
}

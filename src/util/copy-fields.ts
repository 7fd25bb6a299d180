/**
 * @module util/copy-fields
 * A copy of a list of named fields from one object onto another, compiled once per list. The record
 * path copies forty-odd fields twice a request (client/exchange.ts, runner/to-record.ts). A loop over
 * the names reads and writes each through one keyed access site that sees forty names, which V8
 * leaves megamorphic (a lookup in its stub cache every time): a full answer's exchange and record
 * took ~9 µs so, ~2 µs compiled (docs/benchmarks-log.md, "Session 54"). A function with each name
 * written out gives every access its own inline cache, which the copies' single shapes keep
 * monomorphic. The generated code holds the names as JSON string literals and nothing else; where
 * code generation from strings is disallowed (`--disallow-code-generation-from-strings`), the loop.
 */

export type FieldCopy = (to: Record<string, unknown>, from: Readonly<Record<string, unknown>>) => void;

export function compileFieldCopy(names: readonly string[]): FieldCopy {
  const lines = names.map((name) => `to[${JSON.stringify(name)}] = from[${JSON.stringify(name)}];`);
  try {
    return new Function('to', 'from', lines.join('\n')) as FieldCopy;
  } catch {
    return (to, from) => {
      for (let i = 0; i < names.length; i++) to[names[i]!] = from[names[i]!];
    };
  }
}

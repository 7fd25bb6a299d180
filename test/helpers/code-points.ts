/**
 * Any one code point, U+0000 to U+10FFFF, lone surrogates included: what fast-check's
 * `fc.string({ unit: 'binary' })` draws, without its table. fast-check builds that unit as a map of
 * all 1.1 million code points and keeps it for the process (1.4 s, 85 MB of heap that vitest's
 * shared workers then carry, and mark at every full collection, to the end of the suite).
 */
import fc from 'fast-check';

export const anyCodePoint: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((codePoint) => String.fromCodePoint(codePoint));

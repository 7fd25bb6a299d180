import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonError } from './json-position.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('findJsonError', () => {
  it.each([
    { text: '{"a": x}', want: { line: 1, column: 7, reason: 'unexpected "x"' } },
    { text: '{"a": 1,}', want: { line: 1, column: 9, reason: 'trailing comma before "}"' } },
    {
      text: '{\n  "a": 1\n  "b": 2\n}',
      want: { line: 3, column: 3, reason: 'unexpected "\\"": expected "," or "}" after a property value' },
    },
    {
      text: "{'a': 1}",
      want: { line: 1, column: 2, reason: 'unexpected "\'": expected a double-quoted property name' },
    },
    {
      text: '[1, 2',
      want: { line: 1, column: 6, reason: 'unexpected end of input: expected "," or "]" after an array element' },
    },
    {
      text: '{"a": "x\ny"}',
      want: { line: 1, column: 9, reason: 'control character in a string (escape it, e.g. \\n)' },
    },
    {
      text: '{"a": 01}',
      want: { line: 1, column: 8, reason: 'unexpected "1": expected "," or "}" after a property value' },
    },
    { text: '{} {}', want: { line: 1, column: 4, reason: 'unexpected "{" after the JSON value' } },
    { text: '{"a": tru}', want: { line: 1, column: 10, reason: 'unexpected "}"' } },
    { text: '"\\x"', want: { line: 1, column: 3, reason: 'bad escape in a string' } },
  ])('$text', ({ text, want }) => {
    expect(parses(text)).toBe(false);
    expect(findJsonError(text)).toEqual(want);
  });

  it('agrees with JSON.parse on what is JSON: valid documents and random mutations of them', () => {
    fc.assert(
      fc.property(
        fc.json(),
        fc.nat(),
        fc.constantFrom('', ',', '}', ']', '"', ':', 'x', ' ', '\n', '\\'),
        (text, at, insert) => {
          expect(findJsonError(text)).toBeUndefined();
          const position = at % (text.length + 1);
          const mutated = text.slice(0, position) + insert + text.slice(position);
          expect(findJsonError(mutated) === undefined).toBe(parses(mutated));
        },
      ),
      { numRuns: 500, seed: 42 },
    );
  });
});

// A buffered body's text must not depend on where its chunks were cut: the same as one streaming
// TextDecoder over every chunk (what the client used before the Buffer#toString path), cut at
// every byte, two cuts at a time, inside characters, on invalid bytes, with a BOM and a cut end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBodyText, endsOnBoundary } from './body-text.js';

/** What a streaming TextDecoder (the reference) gives for these chunks. */
function reference(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return chunks.map((c) => decoder.decode(c, { stream: true })).join('') + decoder.decode();
}

function decoded(chunks: readonly Uint8Array[]): string {
  const body = createBodyText();
  for (const chunk of chunks) body.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return body.text();
}

function splitAt(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const cuts = [0, ...[...new Set(points)].sort((a, b) => a - b), bytes.length];
  return cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
}

const bytesOf = (...parts: Array<string | number[]>) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'utf8')] : p)));

const CASES: Array<[string, Uint8Array]> = [
  ['ASCII JSON', bytesOf('{"answer":"25 days of PTO [[1]](https://wiki.example/pto)"}')],
  ['2-, 3- and 4-byte characters', bytesOf('{"answer":"é — 日本語 😀 ü"}')],
  ['a BOM first', bytesOf([0xef, 0xbb, 0xbf], '{"a":"x"}')],
  ['invalid bytes', bytesOf('a', [0xc3], 'b', [0x80, 0x80], 'c', [0xe0, 0x80], 'd', [0xf0, 0x90, 0x80], 'e', [0xff])],
  ['a surrogate encoded, an overlong form', bytesOf('x', [0xed, 0xa0, 0x80], 'y', [0xc0, 0xaf], 'z', [0xf8, 0x88])],
  ['a character cut by the end', bytesOf('{"a":"', [0xe6, 0x97])],
  ['empty', new Uint8Array(0)],
];

describe('a buffered body as text', () => {
  it.each(CASES)(
    '%s: whole, and cut at every byte and at every pair of bytes, as the streaming decoder',
    (_, bytes) => {
      expect(decoded([bytes])).toBe(reference([bytes]));
      for (let i = 0; i <= bytes.length; i++) {
        expect(decoded(splitAt(bytes, [i]))).toBe(reference([bytes]));
        for (let j = i; j <= bytes.length; j++) expect(decoded(splitAt(bytes, [i, j]))).toBe(reference([bytes]));
      }
      expect(decoded(splitAt(bytes, [...bytes.keys()]))).toBe(reference([bytes]));
    },
  );

  it('gives the same text as the streaming decoder for any bytes cut anywhere', () => {
    // Bytes weighted towards UTF-8's lead and continuation bytes, so that cuts fall inside characters.
    const byte = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xbf }),
      fc.integer({ min: 0xc0, max: 0xff }),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.array(fc.nat(40), { maxLength: 8 }), (raw, points) => {
        const bytes = Uint8Array.from(raw);
        expect(
          decoded(
            splitAt(
              bytes,
              points.filter((p) => p <= bytes.length),
            ),
          ),
        ).toBe(reference([bytes]));
      }),
      { numRuns: 3000 },
    );
  });

  it('goes on after text(): a later chunk appends', () => {
    const body = createBodyText();
    body.push(Buffer.from('{"a":'));
    expect(body.text()).toBe('{"a":');
    body.push(Buffer.from('1}'));
    expect(body.text()).toBe('{"a":1}');
  });
});

describe('endsOnBoundary', () => {
  it.each([
    ['', [], true],
    ['ASCII', [0x61], true],
    ['a whole 2-byte character', [0xc3, 0xa9], true],
    ['a whole 4-byte character', [0xf0, 0x9f, 0x98, 0x80], true],
    ['a lead byte alone', [0x61, 0xc3], false],
    ['2 of 3 bytes', [0xe6, 0x97], false],
    ['3 of 4 bytes', [0xf0, 0x9f, 0x98], false],
    ['a stray continuation byte', [0x61, 0x80], true],
  ])('%s: %j → %s', (_, bytes, expected) => {
    expect(endsOnBoundary(Uint8Array.from(bytes))).toBe(expected);
  });
});

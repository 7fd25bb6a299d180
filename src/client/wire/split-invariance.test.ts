// The decoder's central promise: where the chunk boundaries fall (one byte at a time, inside a
// multi-byte character, between CR and LF) never changes the parts. Checked on every fixture
// against its expected parts (written independently by generate.py), and on generated streams.
import fc from 'fast-check';
import { anyCodePoint } from '../../../test/helpers/code-points.js';
import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../../api/index.js';
import { loadStreamFixture, loadStreamFixtures } from '../../../test/fixtures/streams/index.js';
import { createStreamDecoder } from './index.js';

function decodeChunks(chunks: readonly Uint8Array[], maxLineBytes?: number): StreamPart[] {
  const decoder = createStreamDecoder(maxLineBytes === undefined ? {} : { maxLineBytes });
  const parts = chunks.flatMap((chunk) => decoder.push(chunk));
  return [...parts, ...decoder.end()];
}

function splitAt(body: Uint8Array, points: readonly number[]): Uint8Array[] {
  const cuts = [0, ...[...new Set(points)].sort((a, b) => a - b), body.length];
  return cuts.slice(1).map((end, i) => body.subarray(cuts[i], end));
}

/** Sets of cut points in a body: sparse ones and dense runs, so that lines break in several places. */
const cutPoints = (length: number) =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: Math.min(64, length) });

const fixtures = loadStreamFixtures();

describe.each(fixtures)('fixture $name', ({ name, bytes, expected }) => {
  it('decodes in one chunk to the expected parts, with the framing of its extension', () => {
    const decoder = createStreamDecoder();
    const parts = [...decoder.push(bytes), ...decoder.end()];
    expect(parts).toEqual(expected);
    expect(decoder.framing).toBe(name.endsWith('.sse') ? 'sse' : 'ndjson');
  });

  it('decodes one byte at a time to the same parts', () => {
    expect(decodeChunks(splitAt(bytes, [...bytes.keys()]))).toEqual(expected);
  });

  it('decodes split at every byte inside a multi-byte character to the same parts', () => {
    const inside = [...bytes.keys()].filter((i) => ((bytes[i] ?? 0) & 0xc0) === 0x80); // continuation bytes
    for (const at of inside) expect(decodeChunks(splitAt(bytes, [at]))).toEqual(expected);
  });

  it('decodes split at random boundaries to the same parts', () => {
    fc.assert(
      fc.property(cutPoints(bytes.length), (points) => {
        expect(decodeChunks(splitAt(bytes, points))).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('with a limit under its longest line, the parts and errors do not depend on the boundaries either', () => {
    const longest = Math.max(
      ...new TextDecoder()
        .decode(bytes)
        .split('\n')
        .map((text) => new TextEncoder().encode(text).length),
    );
    const limit = Math.floor(longest * 0.8);
    const whole = decodeChunks([bytes], limit);
    expect(whole.filter((part) => part.kind === 'decode_error').length).toBeGreaterThan(0);
    fc.assert(
      fc.property(cutPoints(bytes.length), (points) => {
        expect(decodeChunks(splitAt(bytes, points), limit)).toEqual(whole);
      }),
      { numRuns: 100 },
    );
  });
});

describe('fixtures agree with each other', () => {
  it('has the five fixtures the brief names', () => {
    expect(fixtures.map((fixture) => fixture.name)).toEqual([
      'multi-model.ndjson',
      'non-ascii.ndjson',
      'sse-framed.sse',
      'unterminated-error.ndjson',
      'wire-example.ndjson',
    ]);
  });

  it('the SSE framing of the example decodes to the same parts as its NDJSON', () => {
    expect(decodeChunks([loadStreamFixture('sse-framed.sse').bytes])).toEqual(
      loadStreamFixture('wire-example.ndjson').expected,
    );
  });

  it('the unterminated error fixture really ends without a newline, and its error is the last part', () => {
    const { bytes, expected } = loadStreamFixture('unterminated-error.ndjson');
    expect(bytes.at(-1)).not.toBe(0x0a);
    expect(expected.at(-1)?.kind).toBe('streaming_error');
  });
});

describe('generated streams', () => {
  const limit = 256;
  const delta = (content: string) =>
    JSON.stringify({ placement: { turn_index: 0, model_index: 0 }, obj: { type: 'message_delta', content } });
  const line = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 20 }).map(delta), // any printable text, non-ASCII included
    fc.string({ unit: anyCodePoint, maxLength: 30 }).map((text) => text.replace(/[\r\n]/g, ' ')), // mostly not JSON
    fc.constantFrom('', '   ', '\t'), // blank
    fc.integer({ min: 200, max: 600 }).map((n) => delta('L'.repeat(n))), // often over the limit
  );
  const stream = fc.record({
    lines: fc.array(line, { maxLength: 12 }),
    crlf: fc.boolean(),
    terminated: fc.boolean(),
  });
  const encode = (text: string) => new TextEncoder().encode(text);

  it('NDJSON: every non-blank line gives exactly one part, wherever the chunks break', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 40 }), ({ lines, crlf, terminated }, rawCuts) => {
        const eol = crlf ? '\r\n' : '\n';
        const body = encode(
          `{"user_message_id": 1, "reserved_assistant_message_id": 2}${eol}${lines.join(eol)}${terminated ? eol : ''}`,
        );
        const whole = decodeChunks([body], limit);
        expect(whole).toHaveLength(1 + lines.filter((text) => text.trim() !== '').length);
        expect(
          decodeChunks(
            splitAt(
              body,
              rawCuts.map((cut) => cut % body.length),
            ),
            limit,
          ),
        ).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('SSE: the same lines as events decode the same wherever the chunks break', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 40 }), ({ lines, crlf }, rawCuts) => {
        const eol = crlf ? '\r\n' : '\n';
        const body = encode(`: start${eol}${eol}${lines.map((text) => `data: ${text}${eol}${eol}`).join('')}`);
        const whole = decodeChunks([body], limit);
        expect(
          decodeChunks(
            splitAt(
              body,
              rawCuts.map((cut) => cut % body.length),
            ),
            limit,
          ),
        ).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Issue 7 §6: the stream decoder under random input (fast-check, bounded runs). Random bytes and
 * random mutations of the recorded streams in test/fixtures/streams, cut into random chunks, never
 * make push()/end() throw or stall, every part is a well-formed StreamPart with bounded excerpts,
 * and an endless line never makes the decoder keep more than its line limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../../src/api/index.js';
import { createStreamDecoder } from '../../src/client/wire/index.js';
import { loadStreamFixtures } from '../fixtures/streams/index.js';

const FIXTURES = loadStreamFixtures();
const KINDS = new Set([
  'session_created',
  'message_ids',
  'multi_model_ids',
  'streaming_error',
  'packet',
  'decode_error',
]);

/** Splits `bytes` at the given cut points (any order, any values). */
function chunksOf(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  return chunks;
}

/** Decodes the chunks, timing it; the chunk buffers are overwritten after each push, as undici may. */
/** Decodes the chunks; a decoder that hangs fails the test by its timeout (no wall-clock bound here). */
function decode(chunks: readonly Uint8Array[], maxLineBytes?: number): { parts: StreamPart[] } {
  const decoder = createStreamDecoder(maxLineBytes === undefined ? {} : { maxLineBytes });
  const parts: StreamPart[] = [];
  for (const chunk of chunks) {
    const copy = Uint8Array.from(chunk);
    parts.push(...decoder.push(copy));
    copy.fill(0x41);
  }
  parts.push(...decoder.end());
  parts.push(...decoder.push(new Uint8Array([0x7b, 0x0a])), ...decoder.end()); // after end: nothing
  return { parts };
}

function expectWellFormed(parts: readonly StreamPart[]): void {
  for (const part of parts) {
    expect(KINDS.has(part.kind)).toBe(true);
    if (part.kind === 'decode_error') {
      expect(part.line.length).toBeLessThanOrEqual(201);
      expect(part.reason.length).toBeLessThanOrEqual(301);
    }
  }
}

const mutation = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 40 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ op: fc.constant('newline' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(source: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let bytes = Array.from(source);
  for (const m of mutations) {
    const at = bytes.length === 0 ? 0 : m.at % bytes.length;
    if (m.op === 'flip') bytes[at] = m.value;
    else if (m.op === 'insert') bytes.splice(at, 0, ...m.bytes);
    else if (m.op === 'delete') bytes.splice(at, m.length);
    else if (m.op === 'duplicate') bytes.splice(at, 0, ...bytes.slice(at, at + m.length));
    else if (m.op === 'newline') bytes.splice(at, 0, 0x0a);
    else bytes = bytes.slice(0, at);
  }
  return Uint8Array.from(bytes);
}

describe('stream decoder fuzzing', () => {
  it('random bytes in random chunks: never throws, bounded parts', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 4096 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.constantFrom(undefined, 16, 64, 1024),
        (bytes, cuts, limit) => {
          const { parts } = decode(chunksOf(bytes, cuts), limit);
          expectWellFormed(parts);
          expect(parts.length).toBeLessThanOrEqual(bytes.length + 1);
        },
      ),
      { numRuns: 400, seed: 7 },
    );
  });

  it('random mutations of the recorded streams: never throws, well-formed parts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FIXTURES.map((f) => f.name)),
        fc.array(mutation, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.constantFrom(undefined, 128, 4096),
        (name, mutations, cuts, limit) => {
          const bytes = mutate(FIXTURES.find((f) => f.name === name)!.bytes, mutations);
          const { parts } = decode(chunksOf(bytes, cuts), limit);
          expectWellFormed(parts);
        },
      ),
      { numRuns: 400, seed: 11 },
    );
  });

  it('the unmutated fixtures in any chunking decode to their expected parts (the mutation baseline)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES), fc.array(fc.nat(), { maxLength: 40 }), (fixture, cuts) => {
        expect(decode(chunksOf(fixture.bytes, cuts)).parts).toEqual(fixture.expected);
      }),
      { numRuns: 100, seed: 3 },
    );
  });

  it.each([
    { framing: 'ndjson', head: '{"error": "', filler: 0x78 },
    { framing: 'sse', head: 'data: {"error": "', filler: 0x78 },
  ])('$framing: 64 MiB without a line end keeps under the 1 MiB limit', ({ head, filler }) => {
    const limit = 1024 * 1024;
    const decoder = createStreamDecoder({ maxLineBytes: limit });
    const chunk = new Uint8Array(64 * 1024).fill(filler);
    const before = process.memoryUsage().arrayBuffers;
    const parts: StreamPart[] = [...decoder.push(new TextEncoder().encode(head))];
    let peak = 0;
    for (let i = 0; i < 1024; i += 1) {
      parts.push(...decoder.push(chunk));
      if (i % 64 === 0) peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }
    parts.push(...decoder.end());
    expect(parts.filter((p) => p.kind === 'decode_error')).toHaveLength(1);
    // Buffers the decoder holds are ArrayBuffers: 64 MiB kept would show here, the limit would not.
    expect(peak).toBeLessThan(limit + 4 * 1024 * 1024);
  });
});

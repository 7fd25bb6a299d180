// Line-level tests of the NDJSON framing, in the style of undici's eventsource parse-line tests:
// each case feeds literal bytes and asserts the parts, without a network.
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../../api/index.js';
import { createStreamDecoder } from './index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Pushes each chunk, then end(); returns every part and which push/end produced it. */
function decode(chunks: readonly (string | Uint8Array)[], maxLineBytes?: number) {
  const decoder = createStreamDecoder(maxLineBytes === undefined ? {} : { maxLineBytes });
  const perCall = chunks.map((chunk) => decoder.push(typeof chunk === 'string' ? bytes(chunk) : chunk));
  perCall.push(decoder.end());
  return { parts: perCall.flat(), perCall, framing: decoder.framing };
}

const packet = (obj: object, modelIndex: number | null = 0) =>
  JSON.stringify({ placement: { turn_index: 0, tab_index: 0, sub_turn_index: null, model_index: modelIndex }, obj });
const delta = (content: string) => packet({ type: 'message_delta', content });
const contentOf = (part: StreamPart | undefined) =>
  part?.kind === 'packet' && part.part.obj.type === 'message_delta' ? part.part.obj.content : undefined;

describe('NDJSON lines', () => {
  it('yields one part per line and skips blank and whitespace-only lines', () => {
    const { parts, framing } = decode([`${delta('a')}\n\n   \n\t\n${delta('b')}\n\n`]);
    expect(framing).toBe('ndjson');
    expect(parts.map(contentOf)).toEqual(['a', 'b']);
  });

  it('strips the CR of CRLF line ends, also when the CR and LF arrive in different chunks', () => {
    const { parts } = decode([`${delta('a')}\r\n${delta('b')}\r`, `\n${delta('c')}\r\n`]);
    expect(parts.map(contentOf)).toEqual(['a', 'b', 'c']);
  });

  it('holds a last line without newline until end(), then flushes it', () => {
    const error =
      '{"error": "boom", "stack_trace": null, "error_code": "MODEL_ERROR", "is_retryable": false, "details": null}';
    const { perCall } = decode([`${delta('a')}\n`, error]);
    expect(perCall[0]?.map(contentOf)).toEqual(['a']);
    expect(perCall[1]).toEqual([]);
    expect(perCall[2]).toMatchObject([{ kind: 'streaming_error', part: { error: 'boom', error_code: 'MODEL_ERROR' } }]);
  });

  it('reports a line that is not JSON and goes on decoding', () => {
    const { parts } = decode([`${delta('a')}\nnot json at all\n${delta('b')}\n`]);
    expect(parts).toHaveLength(3);
    expect(parts[1]).toMatchObject({ kind: 'decode_error', line: 'not json at all' });
    expect(parts[1]?.kind === 'decode_error' && parts[1].reason).toMatch(/^not JSON: /);
    expect(contentOf(parts[2])).toBe('b');
  });

  it.each([
    { line: '[1, 2]', reason: 'a part must be a JSON object' },
    { line: '"text"', reason: 'a part must be a JSON object' },
    { line: '{"hello": 1}', reason: 'a JSON object of no known part shape' },
    {
      line: packet({ type: 'message_delta', content: 7 }),
      reason: 'message_delta: obj.content: expected string, received number',
    },
    {
      line: '{"user_message_id": 1, "reserved_assistant_message_id": "x"}',
      reason: 'message_ids: reserved_assistant_message_id: expected number, received string',
    },
  ])('turns $line into a decode_error: $reason', ({ line, reason }) => {
    expect(decode([`${line}\n`]).parts).toEqual([{ kind: 'decode_error', reason, line }]);
  });

  it('keeps a packet of an unknown obj.type, with its fields', () => {
    const { parts } = decode([`${packet({ type: 'python_tool_start', code: 'print(1)' }, null)}\n`]);
    expect(parts).toEqual([
      {
        kind: 'packet',
        part: {
          placement: { turn_index: 0, tab_index: 0, sub_turn_index: null, model_index: null },
          obj: { type: 'python_tool_start', code: 'print(1)' },
        },
      },
    ]);
  });

  it('keeps only a 200-character excerpt of a bad line', () => {
    const long = 'x'.repeat(5000);
    const [part] = decode([`${long}\n`]).parts;
    expect(part).toMatchObject({ kind: 'decode_error', line: `${'x'.repeat(200)}…` });
  });

  it('decodes a character split across chunks, and reports a line of invalid UTF-8', () => {
    const line = bytes(`${delta('é中😀')}\n`);
    const at = line.indexOf(0xf0) + 2; // inside the 4-byte emoji
    expect(decode([line.subarray(0, at), line.subarray(at)]).parts.map(contentOf)).toEqual(['é中😀']);
    const invalid = Uint8Array.from([...bytes('{"error": "'), 0xff, 0xfe, ...bytes('"}\n')]);
    expect(decode([invalid, `${delta('next')}\n`]).parts).toMatchObject([
      { kind: 'decode_error', reason: 'line is not valid UTF-8' },
      { kind: 'packet' },
    ]);
  });

  it('tells a U+FFFD the service sent from an invalid byte inside one chunk of many lines (Buffer or not)', () => {
    const invalid = Uint8Array.from([...bytes(`${delta('a')}\n{"error": "`), 0xff, ...bytes(`"}\n${delta('z')}\n`)]);
    for (const chunk of [invalid, Buffer.from(invalid)]) {
      expect(decode([chunk]).parts).toMatchObject([
        { kind: 'packet' },
        { kind: 'decode_error', reason: 'line is not valid UTF-8' },
        { kind: 'packet' },
      ]);
    }
    const sent = bytes(`${delta('a\uFFFDb')}\n${delta('c')}\n`);
    expect(decode([sent]).parts.map(contentOf)).toEqual(['a\uFFFDb', 'c']);
    expect(decode([Buffer.from(sent)]).parts.map(contentOf)).toEqual(['a\uFFFDb', 'c']);
  });
  it('returns nothing after end()', () => {
    const decoder = createStreamDecoder();
    decoder.push(bytes(delta('a')));
    expect(decoder.end()).toHaveLength(1);
    expect(decoder.push(bytes(`${delta('b')}\n`))).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => createStreamDecoder({ maxLineBytes: 0 })).toThrow(RangeError);
    expect(() => createStreamDecoder({ maxLineBytes: 1.5 })).toThrow(RangeError);
  });
});

describe('NDJSON line limit', () => {
  const limit = 300;

  it('accepts a line of exactly the limit and refuses one byte more', () => {
    const fits = delta('y'.repeat(limit - delta('').length));
    expect(bytes(fits).length).toBe(limit);
    expect(decode([`${fits}\n${fits}x\n`], limit).parts).toMatchObject([
      { kind: 'packet' },
      { kind: 'decode_error', reason: `line exceeds ${limit} bytes` },
    ]);
  });

  it('yields one error as soon as the limit is crossed, discards the rest of the line, then decodes on', () => {
    const big = delta('z'.repeat(1000));
    const pieces = [`${delta('a')}\n${big.slice(0, 100)}`, big.slice(100, 400), big.slice(400), `\n${delta('b')}\n`];
    const { perCall, parts } = decode(pieces, limit);
    expect(perCall[1]).toMatchObject([{ kind: 'decode_error', reason: `line exceeds ${limit} bytes` }]); // before its newline
    expect(perCall[2]).toEqual([]);
    expect(parts.map((part) => part.kind)).toEqual(['packet', 'decode_error', 'packet']);
    expect(contentOf(parts[2])).toBe('b');
    expect(parts[1]).toMatchObject({ line: big.slice(0, 200) + '…' });
  });

  it('does not flush a discarded line at end()', () => {
    expect(decode(['q'.repeat(500)], limit).parts).toMatchObject([{ kind: 'decode_error' }]);
  });

  it('never buffers more than the limit: 64 MiB of one line with a 1 MiB limit', () => {
    const mib = 1024 * 1024;
    const chunk = new Uint8Array(mib).fill(0x61); // reused, as a socket's buffer may be
    const decoder = createStreamDecoder({ maxLineBytes: mib });
    const before = getHeapStatistics().external_memory;
    let errors = 0;
    for (let i = 0; i < 64; i += 1) errors += decoder.push(chunk).length;
    const grown = getHeapStatistics().external_memory - before;
    errors += decoder.push(bytes(`\n${delta('after')}\n`)).length;
    expect(errors).toBe(2); // the oversize error, then the next line's packet
    expect(grown).toBeLessThan(16 * mib);
  });
});

import { describe, expect, it } from 'vitest';
import { detectFraming, firstNonWhitespace } from './detect-framing.js';
import { createStreamDecoder } from './index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('detectFraming', () => {
  it.each([
    { head: '{"user_message_id"', want: 'ndjson' },
    { head: '[1]', want: 'ndjson' },
    { head: 'data: {}', want: 'sse' },
    { head: 'data:{}', want: 'sse' },
    { head: 'event: message', want: 'sse' },
    { head: 'id: 1', want: 'sse' },
    { head: 'retry: 10', want: 'sse' },
    { head: ': comment', want: 'sse' },
    { head: 'hello', want: 'ndjson' },
    { head: 'dato', want: 'ndjson' },
    { head: 'd', want: undefined },
    { head: 'retry', want: undefined },
    { head: '', want: undefined },
  ])('$head → $want', ({ head, want }) => expect(detectFraming(bytes(head))).toBe(want));

  it('finds the first byte that is not space, tab, CR or LF', () => {
    expect(firstNonWhitespace(bytes(' \t\r\n{'))).toBe(4);
    expect(firstNonWhitespace(bytes(' \r\n'))).toBe(-1);
  });
});

describe('framing of a decoder', () => {
  const line = '{"user_message_id": 1, "reserved_assistant_message_id": 2}';

  it.each([
    { name: 'NDJSON after blank lines and spaces', chunks: ['\n\r\n  \t', `${line}\n`], framing: 'ndjson' },
    { name: 'SSE after blank lines', chunks: ['\r\n\n', `data: ${line}\n\n`], framing: 'sse' },
    { name: 'SSE whose field name is split across chunks', chunks: ['\n d', 'a', `ta: ${line}\n\n`], framing: 'sse' },
    { name: 'NDJSON under any content type (none is read)', chunks: [`${line}\n`], framing: 'ndjson' },
  ])('$name', ({ chunks, framing }) => {
    const decoder = createStreamDecoder();
    const parts = chunks.flatMap((chunk) => decoder.push(bytes(chunk)));
    expect(decoder.framing).toBe(framing);
    expect([...parts, ...decoder.end()]).toMatchObject([
      { kind: 'message_ids', part: { reserved_assistant_message_id: 2 } },
    ]);
  });

  it('stays undecided on whitespace and on an ambiguous head, and reads a short body as NDJSON at end()', () => {
    const decoder = createStreamDecoder();
    expect(decoder.push(bytes('  \n'))).toEqual([]);
    expect(decoder.framing).toBeUndefined();
    expect(decoder.push(bytes('dat'))).toEqual([]);
    expect(decoder.framing).toBeUndefined();
    expect(decoder.end()).toMatchObject([{ kind: 'decode_error', line: 'dat' }]);
    expect(decoder.framing).toBe('ndjson');
  });

  it('yields nothing for an empty body', () => {
    const decoder = createStreamDecoder();
    expect(decoder.end()).toEqual([]);
    expect(decoder.framing).toBeUndefined();
  });
});

// Line-level tests of the SSE framing (undici eventsource parse-line style): literal bytes in,
// parts out, no network.
import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../../api/index.js';
import { createStreamDecoder } from './index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function decode(chunks: readonly string[], maxLineBytes?: number) {
  const decoder = createStreamDecoder(maxLineBytes === undefined ? {} : { maxLineBytes });
  const perCall = chunks.map((chunk) => decoder.push(bytes(chunk)));
  perCall.push(decoder.end());
  return { parts: perCall.flat(), perCall, framing: decoder.framing };
}

const delta = (content: string) =>
  JSON.stringify({ placement: { turn_index: 0, model_index: 0 }, obj: { type: 'message_delta', content } });
const contentOf = (part: StreamPart | undefined) =>
  part?.kind === 'packet' && part.part.obj.type === 'message_delta' ? part.part.obj.content : undefined;

describe('SSE events', () => {
  it('yields one part per event and ignores comments, event, id and retry fields', () => {
    const body = `: hello\n\nretry: 1000\n\nevent: message\nid: 7\ndata: ${delta('a')}\n\n: ping\n\ndata: ${delta('b')}\n\n`;
    const { parts, framing } = decode([body]);
    expect(framing).toBe('sse');
    expect(parts.map(contentOf)).toEqual(['a', 'b']);
  });

  it.each([
    { name: 'CRLF', eol: '\r\n' },
    { name: 'bare CR', eol: '\r' },
    { name: 'LF', eol: '\n' },
  ])('accepts $name line ends', ({ eol }) => {
    const body = `data: ${delta('a')}${eol}${eol}:c${eol}data: ${delta('b')}${eol}${eol}`;
    expect(decode([body]).parts.map(contentOf)).toEqual(['a', 'b']);
  });

  it('joins multi-line data with a newline, which JSON reads as whitespace', () => {
    const json = delta('joined');
    const cut = json.indexOf(',') + 1;
    const body = `data: ${json.slice(0, cut)}\n: a comment between data lines\ndata:${json.slice(cut)}\n\n`;
    expect(decode([body]).parts.map(contentOf)).toEqual(['joined']);
  });

  it('delivers a last event without its blank line, or without any line end, at end()', () => {
    expect(decode([`data: ${delta('a')}\n\ndata: ${delta('b')}\n`]).perCall.map((call) => call.map(contentOf))).toEqual(
      [['a'], ['b']],
    );
    expect(decode([`data: ${delta('a')}\n\ndata: ${delta('b')}`]).parts.map(contentOf)).toEqual(['a', 'b']);
  });

  it('reports data that is not JSON, skips empty data, and goes on', () => {
    const { parts } = decode([`data: oops\n\ndata:\n\ndata: ${delta('b')}\n\n`]);
    expect(parts).toMatchObject([{ kind: 'decode_error', line: 'oops' }, { kind: 'packet' }]);
    expect(contentOf(parts[1])).toBe('b');
  });

  it('decodes an event whose characters are split across chunks', () => {
    const body = bytes(`data: ${delta('é中😀')}\n\n`);
    const decoder = createStreamDecoder();
    const parts = [...body].flatMap((byte) => decoder.push(Uint8Array.of(byte)));
    expect([...parts, ...decoder.end()].map(contentOf)).toEqual(['é中😀']);
  });
});

describe('SSE event limit', () => {
  const limit = 200;

  it('yields one error, discards the rest of the event, and decodes the next one', () => {
    const big = delta('z'.repeat(1000));
    const body = `data: ${delta('a')}\n\ndata: ${big}\ndata: ${delta('same event')}\n\ndata: ${delta('b')}\n\n`;
    const { parts } = decode([body.slice(0, 150), body.slice(150, 700), body.slice(700)], limit);
    expect(parts.map((part) => part.kind)).toEqual(['packet', 'decode_error', 'packet']);
    expect(parts[1]).toMatchObject({
      reason: `event exceeds ${limit} bytes`,
      line: `data: ${big}`.slice(0, 200) + '…',
    });
    expect(parts.map(contentOf)).toEqual(['a', undefined, 'b']);
  });

  it('accepts an event of exactly the limit (line ends not counted) and refuses one byte more', () => {
    const json = delta('e'.repeat(limit - 20 - delta('').length));
    const cut = json.indexOf(',') + 1;
    const event = `data: ${json.slice(0, cut)}\ndata: ${json.slice(cut)}`;
    expect(bytes(event.replace('\n', '')).length).toBe(limit - 8);
    const exact = `${event}${' '.repeat(8)}\n\n`; // 8 trailing spaces in the data: valid JSON
    expect(decode([exact], limit).parts.map((part) => part.kind)).toEqual(['packet']);
    expect(decode([exact.replace('\n\n', ' \n\n')], limit).parts.map((part) => part.kind)).toEqual(['decode_error']);
  });

  it('counts the data lines of one event together, but not comments', () => {
    const line = `data: ${'x'.repeat(80)}\n`;
    expect(decode([line.repeat(3) + '\n'], limit).parts).toMatchObject([
      { kind: 'decode_error', reason: `event exceeds ${limit} bytes` },
    ]);
    const comments = `: ${'k'.repeat(150)}\n`.repeat(10);
    expect(decode([`${comments}data: ${delta('a')}\n\n`], limit).parts.map(contentOf)).toEqual(['a']);
  });

  it('does not deliver a discarded event at end()', () => {
    expect(decode([`data: ${'q'.repeat(500)}`], limit).parts).toMatchObject([{ kind: 'decode_error' }]);
  });
});

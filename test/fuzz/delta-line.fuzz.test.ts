/**
 * Issue 24 item 1: the decoder's fast path for `message_delta` lines (src/client/wire/delta-line.ts)
 * is exactly the full path (decodeParsed: the whole line through JSON.parse and the hand checks),
 * on thousands of lines: generated deltas (escapes, unicode, every placement style, integers at and
 * past the edges), the same with extra keys, other key orders and other whitespace, random
 * mutations of them, and every line of the release fixtures and of a captured `chatbench serve`
 * stream. A line where the two differ — in value or in key order — fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeParsed, decodeText } from '../../src/client/wire/decode-part.js';
import { decodeDeltaLine } from '../../src/client/wire/delta-line.js';
import { anyCodePoint } from '../helpers/code-points.js';

/** Python's json.dumps with ensure_ascii (the service's writer): non-ASCII as \u escapes. */
function dumps(value: unknown, item = ', ', key = ': '): string {
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => dumps(v, item, key)).join(item)}]`;
  const entries = Object.entries(value).map(([k, v]) => `${dumps(k)}${key}${dumps(v, item, key)}`);
  return `{${entries.join(item)}}`;
}

/** Asserts the fast path agrees with the full path on `line`; returns whether it took the line. */
function expectSame(line: string): boolean {
  const fast = decodeText(line);
  const full = decodeParsed(line);
  // expect() only where they differ, for its diff: on thousands of lines the assertions themselves
  // cost more than the decoding they check. isDeepStrictEqual is toStrictEqual's rule (prototypes,
  // keys whose value is undefined), and the JSON text is the key order.
  if (!isDeepStrictEqual(fast, full) || JSON.stringify(fast) !== JSON.stringify(full)) {
    expect(fast).toStrictEqual(full);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(full)); // key order too
  }
  return decodeDeltaLine(line) !== undefined;
}

const index = fc.oneof(
  fc.nat({ max: 3 }),
  fc.constantFrom(0, 9, 10, 99, 100, 999_999_999_999_999, 1_000_000_000_000_000, 2 ** 53, 2 ** 53 - 1),
  fc.integer({ min: -3, max: -1 }),
);
const nullableIndex = fc.oneof(index, fc.constant(null));
const content = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: anyCodePoint }),
  fc.constantFrom('', '"', '\\', '\\"', '"}}', '\n', '\u2028', '\ud800', 'café "x"', ' [[1]](https://x.example/a)'),
);
const placementStyle = fc.constantFrom('set', 'null', 'absent');

/** A delta packet as the service writes it (the shape the fast path takes). */
const canonical = fc
  .record({ turn: index, tab: nullableIndex, sub: nullableIndex, model: nullableIndex, style: placementStyle, content })
  .map(({ turn, tab, sub, model, style, content: text }) => {
    const placement: Record<string, unknown> = { turn_index: turn, tab_index: tab, sub_turn_index: sub };
    if (style !== 'absent') placement.model_index = style === 'null' ? null : model;
    return { placement, obj: { type: 'message_delta', content: text } } as Record<string, unknown>;
  });

/** The same packets, varied where the fast path must decline (or still agree). */
const varied = fc
  .record({
    packet: canonical,
    extra: fc.option(fc.constantFrom('placement', 'obj', 'top'), { nil: undefined }),
    reverse: fc.constantFrom('none', 'top', 'placement', 'obj'),
    item: fc.constantFrom(', ', ',', ' , ', ',\t'),
    key: fc.constantFrom(': ', ':', ' :  '),
    type: fc.constantFrom('message_delta', 'message_delta', 'reasoning_delta', 'message_deltA', 'stop'),
    around: fc.constantFrom(['', ''], [' ', ''], ['', ' '], ['', '\t'], ['\ufeff', '']),
  })
  .map(({ packet, extra, reverse, item, key, type, around }) => {
    const placement = { ...(packet.placement as Record<string, unknown>) };
    const obj: Record<string, unknown> = { ...(packet.obj as Record<string, unknown>), type };
    const top: Record<string, unknown> = { placement, obj };
    if (extra === 'placement') placement.extra = 1;
    if (extra === 'obj') obj.extra = 'x';
    if (extra === 'top') top.extra = null;
    const flip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());
    const p = reverse === 'placement' ? flip(placement) : placement;
    const o = reverse === 'obj' ? flip(obj) : obj;
    const t = reverse === 'top' ? flip({ ...top, placement: p, obj: o }) : { ...top, placement: p, obj: o };
    return `${around[0]}${dumps(t, item, key)}${around[1]}`;
  });

const mutation = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('delete', 'insert', 'replace', 'truncate', 'duplicate'),
  char: fc.oneof(
    fc.constantFrom('"', '\\', '{', '}', ',', ' ', ':', '0', '7', '-', 'n', 'e', '.', '\n', '\u0000'),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
});

function mutate(line: string, m: { at: number; op: string; char: string }): string {
  const at = m.at % (line.length + 1);
  switch (m.op) {
    case 'delete':
      return line.slice(0, at) + line.slice(at + 1);
    case 'insert':
      return line.slice(0, at) + m.char + line.slice(at);
    case 'replace':
      return line.slice(0, at) + m.char + line.slice(at + 1);
    case 'truncate':
      return line.slice(0, at);
    default:
      return line.slice(0, at) + line.slice(at, at + 8) + line.slice(at);
  }
}

function fixtureLines(): string[] {
  const dirs = ['../fixtures/onyx-releases/', '../fixtures/streams/', '../bench/fixtures/'].map((d) =>
    fileURLToPath(new URL(d, import.meta.url)),
  );
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /\.(ndjson|sse)$/.test(name))
      .flatMap((name) => readFileSync(`${dir}${name}`, 'utf8').split('\n'))
      .map((line) => line.replace(/^data: ?/, '').replace(/\r$/, '')),
  );
}

describe('the message_delta fast path is the full path', () => {
  it('on every line of the release fixtures and a captured serve stream', () => {
    const lines = fixtureLines();
    const taken = lines.filter((line) => expectSame(line)).length;
    expect(lines.length).toBeGreaterThan(150);
    expect(taken).toBeGreaterThan(80); // the captured answer alone has 81 deltas
  });

  it('on generated deltas as the service writes them', () => {
    let taken = 0;
    fc.assert(
      fc.property(canonical, (packet) => {
        if (expectSame(dumps(packet))) taken++;
      }),
      { numRuns: 3_000, seed: 24 },
    );
    expect(taken).toBeGreaterThan(600); // the rest have a negative or 16-digit index
  });

  it('on deltas with extra keys, other key orders, types and whitespace', () => {
    fc.assert(
      fc.property(varied, (line) => {
        expectSame(line);
      }),
      { numRuns: 3_000, seed: 241 },
    );
  });

  it('on random mutations of deltas', () => {
    fc.assert(
      fc.property(canonical, fc.array(mutation, { minLength: 1, maxLength: 3 }), (packet, mutations) => {
        expectSame(mutations.reduce(mutate, dumps(packet)));
      }),
      { numRuns: 5_000, seed: 242 },
    );
  });

  it.each([
    [
      'a negative turn',
      '{"placement": {"turn_index": -1, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "x"}}',
    ],
    [
      'a leading zero',
      '{"placement": {"turn_index": 01, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "x"}}',
    ],
    [
      'an exponent',
      '{"placement": {"turn_index": 1e0, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "x"}}',
    ],
    [
      'a fraction',
      '{"placement": {"turn_index": 1.0, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "x"}}',
    ],
    [
      '16 digits',
      '{"placement": {"turn_index": 1000000000000000, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "x"}}',
    ],
    [
      'a null turn',
      '{"placement": {"turn_index": null, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "x"}}',
    ],
    [
      'a quote inside',
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "a"b"}}',
    ],
    [
      'a second key after content',
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "a", "x": "b"}}',
    ],
    [
      'an escaped closing quote',
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "a\\"}}',
    ],
    [
      'an empty literal',
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "}}',
    ],
    [
      'a raw tab',
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null}, "obj": {"type": "message_delta", "content": "a\tb"}}',
    ],
  ])('declines %s (the full path decides)', (_name, line) => {
    expect(decodeDeltaLine(line)).toBeUndefined();
    expectSame(line);
  });

  it('reads each line its own placement when placements alternate (the last one is reused only when equal)', () => {
    const line = (model: string, content: string) =>
      `{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null${model}}, "obj": {"type": "message_delta", "content": "${content}"}}`;
    const lines = [
      line(', "model_index": 0', 'a'),
      line(', "model_index": 1', 'a long piece of the answer'),
      line(', "model_index": 1', 'b'),
      line('', 'c'),
      line(', "model_index": null', 'd\\n'),
      line(', "model_index": 0', 'e'),
    ];
    for (const text of lines) {
      expect(decodeDeltaLine(text)).toStrictEqual(JSON.parse(text));
      expect(JSON.stringify(decodeDeltaLine(text))).toBe(JSON.stringify(JSON.parse(text)));
    }
  });

  it('takes escapes and every placement style', () => {
    const line =
      '{"placement": {"turn_index": 12, "tab_index": null, "sub_turn_index": 3, "model_index": 2}, "obj": {"type": "message_delta", "content": " caf\\u00e9 \\"x\\" \\ud83d\\ude00\\n"}}';
    expect(decodeDeltaLine(line)).toStrictEqual(JSON.parse(line));
    expect(expectSame(line)).toBe(true);
  });
});

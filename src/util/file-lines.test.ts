import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { InputError } from '../errors.js';
import { readFileLines, type FileLine } from './file-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'chatbench-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fileOf = (content: string | Buffer) => {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, content);
  return path;
};
const collect = async (
  path: string,
  options: { maxLineBytes?: number; chunkBytes?: number } = {},
): Promise<FileLine[]> => {
  const lines: FileLine[] = [];
  for await (const line of readFileLines(path, { name: 'runs/x.jsonl', ...options })) lines.push(line);
  return lines;
};

describe('readFileLines', () => {
  const content = 'ab\r\n\nçé€\n{"x":1}'; // CRLF, a blank line, multi-byte characters, an unterminated last line
  const want = [
    { text: 'ab', number: 1, offset: 0, length: 2, terminated: true },
    { text: '', number: 2, offset: 4, length: 0, terminated: true },
    { text: 'çé€', number: 3, offset: 5, length: 7, terminated: true },
    { text: '{"x":1}', number: 4, offset: 13, length: 7, terminated: false },
  ];
  it.each([1, 2, 3, 5, 64 * 1024])(
    'chunks of %i bytes: same lines, places and text (split inside CRLF and UTF-8 too)',
    async (chunkBytes) => {
      expect(await collect(fileOf(content), { chunkBytes })).toEqual(want);
    },
  );

  it('an empty file has no line; a file ending in a newline has no empty last line', async () => {
    expect(await collect(fileOf(''))).toEqual([]);
    expect((await collect(fileOf('a\n'))).map((l) => l.text)).toEqual(['a']);
  });

  it.each([
    { name: 'a terminated line', content: 'ok\n0123456789\nok\n' },
    { name: 'an unterminated last line', content: 'ok\n0123456789' },
    {
      name: 'a line far longer than the cap, refused before its end is read',
      content: `ok\n${'x'.repeat(100_000)}\nok\n`,
    },
  ])('$name past the cap: file:line: line longer than N bytes', async ({ content: text }) => {
    const error = await collect(fileOf(text), { maxLineBytes: 9, chunkBytes: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual(['runs/x.jsonl:2: line longer than 9 bytes (--max-run-line-bytes)']);
  });

  it('a line of exactly the cap, with or without its CR, is read', async () => {
    expect(
      (await collect(fileOf('012345678\r\n012345678'), { maxLineBytes: 9, chunkBytes: 2 })).map((l) => l.text),
    ).toEqual(['012345678', '012345678']);
  });

  it('a missing file: the fs error, with its code', async () => {
    await expect(collect(join(dir, 'none'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readFileLines on one long line (issue 23: linear, not quadratic)', () => {
  it('an 8 MB line: each byte searched for a newline once, and moved at most twice as the buffer doubles for it', async () => {
    // 8 MB tells linear from quadratic as surely as 64 did (re-scanning would be ~490 MB), for an eighth of the work.
    const size = 8_000_000;
    const big = Buffer.alloc(size + 1, 0x78); // 8 MB of `x`, then its newline
    big[size] = 0x0a;
    const path = fileOf(Buffer.concat([big, Buffer.from('tail\n')]));
    // Count the work instead of timing it: the bytes each newline search may scan, the bytes each move copies.
    const realIndexOf = Buffer.prototype.indexOf;
    const realCopy = Buffer.prototype.copy;
    let scanned = 0;
    let copied = 0;
    const counting = function (this: Buffer, value: number, from?: number): number {
      scanned += this.length - (from ?? 0);
      return realIndexOf.call(this, value, from);
    };
    const indexOf = vi.spyOn(Buffer.prototype, 'indexOf').mockImplementation(counting as typeof realIndexOf);
    const copying = function (this: Buffer, target: Uint8Array, at?: number, from?: number, to?: number): number {
      copied += (to ?? this.length) - (from ?? 0);
      return realCopy.call(this, target, at, from, to);
    };
    const copy = vi.spyOn(Buffer.prototype, 'copy').mockImplementation(copying as typeof realCopy);
    try {
      const lines: number[] = [];
      for await (const line of readFileLines(path, { name: 'runs/x.jsonl', maxLineBytes: size })) {
        lines.push(line.length);
      }
      expect(lines).toEqual([size, 4]);
      // Re-scanning the line so far with each 64 KiB read would be ~490 MB; moving it to the front each time as much.
      expect(scanned).toBeLessThanOrEqual(size + 6 + 2 * 64 * 1024);
      expect(copied).toBeLessThanOrEqual(2 * size);
    } finally {
      indexOf.mockRestore();
      copy.mockRestore();
    }
  });
});

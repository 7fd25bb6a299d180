import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trickyCsv } from '../../test/helpers/tricky-csv.js';
import { InputError } from '../errors.js';
import { conversationUnits } from './conversations.js';
import { readDataset } from './read-csv.js';
import { createRecordSpans } from './record-spans.js';
import { BLOCK_ROWS } from './row-file.js';
import { indexDataset, rowsInMemory, type RowSource } from './row-source.js';

let dir = '';
const write = (name: string, text: string) => {
  dir ||= mkdtempSync(join(tmpdir(), 'chatbench-rows-'));
  writeFileSync(join(dir, name), text);
  return { path: name, cwd: dir };
};
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

const all = (source: RowSource) => Array.from({ length: source.length }, (_, i) => source.row(i));
const units = (source: RowSource) =>
  Array.from({ length: source.unitCount }, (_, u) => source.unit(u).map((i) => source.id(i)));

describe('indexDataset: the rows read again by byte offset are the rows the stream read', () => {
  it.each([3, BLOCK_ROWS + 12, 300])(
    '%i rows of every tricky kind (CRLF, quoted newlines, BOM, blank and empty rows, UTF-8)',
    async (rows) => {
      const file = write('tricky.csv', trickyCsv(rows));
      const held = await readDataset(file);
      const indexed = await indexDataset(file);
      expect(indexed.columns).toEqual(held.columns);
      expect(indexed.rows.length).toBe(held.rows.length);
      // Backwards first: blocks are read out of order, then in order (the read-ahead's path).
      const backwards = Array.from({ length: held.rows.length }, (_, i) =>
        indexed.rows.row(held.rows.length - 1 - i),
      ).reverse();
      expect(backwards).toEqual(held.rows);
      expect(all(indexed.rows)).toEqual(held.rows);
      expect(Array.from({ length: held.rows.length }, (_, i) => indexed.rows.id(i))).toEqual(
        held.rows.map((r) => r.id),
      );
      expect(units(indexed.rows)).toEqual(conversationUnits(held.rows).map((u) => u.map((r) => r.id)));
      expect(units(rowsInMemory(held.rows))).toEqual(units(indexed.rows));
      expect(indexed.rows.turns).toEqual(rowsInMemory(held.rows).turns);
      expect(indexed.rows.deepResearch).toEqual(
        held.rows.filter((r) => r.deep_research === true).map(({ line, deep_research }) => ({ line, deep_research })),
      );
    },
  );

  it('a last row ending in a lone CR keeps it, as the stream does', async () => {
    const file = write('cr.csv', 'id,question,notes\nq1,Hi?,a\nq2,Bye?,b\r');
    expect(all((await indexDataset(file)).rows)).toEqual((await readDataset(file)).rows);
  });

  it('a lone CR inside a quoted cell is a line break for the line numbers, as csv-parse counts it', async () => {
    const file = write('quoted-cr.csv', 'id,question,notes\n"q1","Hi?","a"\n"q2","Bye?","\rcr"\n"q3","Again?","c"\n');
    const held = await readDataset(file);
    expect(held.rows.map((r) => [r.id, r.line])).toEqual([
      ['q1', 2],
      ['q2', 3],
      ['q3', 5],
    ]);
    expect(all((await indexDataset(file)).rows)).toEqual(held.rows);
  });

  it('a file of lone-CR line ends (not re-readable by LF spans) is held in memory, the rows the same', async () => {
    const file = write('mac.csv', 'id,question\rq1,Hi?\rq2,Bye?\r');
    const held = await readDataset(file);
    expect(held.rows.map((r) => r.id)).toEqual(['q1', 'q2']);
    expect(all((await indexDataset(file)).rows)).toEqual(held.rows);
  });

  it('refuses to read a file that changed after it was indexed', async () => {
    const file = write('changed.csv', trickyCsv(10));
    const indexed = await indexDataset(file);
    appendFileSync(join(dir, 'changed.csv'), '\nq-late,Late?,,,,,,x\n');
    expect(() => indexed.rows.row(0)).toThrow(InputError);
    expect(() => indexed.rows.row(0)).toThrow(/changed\.csv: the file changed after it was read/);
  });

  it('reads the next block ahead, asynchronously: once read, its rows need no read when reached', async () => {
    const file = write('ahead.csv', trickyCsv(300));
    const held = await readDataset(file);
    const indexed = await indexDataset(file);
    expect(indexed.rows.row(0)).toEqual(held.rows[0]); // block 0 read now, block 1 read ahead
    await new Promise((done) => setTimeout(done, 500));
    // Changed afterwards: a read of block 1 now would refuse it, so its rows come from the bytes read ahead.
    appendFileSync(join(dir, 'ahead.csv'), '\nq-late,Late?,,,,,,x\n');
    expect(indexed.rows.row(BLOCK_ROWS)).toEqual(held.rows[BLOCK_ROWS]);
    expect(indexed.rows.row(2 * BLOCK_ROWS - 1)).toEqual(held.rows[2 * BLOCK_ROWS - 1]);
    expect(() => indexed.rows.row(2 * BLOCK_ROWS)).toThrow(/the file changed after it was read/);
  });

  it('an invalid file: the same problems as readDataset, nothing indexed', async () => {
    const file = write('bad.csv', 'id,question\nq1,\nq1,Again?\n');
    const problems = async (read: () => Promise<unknown>) =>
      ((await read().catch((e: unknown) => e)) as InputError).problems;
    expect(await problems(() => indexDataset(file))).toEqual(await problems(() => readDataset(file)));
  });
});

describe('createRecordSpans', () => {
  it('splits on LF outside quotes, fed a byte at a time; drops CR before LF; takes by first line', () => {
    const text = Buffer.from('a,b\r\n"x\r\ny",z\n\n"""q""",\u00e9\nlast');
    const spans = createRecordSpans();
    for (const byte of text) spans.feed(Uint8Array.of(byte));
    spans.end();
    const at = (line: number) => {
      const span = spans.take(line)!;
      return text.subarray(span.offset, span.offset + span.length).toString();
    };
    expect(at(1)).toBe('a,b');
    expect(at(2)).toBe('"x\r\ny",z');
    expect(at(5)).toBe('"""q""",\u00e9'); // line 4 (blank) passed over
    expect(at(6)).toBe('last');
    expect(spans.take(7)).toBeUndefined();
  });
});

it('release lets the rows go: their counts stay, every row, id or unit asked for after it throws', async () => {
  const indexed = await indexDataset(write('q.csv', 'id,question\nq1,One?\nq2,Two?\n'));
  expect(indexed.rows.id(1)).toBe('q2');
  indexed.release();
  expect([indexed.rows.length, indexed.rows.unitCount, indexed.rows.hasConversations]).toEqual([2, 2, false]);
  expect(() => indexed.rows.row(0)).toThrow(/released/);
  expect(() => indexed.rows.id(0)).toThrow(/released/);
  expect(() => indexed.rows.unit(0)).toThrow(/released/);
});

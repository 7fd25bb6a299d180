import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { makeRecord } from '../../metrics/test-records.js';
import type { RequestRecord } from '../../records/record.js';
import { readRecords, readSummary } from './read-records.js';

const dir = mkdtempSync(join(tmpdir(), 'chatbench-read-'));
const line = (q: string) => JSON.stringify(makeRecord({ question_id: q }));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
async function collect(path: string, cwd?: string): Promise<{ records: RequestRecord[]; torn: number }> {
  const file = readRecords(path, cwd === undefined ? {} : { cwd });
  const records: RequestRecord[] = [];
  for await (const r of file) records.push(r);
  return { records, torn: file.tornLines };
}
async function problems(path: string): Promise<readonly string[]> {
  try {
    await collect(path);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
}

describe('readRecords', () => {
  it('reads a run directory (its results.jsonl), skipping blank lines, CRLF or not', async () => {
    mkdirSync(join(dir, 'run'));
    writeFileSync(join(dir, 'run', 'results.jsonl'), `${line('q1')}\r\n\n${line('q2')}\n`);
    const { records, torn } = await collect('run', dir);
    expect(records.map((r) => r.question_id)).toEqual(['q1', 'q2']);
    expect(torn).toBe(0);
  });

  it('skips and counts a torn last line (no newline, not JSON)', async () => {
    const path = write('torn.jsonl', `${line('q1')}\n${line('q2')}\n${line('q3').slice(0, 40)}`);
    const { records, torn } = await collect(path);
    expect(records.map((r) => r.question_id)).toEqual(['q1', 'q2']);
    expect(torn).toBe(1);
  });

  it('keeps a complete last line without a newline', async () => {
    const { records, torn } = await collect(write('no-newline.jsonl', `${line('q1')}\n${line('q2')}`));
    expect(records).toHaveLength(2);
    expect(torn).toBe(0);
  });

  it.each([
    {
      name: 'a bad line in the middle',
      text: () => `${line('q1')}\n{"oops"\n${line('q2')}\n`,
      want: [/^mid\.jsonl:2: not JSON \(/],
    },
    {
      name: 'a terminated last line that is not JSON',
      text: () => `${line('q1')}\n{"oops"\n`,
      want: [/^mid\.jsonl:2: not JSON \(/],
    },
    {
      name: 'lines that are not records, each listed',
      text: () =>
        `${JSON.stringify({ ...makeRecord(), outcome: 'exploded' })}\n${JSON.stringify({ ...makeRecord(), record_version: 2, repeat: 'x' })}\n`,
      want: [
        /^mid\.jsonl:1: outcome: Invalid option: expected one of/,
        /^mid\.jsonl:2: record_version: Invalid input: expected 1; repeat: Invalid input: expected number, received string$/,
      ],
    },
  ])('$name → InputError file:line', async ({ text, want }) => {
    writeFileSync(join(dir, 'mid.jsonl'), text());
    const list = await problems(join(dir, 'mid.jsonl'));
    expect(list.map((p) => p.replace(`${dir}/`, ''))).toHaveLength(want.length);
    list.forEach((p, i) => expect(p.replace(`${dir}/`, '')).toMatch(want[i]!));
  });

  it('stops after 20 bad lines', async () => {
    const list = await problems(write('junk.jsonl', 'x\n'.repeat(100)));
    expect(list).toHaveLength(21);
    expect(list[20]).toMatch(/stopped reading after 20 bad lines$/);
  });

  it('names a missing file or a directory without results.jsonl', async () => {
    await expect(collect('nope', dir)).rejects.toThrow(new InputError(['nope: no such file']));
    mkdirSync(join(dir, 'empty-run'));
    await expect(collect('empty-run', dir)).rejects.toThrow(/^empty-run\/results\.jsonl: no such file$/);
  });

  it('reads an empty file as no records', async () => {
    expect(await collect(write('empty.jsonl', ''))).toEqual({ records: [], torn: 0 });
  });
});

describe('readSummary', () => {
  it('validates summary.json', async () => {
    mkdirSync(join(dir, 'bad-summary'));
    writeFileSync(join(dir, 'bad-summary', 'summary.json'), '{"summary_version": 1}');
    await expect(readSummary('bad-summary', { cwd: dir })).rejects.toThrow(
      /bad-summary\/summary\.json: run: Invalid input/,
    );
  });
});

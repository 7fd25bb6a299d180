/**
 * Issue 12, a full disk: the failure is injected, never made by filling the real disk. The outputs'
 * file system (app/store/output-files withOutputFs) is replaced while a command runs, so that a chosen
 * file's writes fail with ENOSPC after a byte budget (part of the last write lands, as on a real
 * full disk). While results.jsonl is written: exit 3, one line naming the file and the cause, no
 * stack trace, the records written before intact, and `--resume` completes the run. While the
 * reports are written: exit 3 naming the report, and every report as it was before (reports are
 * written to a temporary file and renamed: a failure, or a kill, mid-write leaves the old file whole).
 */
import { appendFileSync, createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withOutputFs, type OutputFs } from '../../src/app/store/output-files.js';
import { readRecords } from '../../src/app/store/read-records.js';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { readRunRecords, runCli, scratch, STACK_LINE, writeCsv, type CliRun } from './helpers.js';

const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

/** Runs chatbench ARGS with writes to files whose path contains `file` failing after `budget` bytes. */
function withFullDisk(file: string, budget: number, args: readonly string[]): Promise<CliRun> {
  let room = budget;
  const full: OutputFs = {
    createWriteStream: ((path: string, options?: { flags?: string }) => {
      if (!String(path).includes(file)) return createWriteStream(path, options);
      if (!(options?.flags ?? 'w').startsWith('a')) writeFileSync(path, '');
      return new Writable({
        write(chunk: Buffer, _encoding, callback) {
          appendFileSync(path, chunk.subarray(0, Math.max(0, room)));
          room -= chunk.length;
          callback(room < 0 ? enospc() : null);
        },
      });
    }) as OutputFs['createWriteStream'],
    writeFile: (async (
      path: Parameters<typeof writeFile>[0],
      data: string | Uint8Array,
      options?: Parameters<typeof writeFile>[2],
    ) => {
      if (!String(path).includes(file)) return writeFile(path, data, options);
      await writeFile(
        path,
        typeof data === 'string' ? data.slice(0, data.length / 2) : data.subarray(0, data.length / 2),
        options,
      );
      throw enospc();
    }) as OutputFs['writeFile'],
  };
  return withOutputFs(full, () => runCli(args));
}

async function setup(questions: number) {
  const server = await startHostileServer(() => ({
    headers: { 'content-type': 'application/json' },
    body: fullAnswer({ answer: 'A fine answer.' }),
  }));
  const dir = scratch();
  const dataset = writeCsv(
    dir,
    Array.from({ length: questions }, (_, i) => [`q${i}`, `Question ${i}?`, '', '', 'false', 'x']),
  );
  const out = join(dir, 'run');
  const args = [
    'eval',
    '--base-url',
    server.baseUrl,
    '--token',
    'tok-1234',
    '--dataset',
    dataset,
    '--mode',
    'full',
    '--concurrency',
    '1',
  ];
  return { server, out, args };
}

describe('a disk that fills up', () => {
  it('while results.jsonl is written: exit 3, one line naming the file and the cause, the records so far intact, --resume finishes', async () => {
    const { server, out, args } = await setup(8);
    // A record of this run is 2 to 3 KB: a few fit, the next one is torn.
    const run = await withFullDisk('results.jsonl', 6000, [...args, '--out', out]);
    expect(run.code).toBe(3);
    const errors = run.stderr.split('\n').filter((l) => l.startsWith('chatbench: '));
    expect(errors).toEqual([`chatbench: cannot write ${join(out, 'results.jsonl')}: no space left on device (ENOSPC)`]);
    expect(run.stderr).toContain(
      `hint: every record written so far is intact: make room, then continue the run with the same command and --resume ${out}`,
    );
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(server.requests.length).toBeLessThan(8); // the run stopped
    const kept = readRecords(out);
    const keys: string[] = [];
    for await (const record of kept) keys.push(record.key);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.length).toBeLessThan(8);
    expect(kept.tornLines).toBe(1);

    const resumed = await runCli([...args, '--resume', out]);
    expect(resumed.code).toBe(0);
    const final = readRunRecords(out).map((r) => r.key);
    expect(final.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `q${i}|default|full|0`).sort());
  });

  it.each(['report.md', 'summary.json', 'results.csv'])(
    'while %s is written by `report`: exit 3 naming it, every report as it was',
    async (name) => {
      const { out, args } = await setup(3);
      expect((await runCli([...args, '--out', out])).code).toBe(0);
      const before = Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
      const run = await withFullDisk(name, 200, ['report', out]);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        new RegExp(
          `^chatbench: cannot write ${join(out, name).replaceAll('.', '\\.')}: no space left on device \\(ENOSPC\\)\\n$`,
        ),
      );
      const after = Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
      expect(after).toEqual(before); // nothing half-written, no temporary file left behind
      expect(existsSync(join(out, name))).toBe(true);
    },
  );
});

/**
 * @module app/read-records
 * Streams the records of a run (a directory's results.jsonl, or the file itself) without loading
 * the file whole. A torn last line (no newline, not JSON: the run was killed mid-write) is ignored;
 * any other bad line is an InputError naming the file and line.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { RequestRecordSchema, type RequestRecord } from '../records/record.js';

export async function resultsPath(pathOrDir: string): Promise<string> {
  const info = await stat(pathOrDir).catch(() => undefined);
  if (!info) throw new InputError([`${pathOrDir}: no such file or directory`]);
  const path = info.isDirectory() ? join(pathOrDir, 'results.jsonl') : pathOrDir;
  if (info.isDirectory() && !(await stat(path).catch(() => undefined))) throw new InputError([`${path}: no such file (is ${pathOrDir} a run directory?)`]);
  return path;
}

export async function* readRecords(pathOrDir: string): AsyncGenerator<RequestRecord> {
  const path = await resultsPath(pathOrDir);
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let lineNumber = 0;
  let pending: { line: string; number: number } | undefined;
  for await (const line of lines) {
    lineNumber += 1;
    // One line behind: only the last line may be torn, so a line is judged once the next exists.
    if (pending) yield parseLine(path, pending.line, pending.number);
    pending = line.trim() === '' ? undefined : { line, number: lineNumber };
  }
  if (pending && !isTorn(pending.line)) yield parseLine(path, pending.line, pending.number);
}

function isTorn(line: string): boolean {
  try {
    JSON.parse(line);
    return false;
  } catch {
    return true;
  }
}

function parseLine(path: string, line: string, number: number): RequestRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new InputError([`${path}:${number}: not a JSON line`]);
  }
  const parsed = RequestRecordSchema.safeParse(value);
  if (!parsed.success) throw new InputError([`${path}:${number}: ${z.prettifyError(parsed.error).split('\n').slice(0, 2).join(' ')}`]);
  return parsed.data;
}

/**
 * @module app/read-records
 * Reads a run's results.jsonl as a stream of validated records (never the whole file at once), and
 * its summary.json. A run that crashed mid-write leaves a torn last line: no trailing newline and
 * not JSON. That line is skipped and counted; any other bad line is an error.
 */
import { parseJsonText } from '../util/parse-json.js';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { readUtf8File } from '../dataset/read-text.js';
import { InputError } from '../errors.js';
import { RequestRecordSchema, type RequestRecord } from '../records/record.js';
import { SummarySchema, type Summary } from '../records/summary.js';

/** Bad lines listed before reading stops: a wrong file is not worth reading to its end. */
const MAX_PROBLEMS = 20;

/** The records of one results.jsonl. */
export interface RecordsFile extends AsyncIterable<RequestRecord> {
  /** The results.jsonl path as messages name it (relative if the user's path was). */
  readonly file: string;
  /** Torn last lines skipped (0 or 1); final once the iteration has ended. */
  readonly tornLines: number;
}

const describeIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`).join('; ');

/** Resolves a run directory (→ its results.jsonl) or a file; InputError `PATH: no such file` when absent. */
async function locate(pathOrDir: string, cwd: string | undefined): Promise<{ file: string; full: string; size: number }> {
  const full = isAbsolute(pathOrDir) || cwd === undefined ? pathOrDir : resolve(cwd, pathOrDir);
  const info = await stat(full).catch(() => undefined);
  if (info === undefined) throw new InputError([`${pathOrDir}: no such file`]);
  if (!info.isDirectory()) return { file: pathOrDir, full, size: info.size };
  const file = join(pathOrDir, 'results.jsonl');
  const inner = await stat(join(full, 'results.jsonl')).catch(() => undefined);
  if (inner === undefined || inner.isDirectory()) throw new InputError([`${file}: no such file`], { hint: 'a run directory holds the results.jsonl that eval or load wrote' });
  return { file, full: join(full, 'results.jsonl'), size: inner.size };
}

/** Whether the file's last byte is a newline (an empty file counts as terminated). */
async function endsWithNewline(full: string, size: number): Promise<boolean> {
  if (size === 0) return true;
  const handle = await open(full, 'r');
  try {
    const { buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
    return buffer[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

/**
 * Streams the validated records of `pathOrDir` (a run directory means its results.jsonl), one line
 * at a time with readline. Blank lines are skipped. A torn last line (no trailing newline, not
 * JSON) is skipped and counted in `tornLines`. Every other bad line — not JSON, or not a valid
 * RequestRecord — is collected as `file:line: problem`, and an InputError listing them (reading
 * stops after 20) is thrown once the file is read, so nothing downstream trusts a half-valid run.
 * A missing file → InputError `file: no such file`. Relative paths resolve against `cwd`.
 */
export function readRecords(pathOrDir: string, options: { cwd?: string } = {}): RecordsFile {
  let torn = 0;
  let fileName = pathOrDir;
  async function* records(): AsyncGenerator<RequestRecord> {
    const { file, full, size } = await locate(pathOrDir, options.cwd);
    fileName = file;
    const terminated = await endsWithNewline(full, size);
    const problems: string[] = [];
    const parse = (text: string, line: number, last: boolean): RequestRecord | undefined => {
      if (text.trim() === '') return undefined;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        if (last && !terminated) {
          torn += 1;
          return undefined;
        }
        problems.push(`${file}:${line}: not JSON (${(error as Error).message})`);
        return undefined;
      }
      const result = RequestRecordSchema.safeParse(json);
      if (result.success) return result.data;
      problems.push(`${file}:${line}: ${describeIssues(result.error)}`);
      return undefined;
    };
    const input = createReadStream(full, { encoding: 'utf8' });
    const lines = createInterface({ input, crlfDelay: Infinity });
    let pending: string | undefined;
    let lineNumber = 0;
    try {
      // One line is held back: only at the end is it known to be the last (and maybe torn).
      for await (const line of lines) {
        if (pending !== undefined) {
          const record = parse(pending, lineNumber, false);
          if (record !== undefined) yield record;
          if (problems.length >= MAX_PROBLEMS) break;
        }
        pending = line;
        lineNumber += 1;
      }
      if (pending !== undefined && problems.length < MAX_PROBLEMS) {
        const record = parse(pending, lineNumber, true);
        if (record !== undefined) yield record;
      }
    } finally {
      lines.close();
      input.destroy();
    }
    if (problems.length > 0) {
      const more = problems.length >= MAX_PROBLEMS ? [`${file}: stopped reading after ${MAX_PROBLEMS} bad lines`] : [];
      throw new InputError([...problems, ...more], { hint: 'results.jsonl holds one RequestRecord (README "Records") per line' });
    }
  }
  return {
    get file() {
      return fileName;
    },
    get tornLines() {
      return torn;
    },
    [Symbol.asyncIterator]: () => records(),
  };
}

/** A run directory's summary.json, validated. InputError `DIR/summary.json: ...` when missing or invalid. */
export async function readSummary(dir: string, options: { cwd?: string } = {}): Promise<Summary> {
  const file = join(dir, 'summary.json');
  const text = await readUtf8File({ path: file, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  return parseJsonText(text, file, SummarySchema);
}

/**
 * @module app/store/read-records
 * Reads a run's results.jsonl as a stream of validated records (never the whole file at once),
 * each with the byte place of its line so one record can be read back alone (the viewer), and its
 * summary.json. A run that crashed mid-write leaves a torn last line: no trailing newline and
 * not JSON. That line is skipped and counted; any other bad line is an error, and so is a line
 * past the cap of a run file's line (util/file-lines), refused before it is read whole.
 */
import { parseJsonText } from '../../util/parse-json.js';
import { open, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { z } from 'zod';
import { readUtf8File } from '../../dataset/read-text.js';
import { InputError } from '../../errors.js';
import { RequestRecordSchema, type RequestRecord } from '../../records/record.js';
import { surelyCompleteRecord } from '../../records/record-fast-check.js';
import { SummarySchema, type Summary } from '../../records/summary.js';
import { upgradeRecordJson } from '../../records/upgrade.js';
import { readFileLines } from '../../util/file-lines.js';
import { runFileLineBytes } from '../../util/limits.js';

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
async function locate(pathOrDir: string, cwd: string | undefined): Promise<{ file: string; full: string }> {
  const full = isAbsolute(pathOrDir) || cwd === undefined ? pathOrDir : resolve(cwd, pathOrDir);
  const info = await stat(full).catch(() => undefined);
  if (info === undefined) throw new InputError([`${pathOrDir}: no such file`]);
  if (!info.isDirectory()) return { file: pathOrDir, full };
  const file = join(pathOrDir, 'results.jsonl');
  const inner = await stat(join(full, 'results.jsonl')).catch(() => undefined);
  if (inner === undefined || inner.isDirectory())
    throw new InputError([`${file}: no such file`], {
      hint: 'a run directory holds the results.jsonl that eval or load wrote',
    });
  return { file, full: join(full, 'results.jsonl') };
}

/** Where one record's line sits in its results.jsonl: what `readRecordAt` reads back. */
export interface RecordPlace {
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Bytes of the line, without its newline (and without a CR before it). */
  readonly length: number;
}

/** The records of one results.jsonl, each with the place of its line. */
/** One record with its line: where it sits, and its text as written (every field, also unknown ones). */
export interface RecordEntry {
  readonly record: RequestRecord;
  readonly place: RecordPlace;
  readonly text: string;
}

export interface RecordEntriesFile extends AsyncIterable<RecordEntry> {
  readonly file: string;
  /** The file's resolved path, for readRecordAt; known once the iteration has started. */
  readonly fullPath: string;
  readonly tornLines: number;
}

/**
 * A RequestRecord from one line's JSON, or the problem with it. A line as this version writes it is
 * used as parsed (records/record-fast-check `surelyCompleteRecord`: zod's output would be that very
 * value); any other line goes through zod, which fills its defaults and words its problems.
 */
export function parseRecordLine(text: string): { record: RequestRecord } | { problem: string; json: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON (${(error as Error).message})`, json: false };
  }
  const upgraded = upgradeRecordJson(json);
  if (surelyCompleteRecord(upgraded)) return { record: upgraded as RequestRecord };
  const result = RequestRecordSchema.safeParse(upgraded);
  return result.success ? { record: result.data } : { problem: describeIssues(result.error), json: true };
}

/**
 * Streams the validated records of `pathOrDir` (a run directory means its results.jsonl) with the
 * byte place of each line. Blank lines are skipped. A torn last line (no trailing newline, not
 * JSON) is skipped and counted in `tornLines`. Every other bad line — not JSON, or not a valid
 * RequestRecord — is collected as `file:line: problem`, and an InputError listing them (reading
 * stops after 20) is thrown once the file is read, so nothing downstream trusts a half-valid run.
 * A missing file → InputError `file: no such file`. Relative paths resolve against `cwd`.
 */
export function readRecordEntries(pathOrDir: string, options: { cwd?: string } = {}): RecordEntriesFile {
  let torn = 0;
  let fileName = pathOrDir;
  let fullPath = pathOrDir;
  async function* entries(): AsyncGenerator<RecordEntry> {
    const { file, full } = await locate(pathOrDir, options.cwd);
    fileName = file;
    fullPath = full;
    const problems: string[] = [];
    for await (const line of readFileLines(full, { name: file })) {
      const lineNumber = line.number;
      if (line.text.trim() === '') continue;
      const parsed = parseRecordLine(line.text);
      if ('record' in parsed)
        yield { record: parsed.record, place: { offset: line.offset, length: line.length }, text: line.text };
      else if (!line.terminated && !parsed.json) torn += 1;
      else problems.push(`${file}:${lineNumber}: ${parsed.problem}`);
      if (problems.length >= MAX_PROBLEMS) break;
    }
    if (problems.length > 0) {
      const more = problems.length >= MAX_PROBLEMS ? [`${file}: stopped reading after ${MAX_PROBLEMS} bad lines`] : [];
      throw new InputError([...problems, ...more], {
        hint: 'results.jsonl holds one record per line (docs/reference/results-jsonl.md)',
      });
    }
  }
  return {
    get file() {
      return fileName;
    },
    get fullPath() {
      return fullPath;
    },
    get tornLines() {
      return torn;
    },
    [Symbol.asyncIterator]: () => entries(),
  };
}

/** The validated records of `pathOrDir`, as readRecordEntries reads them (same rules, same errors). */
export function readRecords(pathOrDir: string, options: { cwd?: string } = {}): RecordsFile {
  const entries = readRecordEntries(pathOrDir, options);
  async function* records(): AsyncGenerator<RequestRecord> {
    for await (const { record } of entries) yield record;
  }
  return {
    get file() {
      return entries.file;
    },
    get tornLines() {
      return entries.tornLines;
    },
    [Symbol.asyncIterator]: () => records(),
  };
}

/**
 * One line of a results.jsonl read back from its place: as parsed JSON (every field kept, also
 * those this version does not know) and as the RequestRecord it was checked to be. InputError when the
 * line is no longer what was read (the file was replaced).
 */
export async function readRecordAt(
  file: string,
  place: RecordPlace,
): Promise<{ json: Record<string, unknown>; record: RequestRecord }> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(place.length), 0, place.length, place.offset);
    const text = buffer.toString('utf8', 0, bytesRead);
    const parsed = parseRecordLine(text);
    if (!('record' in parsed))
      throw new InputError([
        `${file}: byte ${place.offset}: ${parsed.problem} (was the file replaced while it was open?)`,
      ]);
    return { json: JSON.parse(text) as Record<string, unknown>, record: parsed.record };
  } finally {
    await handle.close();
  }
}

/** A run directory's summary.json, validated. InputError `DIR/summary.json: ...` when missing or invalid. */
export async function readSummary(dir: string, options: { cwd?: string } = {}): Promise<Summary> {
  const file = join(dir, 'summary.json');
  const text = await readUtf8File(
    { path: file, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) },
    runFileLineBytes(),
  );
  return parseJsonText(text, file, SummarySchema);
}

/**
 * @module app/store/output-files
 * How chatbench writes the files of a run directory. Every report, manifest and summary is written
 * to a temporary file beside it and renamed over the old one (rename is atomic within a directory),
 * so a process killed mid-write, or a disk that fills up, leaves the previous file or the new one,
 * never half of one. A write that fails becomes an OutputError (exit 3) naming the file and the cause.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { OutputError } from '../../errors.js';

/**
 * The two file operations every output goes through. Node's own, except while a test runs a command
 * under withOutputFs to play a full disk (the failure injected, never made by filling a disk).
 */
export interface OutputFs {
  readonly createWriteStream: typeof createWriteStream;
  readonly writeFile: typeof writeFile;
}

let outputFs: OutputFs = { createWriteStream, writeFile };

/** Runs `body` with `fs` in place of node's for the outputs; restores node's after, whatever happens. */
export async function withOutputFs<T>(fs: Partial<OutputFs>, body: () => Promise<T>): Promise<T> {
  const saved = outputFs;
  outputFs = { ...saved, ...fs };
  try {
    return await body();
  } finally {
    outputFs = saved;
  }
}

/** The file system outputs are written through (results-file.ts streams results.jsonl with it). */
export const currentOutputFs = (): OutputFs => outputFs;

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large for the file system',
  EIO: 'input/output error',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'a directory is in the way',
  ENOTDIR: 'a parent is not a directory',
  ENOENT: 'the directory is gone',
  EMFILE: 'too many open files',
};

/** `no space left on device (ENOSPC)`: the cause of a failed file operation, for a message. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  return `${REASONS[code] ?? (error as Error).message} (${code})`;
}

/** The OutputError of a failed write of `file`; an OutputError passes through as it is. */
export function outputError(file: string, error: unknown, hint?: string): OutputError {
  if (error instanceof OutputError) return error;
  return new OutputError(`cannot write ${file}: ${describeFsError(error)}`, {
    cause: error,
    ...(hint === undefined ? {} : { hint }),
  });
}

/** A name beside `path` that no other writer uses: `.report.md.<random>.tmp`. */
const tempPath = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);

/**
 * Writes `data` to `path` atomically (temp file + rename); OutputError on failure, the temp file
 * removed. `data` may be chunks (a report rendered as it is written, never held whole).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | Iterable<string>): Promise<void> {
  const temp = tempPath(path);
  try {
    await outputFs.writeFile(temp, data, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw outputError(path, error);
  }
}

/**
 * Writes `path` through `fill` on a temp file, then renames it into place. A file-system error
 * becomes an OutputError; any other error of `fill` (the caller's own) passes through as it is.
 */
export async function writeFileAtomicWith(path: string, fill: (handle: FileHandle) => Promise<void>): Promise<void> {
  const temp = tempPath(path);
  try {
    const handle = await open(temp, 'wx');
    try {
      await fill(handle);
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string' ? outputError(path, error) : error;
  }
}

/** A file written as a stream and put in place only when complete (results.csv of a long run). */
export interface AtomicStream {
  /** Queues a chunk; never throws (a failure surfaces in commit()). */
  write(chunk: string): void;
  /** Ends the stream and renames it into place; OutputError when any write failed. */
  commit(): Promise<void>;
  /** Drops what was written (the temporary file removed): the old file stays as it was. */
  abort(): Promise<void>;
}

export function createAtomicStream(path: string): AtomicStream {
  const temp = tempPath(path);
  const out: WriteStream = outputFs.createWriteStream(temp, { flags: 'wx' });
  let failure: unknown;
  out.on('error', (error) => (failure ??= error));
  return {
    write(chunk) {
      if (failure === undefined) out.write(chunk);
    },
    async commit() {
      try {
        if (failure === undefined) {
          out.end();
          await finished(out);
        }
        if (failure !== undefined) throw failure;
        await rename(temp, path);
      } catch (error) {
        out.destroy();
        await rm(temp, { force: true }).catch(() => undefined);
        throw outputError(path, error);
      }
    },
    async abort() {
      out.destroy();
      await new Promise<void>((done) => (out.closed ? done() : out.once('close', () => done())));
      await rm(temp, { force: true }).catch(() => undefined);
    },
  };
}

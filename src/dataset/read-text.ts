/**
 * @module dataset/read-text
 * Reads a user's input file as UTF-8 text, turning every way that can fail into one
 * `file: message` problem (an InputError, exit 2) instead of a Node error with a stack.
 * Shared by the dataset and model-set readers.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { formatBytes, LIMITS } from '../util/limits.js';
import { FileTooLargeError, readCapped } from '../util/read-capped.js';

/** Where to find a file named on the command line, and how to name it in messages. */
export interface InputFile {
  /** As the user wrote it; used in every message. */
  readonly path: string;
  /** Relative paths are resolved against this (the CLI passes io.cwd); default: the process's. */
  readonly cwd?: string;
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'no such file (a parent is not a directory)',
};

/**
 * The file's text without a leading BOM. Throws InputError `file: no such file`, `file: empty file`
 * (no bytes, or only a BOM and whitespace), `file: not UTF-8 (first invalid byte on line N; ...)`
 * or `file: 1.1 GB, over the 268 MB limit of an input file` (a device such as /dev/zero is read
 * no further than the limit).
 */
export async function readUtf8File(file: InputFile, maxBytes: number = LIMITS.inputFileBytes): Promise<string> {
  const fullPath = isAbsolute(file.path) || file.cwd === undefined ? file.path : resolve(file.cwd, file.path);
  let bytes: Buffer;
  try {
    bytes = await readCapped(fullPath, maxBytes);
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new InputError([tooLargeMessage(file.path, error)], { cause: error });
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new InputError([`${file.path}: ${REASONS[code] ?? `cannot read (${code || String(error)})`}`], {
      cause: error,
    });
  }
  let text: string;
  try {
    // The decoder drops a leading BOM itself (ignoreBOM is false by default).
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new InputError(
      [`${file.path}: not UTF-8 (first invalid byte on line ${firstInvalidLine(bytes)}; save the file as UTF-8)`],
      {
        cause: error,
      },
    );
  }
  if (text.trim() === '') throw new InputError([`${file.path}: empty file`]);
  return text;
}

/**
 * The file's text as a stream of chunks, decoded as UTF-8 (a leading BOM dropped) and with every
 * CRLF made LF: what readUtf8File(...).replace(/\r\n/g, '\n') gives, without ever holding the
 * whole file. The same problems as readUtf8File, as InputError: `file: no such file` (and the
 * other fs reasons), `file: not UTF-8 (first invalid byte on line N; ...)`, the size limit (a
 * device is read no further than it). An empty file is the caller's to notice (no text at all).
 * `onBytes` sees each chunk's raw bytes before its text is yielded (dataset/record-spans keeps byte
 * offsets in the file, which the CRLF conversion would shift).
 */
export async function* readUtf8Chunks(
  file: InputFile,
  maxBytes: number = LIMITS.inputFileBytes,
  onBytes?: (chunk: Buffer) => void,
): AsyncGenerator<string> {
  const fullPath = isAbsolute(file.path) || file.cwd === undefined ? file.path : resolve(file.cwd, file.path);
  const fail = (error: unknown): InputError => {
    if (error instanceof InputError) return error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return new InputError([`${file.path}: ${REASONS[code] ?? `cannot read (${code || String(error)})`}`], {
      cause: error,
    });
  };
  const info = await stat(fullPath).catch((error: unknown) => {
    throw fail(error);
  });
  if (info.isDirectory()) throw fail(Object.assign(new Error('directory'), { code: 'EISDIR' }));
  if (info.isFile() && info.size > maxBytes)
    throw new InputError([tooLargeMessage(file.path, new FileTooLargeError(file.path, maxBytes, info.size))]);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const input = createReadStream(fullPath);
  let total = 0;
  let linesBefore = 0; // newlines in the bytes already decoded
  let carryCr = false; // the last chunk ended in \r: it may be half of a CRLF
  const toLf = (text: string): string => {
    let out = carryCr ? `\r${text}` : text;
    carryCr = out.endsWith('\r');
    if (carryCr) out = out.slice(0, -1);
    return out.replace(/\r\n/g, '\n');
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes)
        throw new InputError([
          tooLargeMessage(file.path, new FileTooLargeError(file.path, maxBytes, info.isFile() ? info.size : null)),
        ]);
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch (error) {
        throw new InputError(
          [
            `${file.path}: not UTF-8 (first invalid byte on line ${linesBefore + firstInvalidLine(chunk)}; save the file as UTF-8)`,
          ],
          { cause: error },
        );
      }
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) linesBefore += 1;
      onBytes?.(chunk);
      const out = toLf(text);
      if (out !== '') yield out;
    }
    let last: string;
    try {
      last = decoder.decode();
    } catch (error) {
      throw new InputError(
        [`${file.path}: not UTF-8 (first invalid byte on line ${linesBefore + 1}; save the file as UTF-8)`],
        { cause: error },
      );
    }
    const out = toLf(last) + (carryCr ? '\r' : '');
    if (out !== '') yield out;
  } catch (error) {
    throw fail(error);
  } finally {
    input.destroy();
  }
}

/** Decodes line by line to find the first bad one: newline bytes never occur inside a UTF-8 sequence. */
function firstInvalidLine(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  for (let line = 1; start <= bytes.length; line += 1) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    try {
      decoder.decode(bytes.subarray(start, end));
    } catch {
      return line;
    }
    start = end + 1;
  }
  return 1;
}

/** `file: 1.1 GB, over the 268 MB limit of an input file`, or `file: more than the ...` when the size is unknown (a device). */
export function tooLargeMessage(path: string, error: FileTooLargeError): string {
  return `${path}: ${error.size === null ? 'more than' : `${formatBytes(error.size)}, over`} the ${formatBytes(error.maxBytes)} limit of an input file`;
}

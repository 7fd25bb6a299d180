/**
 * @module util/read-capped
 * Reads a file the user named, never more than a limit: a device (`/dev/zero`), a FIFO or a file of
 * gigabytes must be refused with its size, not read until memory runs out or for ever. The size is
 * checked first when the file system knows it, and the read stops one byte past the limit when it
 * does not (devices and pipes report size 0). Used for datasets, models and gates files, URL lists
 * and token files.
 */
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** The file holds more than `maxBytes`; `size` is its size when known (a regular file), else null. */
export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';
  constructor(
    readonly path: string,
    readonly maxBytes: number,
    readonly size: number | null,
  ) {
    super(`${path}: larger than ${maxBytes} bytes`);
  }
}

const CHUNK = 64 * 1024;

/** The file's bytes; FileTooLargeError past `maxBytes`; other errors are fs errors (with `code`). */
export async function readCapped(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size > maxBytes) throw new FileTooLargeError(path, maxBytes, info.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK, maxBytes + 1 - total);
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(want), 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new FileTooLargeError(path, maxBytes, info.isFile() ? info.size : null);
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

/** readCapped for the synchronous callers (flag parsing). */
export function readCappedSync(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const info = fstatSync(fd);
    if (info.isFile() && info.size > maxBytes) throw new FileTooLargeError(path, maxBytes, info.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK, maxBytes + 1 - total);
      const buffer = Buffer.alloc(want);
      const bytesRead = readSync(fd, buffer, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new FileTooLargeError(path, maxBytes, info.isFile() ? info.size : null);
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

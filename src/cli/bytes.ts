/**
 * @module cli/bytes
 * Sizes on the command line: `1048576`, `512KiB`, `1MiB`, `2MB` (powers of 1024 for KiB/MiB/GiB,
 * of 1000 for KB/MB/GB); a bare number is bytes.
 */
import { UsageError } from '../errors.js';

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
};

/** Bytes of a size flag (a positive whole number of bytes, at most `max`); throws a UsageError naming the flag on anything else. */
export function parseBytes(text: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = UNITS[(m?.[2] ?? '').toLowerCase()];
  const bytes = m === null || unit === undefined ? Number.NaN : Math.floor(Number(m[1]) * unit);
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(`--${flag}: "${text}" is not a size (e.g. 1MiB, 512KiB, 200000)`);
  if (bytes > max) throw new UsageError(`--${flag}: "${text}" is over the limit of ${max} bytes`);
  return bytes;
}

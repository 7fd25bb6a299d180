import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { checksLimits } from './quality-flags.js';

describe('checksLimits: --checks-timeout, --checks-total-timeout, --checks-max-heap-bytes', () => {
  it('defaults: 30 s together, a 256 MiB heap', () => {
    expect(checksLimits({ 'checks-timeout': '2s' })).toEqual({ timeoutMs: 2000, totalMs: 30_000, heapMb: 256 });
  });

  it('takes the values given, the heap in whole MiB', () => {
    expect(
      checksLimits({ 'checks-timeout': '500ms', 'checks-total-timeout': '2m', 'checks-max-heap-bytes': '1GiB' }),
    ).toEqual({ timeoutMs: 500, totalMs: 120_000, heapMb: 1024 });
    expect(checksLimits({ 'checks-timeout': '2s', 'checks-max-heap-bytes': '64.5MiB' }).heapMb).toBe(64);
  });

  it.each([
    [{ 'checks-total-timeout': 'soon' }, /^--checks-total-timeout/],
    [{ 'checks-total-timeout': '0s' }, /^--checks-total-timeout must be above 0/],
    [{ 'checks-max-heap-bytes': 'lots' }, /^--checks-max-heap-bytes: "lots" is not a size/],
    [{ 'checks-max-heap-bytes': '8MiB' }, /^--checks-max-heap-bytes: "8MiB" is under the least a worker needs, 16MiB/],
  ])('refuses %o naming the flag (exit 2)', (flags, message) => {
    const run = () => checksLimits({ 'checks-timeout': '2s', ...flags });
    expect(run).toThrow(UsageError);
    expect(run).toThrow(message);
  });
});

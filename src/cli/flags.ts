/**
 * @module cli/flags
 * Flags shared by the commands that send requests, defined once so they read the same everywhere.
 */
import type { Argv } from 'yargs';
import { UsageError } from '../errors.js';
import { formatCount, LIMITS } from '../util/limits.js';
import { parseShard, type Shard } from '../plan/shard.js';
import type { Io } from './io.js';

export function withConnectionFlags<T>(y: Argv<T>) {
  return y
    .option('base-url', {
      type: 'string',
      describe: 'Base URL of the chat service, with its path prefix (env CHATBENCH_BASE_URL)',
      group: 'Target:',
    })
    .option('token', {
      type: 'string',
      describe: 'Bearer token (env CHATBENCH_TOKEN); never printed',
      group: 'Target:',
    })
    .option('token-file', { type: 'string', describe: 'Read the bearer token from this file', group: 'Target:' })
    .option('sim', {
      type: 'boolean',
      default: false,
      describe: 'Run against the embedded simulated service (a dry run); no --base-url needed',
      group: 'Target:',
    })
    .option('seed', { type: 'number', default: 1, describe: 'Seed of the embedded simulator', group: 'Target:' });
}

/** The epilogue of the commands that send: where the limits are, and what happens past one. */
export const LIMITS_NOTE =
  'Every count, rate and duration has a maximum (docs/limits.md: 10,000 in flight, 100,000 per second, 10,000,000 requests, 7 days), checked before anything is sent: exit 2. The run directory is locked while the command writes it.';

/** A number flag that must be a whole number from `min` to `max` (docs/limits.md); yargs gives NaN for "abc". */
export function wholeNumber(
  value: number,
  flag: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): string | undefined {
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${formatCount(max)}`;
  if (!Number.isInteger(value) || value < min || value > max)
    return `--${flag} must be a whole number ${range}, got ${shown(value)}`;
  return undefined;
}

/** A rate flag: above 0 and at most `max` per second. */
export function rateNumber(value: number, flag: string, max: number): string | undefined {
  if (!(value > 0) || value > max)
    return `--${flag} must be a number above 0 and at most ${formatCount(max)} per second, got ${shown(value)}`;
  return undefined;
}

const shown = (value: number): string => (Number.isNaN(value) ? 'a non-number' : String(value));

/**
 * `--shard i/N`, or `--shards N` with the 0-based index from JOB_COMPLETION_INDEX (a Kubernetes
 * Indexed Job). Null when neither is given.
 */
export function resolveShard(flags: { shard?: string | undefined; shards?: number | undefined }, io: Io): Shard | null {
  if (flags.shard !== undefined && flags.shards !== undefined)
    throw new UsageError(
      '--shard and --shards conflict: give --shard i/N, or --shards N with JOB_COMPLETION_INDEX set',
    );
  if (flags.shard !== undefined) {
    const shard = parseShard(flags.shard);
    if (typeof shard === 'string') throw new UsageError(`--shard: ${shard}`);
    if (shard.count > LIMITS.shards)
      throw new UsageError(`--shard ${flags.shard}: at most ${formatCount(LIMITS.shards)} shards`);
    return shard;
  }
  if (flags.shards === undefined) return null;
  const problem = wholeNumber(flags.shards, 'shards', 1, LIMITS.shards);
  if (problem) throw new UsageError(problem);
  const index = io.env.JOB_COMPLETION_INDEX;
  if (index === undefined || !/^\d+$/.test(index))
    throw new UsageError(
      '--shards needs JOB_COMPLETION_INDEX (0-based, as a Kubernetes Indexed Job sets it); or give --shard i/N',
    );
  const shard = parseShard(`${Number(index) + 1}/${flags.shards}`);
  if (typeof shard === 'string')
    throw new UsageError(`JOB_COMPLETION_INDEX=${index} with --shards ${flags.shards}: ${shard}`);
  return shard;
}

export function withShardFlags<T>(y: Argv<T>) {
  return y
    .option('shard', { type: 'string', describe: 'Run only shard i of N (1-based), e.g. 2/4', group: 'Scale out:' })
    .option('shards', {
      type: 'number',
      describe: 'Shard count; the index comes from JOB_COMPLETION_INDEX (0-based)',
      group: 'Scale out:',
    });
}

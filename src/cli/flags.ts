/**
 * @module cli/flags
 * Flags shared by the commands that send requests, defined once so they read the same everywhere.
 */
import type { Argv } from 'yargs';

export function withConnectionFlags<T>(y: Argv<T>) {
  return y
    .option('base-url', { type: 'string', describe: 'Base URL of the chat service, with its path prefix (env CHATBENCH_BASE_URL)', group: 'Target:' })
    .option('token', { type: 'string', describe: 'Bearer token (env CHATBENCH_TOKEN); never printed', group: 'Target:' })
    .option('token-file', { type: 'string', describe: 'Read the bearer token from this file', group: 'Target:' })
    .option('sim', { type: 'boolean', default: false, describe: 'Run against the embedded simulated service (a dry run); no --base-url needed', group: 'Target:' })
    .option('seed', { type: 'number', default: 1, describe: 'Seed of the embedded simulator', group: 'Target:' });
}

/** A number flag that must be a whole number ≥ min; yargs gives NaN for "abc". */
export function wholeNumber(value: number, flag: string, min: number): string | undefined {
  if (!Number.isInteger(value) || value < min) return `--${flag} must be a whole number of at least ${min}, got ${Number.isNaN(value) ? 'a non-number' : value}`;
  return undefined;
}

/**
 * @module history/location
 * Where the history store is and which commands register in it. Light on purpose: cli/main and
 * the commands import it on every start, and the database (history/store) loads only when used.
 */
import { resolve } from 'node:path';

export const REGISTERED_COMMANDS = ['eval', 'load', 'capacity', 'merge', 'compare'] as const;

/** Where the store is: `--history FILE` (CHATBENCH_HISTORY), else reports/history.duckdb; undefined with --no-history. */
export function historyFile(option: string | boolean | undefined, cwd: string): string | undefined {
  if (option === false || option === 'false') return undefined;
  return resolve(
    cwd,
    typeof option === 'string' && option !== '' && option !== 'true' ? option : 'reports/history.duckdb',
  );
}

/** The store a command reads (history, query, a last-passing baseline): `--no-history` leaves no run out here, so it means the default. */
export function storeToRead(option: string | boolean | undefined, cwd: string): string {
  return historyFile(option, cwd) ?? historyFile(undefined, cwd)!;
}

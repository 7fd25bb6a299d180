/**
 * @module cli/baseline-ref
 * `--baseline last-passing[:BRANCH]` (eval) and `compare last-passing[:BRANCH] CURRENT`: the baseline
 * found in the run history (docs/history.md) — the latest eval that passed, on BRANCH when named.
 * Any other value is a run directory and passes through unchanged.
 */
import { relative, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { storeToRead } from '../history/location.js';
import type { Io } from './io.js';

const REF = /^last-passing(?::(.+))?$/;

export const isBaselineRef = (value: string): boolean => REF.test(value);

/** The run directory `value` names (relative to the working directory); the history is read only for a reference. */
export async function resolveBaselineRef(
  value: string | undefined,
  flag: string,
  io: Io,
  args: object,
  excluding?: string,
): Promise<string | undefined> {
  const match = value === undefined ? null : REF.exec(value);
  if (match === null) return value;
  const file = storeToRead((args as { history?: string | boolean }).history, io.cwd);
  const branch = match[1];
  // The database loads only for a reference: a plain --baseline DIR never pays for it.
  const [{ lastPassing }, { withStore }] = await Promise.all([
    import('../history/queries.js'),
    import('../history/store.js'),
  ]);
  const found = await withStore(file, (db) =>
    lastPassing(db, 'eval', branch, excluding === undefined ? undefined : resolve(io.cwd, excluding)),
  );
  if (found === undefined) {
    throw new InputError(
      [`${flag} ${value}: no passing eval${branch === undefined ? '' : ` on branch ${branch}`} in the history ${file}`],
      { hint: 'chatbench history --command eval lists the runs it holds; history import DIR... adds run directories' },
    );
  }
  const shown = relative(io.cwd, found) || '.';
  io.stderr.write(`${flag} ${value}: ${shown}\n`);
  return shown;
}

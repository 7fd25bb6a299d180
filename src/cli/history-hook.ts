/**
 * @module cli/history-hook
 * The one place a finished run registers in the history (docs/history.md): after eval, load,
 * capacity, merge or compare returns, from the result it gave (the same object `--json` prints).
 * A failure is a warning on stderr; the exit code is the run's.
 */
import { historyFile, REGISTERED_COMMANDS } from '../history/location.js';
import type { FinishedRun } from '../history/register.js';
import type { Io } from './io.js';
import { collectGarbageIfHeld } from '../app/shared/heap.js';

export async function registerInHistory(
  command: string | undefined,
  result: unknown,
  option: string | boolean | undefined,
  io: Io,
): Promise<void> {
  if (!REGISTERED_COMMANDS.some((c) => c === command) || typeof result !== 'object' || result === null) return;
  const finished = result as FinishedRun;
  // A refused command line gives a result without a run: nothing to register.
  if (finished.command !== command || (finished.run_dir === undefined && finished.files === undefined)) return;
  const file = historyFile(option, io.cwd);
  if (file === undefined) return;
  // The database loads here, once a run has ended: `--version` and `--help` never pay for it. The
  // run's garbage goes first when there is enough of it to matter (a large run's reports leave far
  // more than the threshold): its library takes ~50 MB more, on top of whatever the reports left.
  // Measured from the least the process held, not from the reports' last collection (app/shared/heap).
  collectGarbageIfHeld();
  const { registerFinished } = await import('../history/register.js');
  const warning = await registerFinished(finished, file, io.cwd);
  if (warning !== undefined) io.stderr.write(`${warning}\n`);
}

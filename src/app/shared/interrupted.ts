/**
 * @module app/shared/interrupted
 * Where an interrupt stops rendering: between reports, before any file is replaced, so a run
 * directory never holds half of a new set of reports (eval's and load's alike).
 */
import { InterruptedError } from '../../errors.js';

/** Throws InterruptedError when `signal` was aborted; reports stopped before they were written. */
export function stopIfInterrupted(signal: AbortSignal | undefined, dir: string): void {
  if (signal?.aborted)
    throw new InterruptedError(
      `interrupted: ${dir}: no report was replaced; run \`chatbench report\` again to rebuild them`,
      signal,
    );
}

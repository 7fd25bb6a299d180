/**
 * @module cli/io
 * Everything the commands may take from the process, passed in so tests run the CLI in-process
 * with buffers (k6's GlobalState).
 */
import type { Writable } from 'node:stream';
import { InterruptReason, STOP_SIGNALS, type StopSignal } from '../errors.js';
import type { Output } from './output/types.js';

export interface Io {
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * Aborted on the first SIGINT, SIGTERM or SIGHUP (its reason an InterruptReason naming which);
   * `onSecondInterrupt` fires on the next one.
   */
  readonly signal: AbortSignal;
  readonly onSecondInterrupt: (listener: () => void) => void;
  /** The output mode (--json, --quiet, --verbose) and colour; main() sets it for the commands. */
  readonly output?: Output | undefined;
}

export function nodeIo(): Io {
  const controller = new AbortController();
  const second: Array<() => void> = [];
  const onSignal = (signal: StopSignal) => {
    // A closed terminal (SIGHUP) fails every later write to it: the run still ends cleanly.
    if (signal === 'SIGHUP') for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
    if (controller.signal.aborted) for (const listener of second) listener();
    else controller.abort(new InterruptReason(signal));
  };
  // All three stop a run alike: grace, then cancel; every record and report written; the lock released.
  for (const signal of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(signal, onSignal);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    onSecondInterrupt: (listener) => void second.push(listener),
  };
}

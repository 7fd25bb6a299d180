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

/**
 * `chatbench … --json | head` closes stdout's reader early: every Unix tool then stops quietly, so a
 * broken pipe on stdout or stderr is no error here (no stack trace, no exit 1). Later writes to the
 * closed stream are dropped; the run still writes its files and releases its lock. Returns whether
 * a reader went away, for the exit code (0, as the pipeline asked for no more).
 */
export function quietOnClosedPipe(streams: readonly NodeJS.EventEmitter[]): () => boolean {
  let closed = false;
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || (closed && error.code === 'ERR_STREAM_DESTROYED')) closed = true;
      else throw error;
    });
  }
  return () => closed;
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

/**
 * @module cli/io
 * Everything the commands may take from the process, passed in so tests run the CLI in-process
 * with buffers (k6's GlobalState).
 */
import type { Writable } from 'node:stream';
import type { Output } from './output/output.js';

export interface Io {
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on the first SIGINT/SIGTERM; `onSecondInterrupt` fires on the next one. */
  readonly signal: AbortSignal;
  readonly onSecondInterrupt: (listener: () => void) => void;
  /** The output mode (--json, --quiet, --verbose) and colour; main() sets it for the commands. */
  readonly output?: Output | undefined;
}

export function nodeIo(): Io {
  const controller = new AbortController();
  const second: Array<() => void> = [];
  const onSignal = () => {
    if (controller.signal.aborted) for (const listener of second) listener();
    else controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    onSecondInterrupt: (listener) => void second.push(listener),
  };
}

/**
 * In-process Io for CLI tests: stdout and stderr into buffers, a chosen env and cwd, and an
 * interrupt() that plays the first and then the second Ctrl-C (k6's GlobalTestState).
 */
import { Writable } from 'node:stream';
import type { Io } from '../../src/cli/io.js';
import { InterruptReason, type StopSignal } from '../../src/errors.js';

export interface FakeIo {
  readonly io: Io;
  /** Everything written to stdout so far, decoded as UTF-8. */
  stdout(): string;
  /** Everything written to stderr so far, decoded as UTF-8. */
  stderr(): string;
  /** First call aborts io.signal (as `signal` would, default SIGINT); later calls fire the second-interrupt listeners. */
  interrupt(signal?: StopSignal): void;
}

function bufferStream(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, encoding, callback) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      callback();
    },
  });
}

/** `env` defaults to empty but CHATBENCH_HISTORY=false (tests never inherit the developer's CHATBENCH_* settings); `cwd` to process.cwd(). */
export function createFakeIo(options: { env?: Record<string, string | undefined>; cwd?: string } = {}): FakeIo {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const controller = new AbortController();
  const second: Array<() => void> = [];
  const io: Io = {
    stdout: bufferStream(out),
    stderr: bufferStream(err),
    // No run history unless a test names one: tests never write the repository's reports/history.duckdb.
    env: { CHATBENCH_HISTORY: 'false', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    signal: controller.signal,
    onSecondInterrupt: (listener) => void second.push(listener),
  };
  return {
    io,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
    interrupt: (signal = 'SIGINT') => {
      if (controller.signal.aborted) for (const listener of second) listener();
      else controller.abort(new InterruptReason(signal));
    },
  };
}

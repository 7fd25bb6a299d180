/**
 * @module errors
 * Typed errors with a stable `code` and the published exit codes. Everything raised on purpose is a
 * ToolkitError; anything else reaching the CLI is a bug and exits 4.
 */

/** Published in docs/reference/exit-codes.md; never renumbered. */
export const ExitCode = {
  Ok: 0,
  GateFailed: 1,
  InvalidInput: 2,
  RunFailed: 3,
  Internal: 4,
  /** Stopped by SIGHUP (a closed terminal): 128 + 1, as a shell reports a process it killed. */
  Hangup: 129,
  /** Stopped by SIGINT (Ctrl-C): 128 + 2. */
  Interrupted: 130,
  /** Stopped by SIGTERM (a CI runner's cancel, `kill`): 128 + 15. */
  Terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Base of every error raised on purpose. */
export abstract class ToolkitError extends Error {
  abstract readonly code: `E_${string}`;
  abstract readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  constructor(message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, { cause: options.cause });
    this.hint = options.hint;
  }
}

/** A command line that cannot be carried out as written (bad flag, bad value, conflicting flags). */
export class UsageError extends ToolkitError {
  override readonly name = 'UsageError';
  readonly code = 'E_USAGE';
  readonly exitCode = ExitCode.InvalidInput;
}

/**
 * A user's input file is wrong. `problems` are complete lines, each `file:line: field: message`
 * (or `file: message` when no line applies), all of them listed at once.
 */
export class InputError extends ToolkitError {
  override readonly name = 'InputError';
  readonly code = 'E_INPUT';
  readonly exitCode = ExitCode.InvalidInput;
  readonly problems: readonly string[];
  constructor(problems: readonly string[], options: { cause?: unknown; hint?: string } = {}) {
    super(problems.join('\n'), options);
    this.problems = problems;
  }
}

/** The run could not be carried out: target unreachable, every request refused. */
export class RunError extends ToolkitError {
  override readonly name = 'RunError';
  readonly code = 'E_RUN';
  readonly exitCode = ExitCode.RunFailed;
}

/**
 * A file chatbench writes could not be written: the disk is full, a quota is reached, the file
 * system turned read-only or failed. An environment failure, not a bug: exit 3, one line naming the
 * file and the cause. What was written before (every complete record) stays as it was.
 */
export class OutputError extends ToolkitError {
  override readonly name = 'OutputError';
  readonly code = 'E_OUTPUT';
  readonly exitCode = ExitCode.RunFailed;
}

/** The signals that stop a run cleanly, and the exit code each gives (docs/reference/exit-codes.md). */
export const STOP_SIGNALS = {
  SIGHUP: ExitCode.Hangup,
  SIGINT: ExitCode.Interrupted,
  SIGTERM: ExitCode.Terminated,
} as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** The reason an interrupt aborts the Io's signal with: which signal it was. */
export class InterruptReason extends Error {
  override readonly name = 'InterruptReason';
  constructor(readonly signal: StopSignal) {
    super(`interrupted (${signal})`);
  }
}

/** The exit code of a run stopped by the interrupt that aborted `signal`: 129, 130 or 143 (130 when the signal is not known). */
export function interruptedExitCode(signal: AbortSignal): ExitCode {
  const reason: unknown = signal.reason;
  return reason instanceof InterruptReason ? STOP_SIGNALS[reason.signal] : ExitCode.Interrupted;
}

/**
 * A command that stops part-way on an interrupt (`report`): nothing it was writing replaced the
 * old file. Exit 129/130/143 by the signal.
 */
export class InterruptedError extends ToolkitError {
  override readonly name = 'InterruptedError';
  readonly code = 'E_INTERRUPTED';
  readonly exitCode: ExitCode;
  constructor(message: string, signal: AbortSignal) {
    super(message);
    this.exitCode = interruptedExitCode(signal);
  }
}

export const exitCodeOf = (error: unknown): ExitCode =>
  error instanceof ToolkitError ? error.exitCode : ExitCode.Internal;

/** One line per problem for a user's mistake; the stack only for a bug, where it helps the report. */
export function formatError(error: unknown): string {
  if (error instanceof ToolkitError) {
    return `chatbench: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `chatbench: internal error (a bug, please report it): ${detail}\n`;
}

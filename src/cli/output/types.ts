/**
 * @module cli/output/types
 * The shape of the output every command writes through (cli/output/output builds it), apart from
 * the builder so that cli/io can name it without importing the builder, which reads an Io.
 */
import type { Writable } from 'node:stream';
import type { Paint } from './style.js';

/** A stream commands write to: a terminal's isTTY and columns when it is one. */
export type Out = Writable & { isTTY?: boolean; columns?: number };

export type OutputMode = 'normal' | 'json' | 'quiet' | 'verbose';

export interface OutputSettings {
  readonly json?: boolean | undefined;
  readonly quiet?: boolean | undefined;
  readonly verbose?: boolean | undefined;
  readonly color?: boolean | undefined;
}

export interface Output {
  readonly mode: OutputMode;
  /** Colour for what goes to stdout, and to stderr (each follows its own TTY). */
  readonly paint: Paint;
  readonly paintErr: Paint;
  /** What commands write human text to; silenced as the mode says. */
  readonly stdout: Out;
  readonly stderr: Out;
  /** stdout and stderr as every mode has them (help, errors), filtered and coloured. */
  readonly out: Out;
  readonly err: Out;
  /** The outcome in a line or a few (every mode but --json, where the JSON carries it). */
  verdict(text: string): void;
  /** Shown on stderr in every mode, --quiet too: errors, failed gates. */
  alert(text: string): void;
  /** With --verbose only: a line per request. */
  detail(text: string): void;
  /** The command's result; printed as JSON on stdout with --json, else ignored. */
  result(value: unknown): void;
  readonly resultGiven: boolean;
  /** The result given, in every mode: the run history reads it (cli/history-hook). */
  readonly lastResult: unknown;
  /** Called once, when the options are known; before, everything behaves as `normal`. */
  configure(settings: OutputSettings): void;
}

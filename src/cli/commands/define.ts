/**
 * @module cli/commands/define
 * What every command file needs from the registry, apart from the registry (index.ts imports the
 * commands; the commands import only this).
 */
import type { CommandModule } from 'yargs';
import type { ExitCode } from '../../errors.js';
import type { Io } from '../io.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandModule<any, any>;
export type SetExitCode = (code: ExitCode) => void;

/**
 * Types a command against its own arguments, then widens it for the registry: a handler of
 * concrete arguments is not assignable to CommandModule<any, any>'s (ArgumentsCamelCase<any> lacks
 * the named keys), so the one cast lives here.
 */
export const defineCommand = <A>(command: CommandModule<object, A>): AnyCommand => command as unknown as AnyCommand;

/**
 * A command's flags and help without what it does: its run lives in cli/run and is loaded only when
 * the command runs (commands/index.ts names it), so `--help` and a refused command line load the
 * parser's modules, not the run's (~0.5 s of CPU for eval's).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandFlags = Omit<CommandModule<any, any>, 'handler'>;
export const defineFlags = <A>(flags: Omit<CommandModule<object, A>, 'handler'>): CommandFlags =>
  flags as unknown as CommandFlags;

/** What a command does with its parsed arguments: the exit code. */
export type CommandRun<A> = (args: A, io: Io) => Promise<ExitCode>;

/**
 * @module cli/commands/define
 * What every command file needs from the registry, apart from the registry (index.ts imports the
 * commands; the commands import only this).
 */
import type { CommandModule } from 'yargs';
import type { ExitCode } from '../../errors.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandModule<any, any>;
export type SetExitCode = (code: ExitCode) => void;

/**
 * Types a command against its own arguments, then widens it for the registry: a handler of
 * concrete arguments is not assignable to CommandModule<any, any>'s (ArgumentsCamelCase<any> lacks
 * the named keys), so the one cast lives here.
 */
export const defineCommand = <A>(command: CommandModule<object, A>): AnyCommand => command as unknown as AnyCommand;

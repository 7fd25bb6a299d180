/**
 * @module cli/commands
 * The registry of commands, one file each.
 */
import type { CommandModule } from 'yargs';
import type { ExitCode } from '../../errors.js';
import type { Io } from '../io.js';
import { baselineCommand } from './baseline.js';
import { capacityCommand } from './capacity.js';
import { compareCommand } from './compare.js';
import { demoCommand } from './demo.js';
import { evalCommand } from './eval.js';
import { loadCommand } from './load.js';
import { mergeCommand } from './merge.js';
import { reportCommand } from './report.js';
import { serveCommand } from './serve.js';
import { validateCommand } from './validate.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandModule<any, any>;
export type SetExitCode = (code: ExitCode) => void;

/**
 * Types a command against its own arguments, then widens it for the registry: a handler of
 * concrete arguments is not assignable to CommandModule<any, any>'s (ArgumentsCamelCase<any> lacks
 * the named keys), so the one cast lives here.
 */
export const defineCommand = <A>(command: CommandModule<object, A>): AnyCommand => command as unknown as AnyCommand;

export function commands(_io: Io, _setExitCode: SetExitCode): AnyCommand[] {
  return [
    evalCommand(_io, _setExitCode),
    loadCommand(_io, _setExitCode),
    capacityCommand(_io, _setExitCode),
    demoCommand(_io, _setExitCode),
    reportCommand(_io, _setExitCode),
    validateCommand(_io, _setExitCode),
    serveCommand(_io, _setExitCode),
    compareCommand(_io, _setExitCode),
    baselineCommand(_io, _setExitCode),
    mergeCommand(_io, _setExitCode),
  ];
}

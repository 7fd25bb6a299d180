/**
 * @module cli/commands
 * The registry of commands, one file each.
 */
import type { CommandModule } from 'yargs';
import type { ExitCode } from '../../errors.js';
import type { Io } from '../io.js';
import { serveCommand } from './serve.js';
import { validateCommand } from './validate.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandModule<any, any>;
export type SetExitCode = (code: ExitCode) => void;

export function commands(_io: Io, _setExitCode: SetExitCode): AnyCommand[] {
  return [validateCommand(_io, _setExitCode), serveCommand(_io, _setExitCode)];
}

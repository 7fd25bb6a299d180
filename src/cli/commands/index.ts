/**
 * @module cli/commands
 * The registry of commands, one file each.
 */
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
import { viewCommand } from './view.js';
import type { AnyCommand, SetExitCode } from './define.js';

export type { AnyCommand, SetExitCode } from './define.js';

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
    viewCommand(_io, _setExitCode),
  ];
}

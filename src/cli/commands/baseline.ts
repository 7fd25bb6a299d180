/**
 * @module cli/commands/baseline
 * `chatbench baseline save RUN DEST`: keeps a run as a small, reviewable baseline (see
 * app/eval/baseline) that `compare` and `eval --baseline` accept as a side. Its flags and help;
 * what it runs is cli/run/baseline.ts, loaded only when it runs.
 */
import type { Argv } from 'yargs';
import type { Io } from '../io.js';
import type { SaveArgs } from '../run/baseline.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

function saveCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<SaveArgs>({
    command: 'save <run> <dest>',
    describe: 'Save a run as a baseline: sorted records, answers trimmed, per-part timings dropped',
    builder: (y: Argv) =>
      y
        .positional('run', { type: 'string', demandOption: true, describe: 'run directory (or its results.jsonl)' })
        .positional('dest', {
          type: 'string',
          demandOption: true,
          describe: 'baseline directory, e.g. datasets/baselines/main (created if needed)',
        })
        .example(
          '$0 baseline save reports/2026-11-20T10-00-00-eval datasets/baselines/main',
          'keep the last run as the main baseline, to commit',
        ),
    // A subcommand: its run (cli/run/baseline) loads when it runs, as the registry's split commands' do.
    handler: async (args) => setExitCode(await (await import('../run/baseline.js')).save(args, io)),
  });
}

export function baselineCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return {
    command: 'baseline <command>',
    describe: 'Keep a run as a baseline to compare later runs with',
    builder: (y: Argv) =>
      y.command(saveCommand(io, setExitCode)).demandCommand(1, 'Name a subcommand: baseline save RUN DEST'),
    handler: () => undefined,
  };
}

/**
 * @module cli/commands/baseline
 * `chatbench baseline save RUN DEST`: keeps a run as a small, reviewable baseline (see
 * app/eval/baseline) that `compare` and `eval --baseline` accept as a side.
 */
import type { Argv } from 'yargs';
import { saveBaseline } from '../../app/eval/baseline.js';
import { ExitCode } from '../../errors.js';
import { claimDir } from '../claim.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { reportFailure } from './compare.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

interface SaveArgs {
  run: string;
  dest: string;
}

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
    handler: async (args) => {
      try {
        const claim = await claimDir(io, args.dest, { label: `DEST ${args.dest}`, command: 'baseline save' });
        let saved;
        try {
          saved = await saveBaseline({ runDir: args.run, destDir: args.dest, cwd: io.cwd });
        } finally {
          await claim.release();
        }
        const torn = saved.tornLines > 0 ? ` (skipped ${saved.tornLines} torn last line)` : '';
        io.stdout.write(`Saved ${saved.records} records${torn}: ${saved.files.join(', ')}\n`);
        outputOf(io).result({
          command: 'baseline save',
          exit_code: ExitCode.Ok,
          records: saved.records,
          torn_lines: saved.tornLines,
          files: saved.files,
        });
        setExitCode(ExitCode.Ok);
      } catch (error) {
        reportFailure(io, setExitCode, error, 'baseline save');
      }
    },
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

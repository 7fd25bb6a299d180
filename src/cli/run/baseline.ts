/**
 * @module cli/run/baseline
 * `chatbench baseline save`'s run: keeps a run as a baseline (app/eval/baseline). Its flags are
 * cli/commands/baseline.ts.
 */
import { saveBaseline } from '../../app/eval/baseline.js';
import { ExitCode } from '../../errors.js';
import { claimDir } from '../claim.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { reportFailure } from './compare.js';

export interface SaveArgs {
  run: string;
  dest: string;
}

export async function save(args: SaveArgs, io: Io): Promise<ExitCode> {
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
    return ExitCode.Ok;
  } catch (error) {
    return reportFailure(io, error, 'baseline save');
  }
}

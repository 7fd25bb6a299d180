/**
 * @module cli/commands/draft-expectations
 * `chatbench draft-expectations RUN_DIR`: a first run's cited and top documents turned into a
 * dataset draft (app/eval/draft-expectations): the expected document ids a user does not know yet.
 */
import type { Argv } from 'yargs';
import { ExitCode, UsageError } from '../../errors.js';
import { wholeNumber } from '../flags.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

interface DraftArgs {
  run: string;
  dataset: string | undefined;
  out: string | undefined;
  top: number;
  'min-sets': number;
}

export function draftExpectationsCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<DraftArgs>({
    command: 'draft-expectations <run>',
    describe: "Propose each question's expected_documents from a run's cited documents (a dataset draft)",
    builder: (y: Argv) =>
      y
        .positional('run', { type: 'string', demandOption: true, describe: 'the run directory eval wrote' })
        .option('dataset', {
          type: 'string',
          describe: 'the dataset the run asked (default: the one its manifest.json names)',
        })
        .option('out', {
          alias: 'o',
          type: 'string',
          describe: 'the draft CSV (default RUN/expectations-draft.csv); the candidates go beside it, .candidates.json',
        })
        .option('top', { type: 'number', default: 3, describe: 'documents proposed per question, at most' })
        .option('min-sets', {
          type: 'number',
          default: 1,
          describe: 'sets that must have cited a document for it to be proposed',
        })
        .example(
          '$0 draft-expectations reports/2026-11-20T10-00-00-eval',
          'propose expected_documents for the questions of a first run that have none (RUN/expectations-draft.csv)',
        )
        .example(
          '$0 draft-expectations reports/2026-11-20T10-00-00-eval --min-sets 2 --top 1',
          'only the document that at least two sets cited most',
        )
        .epilogue(
          'Questions that have expected_documents keep them; every other column and row of the dataset is kept as it is. Review the proposals before using the draft as the dataset: the candidates file lists each with title, link and how many sets cited it; with the draft in the run directory (no --out), `chatbench view RUN` lets you accept or reject each and exports the completed CSV.',
        ),
    handler: async (args) => {
      const problem = wholeNumber(args.top, 'top', 1, 100) ?? wholeNumber(args['min-sets'], 'min-sets', 1, 1000);
      if (problem !== undefined) throw new UsageError(problem);
      const { draftExpectationsOfRun } = await import('../../app/eval/draft-expectations.js');
      const result = await draftExpectationsOfRun({
        runDir: args.run,
        cwd: io.cwd,
        dataset: args.dataset,
        out: args.out,
        top: args.top,
        minSets: args['min-sets'],
      });
      const torn = result.tornLines > 0 ? ` (skipped ${result.tornLines} torn last line)` : '';
      const unknown =
        result.unknownQuestions > 0
          ? `\n${result.unknownQuestions} questions of the run are not in ${result.dataset} (edited since the run?)`
          : '';
      io.stdout.write(
        `Read ${result.records} records${torn} of ${args.run} (dataset ${result.dataset}): proposed expected_documents for ${result.proposed}, kept ${result.kept}, none found for ${result.empty}${unknown}\n` +
          `draft:      ${result.csv}\ncandidates: ${result.candidatesFile}\n` +
          `review it, then: npx chatbench validate --dataset ${result.csv}\n`,
      );
      outputOf(io).result({ command: 'draft-expectations', exit_code: ExitCode.Ok, ...result });
      setExitCode(ExitCode.Ok);
    },
  });
}

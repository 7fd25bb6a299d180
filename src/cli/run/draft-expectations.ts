/**
 * @module cli/run/draft-expectations
 * `chatbench draft-expectations RUN_DIR`: a first run's cited and top documents turned into a
 * dataset draft (app/eval/draft-expectations): the expected document ids a user does not know yet.
 * The run; its flags and help are cli/commands/draft-expectations.ts.
 */
import { ExitCode, UsageError } from '../../errors.js';
import { wholeNumber } from '../flags.js';
import { outputOf } from '../output/output.js';
import type { CommandRun } from '../commands/define.js';
import type { DraftArgs } from '../commands/draft-expectations.js';

/** `chatbench draft-expectations`'s run, with the arguments its flags (commands/draft-expectations.ts) parsed. */
export const run: CommandRun<DraftArgs> = async (a, io) => {
  const problem = wholeNumber(a.top, 'top', 1, 100) ?? wholeNumber(a['min-sets'], 'min-sets', 1, 1000);
  if (problem !== undefined) throw new UsageError(problem);
  const { draftExpectationsOfRun } = await import('../../app/eval/draft-expectations.js');
  const result = await draftExpectationsOfRun({
    runDir: a.run,
    cwd: io.cwd,
    dataset: a.dataset,
    out: a.out,
    top: a.top,
    minSets: a['min-sets'],
  });
  const torn = result.tornLines > 0 ? ` (skipped ${result.tornLines} torn last line)` : '';
  const unknown =
    result.unknownQuestions > 0
      ? `\n${result.unknownQuestions} questions of the run are not in ${result.dataset} (edited since the run?)`
      : '';
  io.stdout.write(
    `Read ${result.records} records${torn} of ${a.run} (dataset ${result.dataset}): proposed expected_documents for ${result.proposed}, kept ${result.kept}, none found for ${result.empty}${unknown}\n` +
      `draft:      ${result.csv}\ncandidates: ${result.candidatesFile}\n` +
      `review it, then: npx chatbench validate --dataset ${result.csv}\n`,
  );
  outputOf(io).result({ command: 'draft-expectations', exit_code: ExitCode.Ok, ...result });
  return ExitCode.Ok;
};

/**
 * @module cli/commands/draft-expectations
 * `chatbench draft-expectations RUN_DIR`: a first run's cited and top documents turned into a
 * dataset draft (app/eval/draft-expectations): the expected document ids a user does not know yet.
 * Its flags and help; what it runs is cli/run/draft-expectations.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { defineFlags } from './define.js';

export interface DraftArgs {
  run: string;
  dataset: string | undefined;
  out: string | undefined;
  top: number;
  'min-sets': number;
}

export const flags = defineFlags<DraftArgs>({
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
});

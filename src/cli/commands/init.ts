/**
 * @module cli/commands/init
 * `chatbench init [--force]`: writes a starting point into the working directory (a commented
 * config, a dataset template, its columns explained, a sets file: init/templates) and prints the
 * next three commands. An existing file is never overwritten without --force: nothing is written
 * when one of them exists.
 * Its flags and help; what it runs is cli/run/init.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { defineFlags } from './define.js';

export interface InitArgs {
  force: boolean;
}

export const flags = defineFlags<InitArgs>({
  command: 'init',
  describe: 'Write a commented config, a dataset template and a sets file into the working directory',
  builder: (y: Argv) =>
    y
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite files that exist' })
      .example(
        '$0 init',
        'chatbench.config.yaml, questions.csv (its columns in questions.columns.md) and sets.yaml here',
      ),
});

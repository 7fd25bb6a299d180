/**
 * @module cli/commands/validate
 * `chatbench validate`: reads the dataset and the model sets exactly as `eval` would, sends
 * nothing, and prints either a short summary of what would run or every problem at once (exit 2).
 * Its flags and help; what it runs is cli/run/validate.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { MODE_OPTIONS, SET_FLAG_FORM, type ModeOption } from '../../sets/flag-forms.js';
import { defineFlags } from './define.js';

export interface ValidateArgs {
  dataset: string;
  'sets-file': string | undefined;
  set: string[] | undefined;
  mode: ModeOption;
  sim: boolean | undefined;
  corpus: string | undefined;
}

export const flags = defineFlags<ValidateArgs>({
  command: 'validate',
  describe: 'Check a dataset and model sets without sending anything',
  builder: (y: Argv) =>
    y
      .option('dataset', {
        alias: 'd',
        type: 'string',
        demandOption: true,
        describe: 'CSV file of questions (header row required)',
      })
      .option('sets-file', {
        alias: 'm',
        type: 'string',
        describe:
          'File of model override sets (JSON, or YAML named .yaml/.yml) and request defaults (formerly --models)',
      })
      .option('set', {
        type: 'string',
        array: true,
        describe: `a quick single-model set, repeatable: ${SET_FLAG_FORM}`,
      })
      .option('mode', {
        choices: MODE_OPTIONS,
        default: 'stream' as ModeOption,
        describe: 'request modes to plan',
      })
      .option('sim', {
        type: 'boolean',
        describe:
          "also check that every expected document id is in the simulator's corpus (datasets/corpus.json), and every tool name among its tools",
      })
      .option('corpus', {
        type: 'string',
        describe:
          'also check that every expected document id is in this corpus file: {"documents": [{"document_id": ...}]}, as datasets/corpus.json',
      })
      .example(
        '$0 validate --dataset datasets/sample.csv --sets-file datasets/models.example.json',
        'check a dataset and the example sets',
      )
      .example(
        '$0 validate -d datasets/sample.csv --set fast=openai:gpt-4o-mini@0 --set big=openai:gpt-4o',
        'two quick sets, no file',
      )
      .example(
        '$0 validate -d datasets/sample.csv -m datasets/models.example.json --mode both',
        'plan streamed and full requests',
      ),
});

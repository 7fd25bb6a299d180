/**
 * @module cli/commands/merge
 * `chatbench merge DIR... --out DIR`: joins the run directories of the shards of one plan into one
 * run directory and recomputes every report from the raw records; gates are checked on the whole.
 * Its flags and help; what it runs is cli/run/merge.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { defineFlags } from './define.js';

export interface MergeArgs {
  dirs: string[];
  out: string;
  gate: string[] | undefined;
  'gates-file': string | undefined;
  slo: string[] | undefined;
}

export const flags = defineFlags<MergeArgs>({
  command: 'merge <dirs..>',
  describe:
    'Merge the run directories of the shards of one plan into one run; every report recomputed from the records',
  builder: (y: Argv) =>
    y
      .positional('dirs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: "the shards' run directories (every shard 1/N … N/N once)",
      })
      .option('out', {
        alias: 'o',
        type: 'string',
        demandOption: true,
        describe: 'the merged run directory (must not hold a run)',
      })
      .option('gate', {
        alias: 'g',
        type: 'string',
        array: true,
        describe: 'a gate checked on the merged run, repeatable: [set:NAME] [mode:M] FIGURE[.STAT] OP NUMBER',
      })
      .option('gates-file', {
        type: 'string',
        describe: 'JSON file of gates: {"gates": ["...", ...]} (eval runs; formerly --gates)',
      })
      .option('slo', {
        type: 'string',
        array: true,
        describe: 'load runs: an SLO on the merged whole, repeatable, e.g. "ttfp_ms <= 2000" (defines goodput)',
      })
      .example(
        '$0 merge runs/shard-1 runs/shard-2 runs/shard-3 runs/shard-4 --out runs/merged',
        'four shards into one run',
      )
      .example(
        '$0 merge runs/$RUN_ID/shard-* --out runs/$RUN_ID/merged --gate "pass_rate >= 0.9"',
        'every shard of one job (a Kubernetes Indexed Job writes them under /runs/$RUN_ID); exit 1 when the gate fails',
      )
      .example(
        '$0 merge load-1 load-2 load-3 --out load --slo "ttfp_ms <= 2000" --gate "error_rate <= 0.01"',
        'three load shards: rates add up, percentiles from every record',
      )
      .epilogue(
        'Refused with exit 2: runs of another command, dataset, sets file, plan, shard count or chatbench major version; a missing shard; a shard given twice; a request key in two shards. Exit 1: a gate failed or an SLO was broken. docs/scale-out.md has the Kubernetes and GitHub Actions recipes.',
      ),
});

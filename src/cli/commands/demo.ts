/**
 * @module cli/commands/demo
 * `chatbench demo` (`npm run demo`): the main job on the embedded simulated service: the sample
 * dataset against the three example override sets, in both modes where the service allows, every
 * answer judged by the simulator's rule-based judge (correctness against the reference answers,
 * groundedness in the cited pages, relevance, rubrics). Its flags and help; what it runs is
 * cli/run/demo.ts, loaded only when it runs (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { withQualityFlags, type QualityFlags } from '../quality-flags.js';
import { defineFlags } from './define.js';

export type DemoArgs = QualityFlags & { concurrency: number; out?: string; quick: boolean };

/** `--quick`: the first of this many shards of the dataset (about a tenth of its questions), streamed only. */
export const QUICK_SHARDS = 10;

export const flags = defineFlags<DemoArgs>({
  command: 'demo',
  describe:
    'Compare three model override sets on the embedded simulated service, answers judged by its rule-based judge (about 40 s)',
  builder: (y: Argv) =>
    withQualityFlags(y)
      // The demo's judge is local: many asks at once, and groundedness on the cited pages.
      .option('judge-concurrency', {
        type: 'number',
        default: 16,
        describe: 'Judge calls in flight at once',
        group: 'Answer quality:',
      })
      .option('fetch-cited', {
        type: 'boolean',
        default: true,
        describe: "Judge groundedness on the cited pages' text too (--no-fetch-cited: blurbs and highlights only)",
        group: 'Answer quality:',
      })
      .option('concurrency', { type: 'number', default: 30, describe: 'Requests in flight at once' })
      .option('out', { type: 'string', describe: 'Run directory (default reports/<date-time>-eval)' })
      .option('quick', {
        type: 'boolean',
        default: false,
        describe: `A few seconds: shard 1/${QUICK_SHARDS} of the questions, streamed only (to check an install)`,
      })
      .example('$0 demo', 'datasets/sample.csv × datasets/models.example.json, streamed and full, judged')
      .example('$0 demo --quick', 'A tenth of the questions, streamed only: a check that an install works')
      .example(
        '$0 demo --no-judge-cache',
        'The same, every verdict asked again (a second demo otherwise asks the judge nothing)',
      )
      .epilogue(
        'The same run by hand: chatbench eval --sim --dataset datasets/sample.csv --sets-file datasets/models.example.json --mode both --concurrency 30 --fetch-cited --judge-concurrency 16',
      ),
});

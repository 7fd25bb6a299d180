/**
 * @module cli/commands/demo
 * `chatbench demo` (`npm run demo`): the main job on the embedded simulated service: the sample
 * dataset against the three example override sets, in both modes where the service allows, every
 * answer judged by the simulator's rule-based judge (correctness against the reference answers,
 * groundedness in the cited pages, relevance, rubrics).
 */
import { fileURLToPath } from 'node:url';
import type { Argv } from 'yargs';
import type { Io } from '../io.js';
import { withQualityFlags, type QualityFlags } from '../quality-flags.js';
import { INVOCATION, invocationOf } from '../options/invocation.js';
import { speedupOf } from '../options/speedup.js';
import { evalHandler } from './eval.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

const shipped = (name: string) => fileURLToPath(new URL(`../../../datasets/${name}`, import.meta.url));

type DemoArgs = QualityFlags & { concurrency: number; out?: string; quick: boolean };

/** `--quick`: the first of this many shards of the dataset (about a tenth of its questions), streamed only. */
const QUICK_SHARDS = 10;

export function demoCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<DemoArgs>({
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
    handler: async (a) => {
      const { quick, ...flags } = a;
      // Under the test speed-up (cli/options/speedup) the whole demo asks the --quick tenth of the
      // questions, still in both modes: its 480 judged requests were ~4.5 CPU s of each example run.
      const tenth = quick || speedupOf(io.env) !== null;
      setExitCode(
        await evalHandler(
          {
            ...flags,
            'fetch-cited': a['fetch-cited'] && a.judge !== 'off',
            sim: true,
            seed: 1,
            dataset: shipped('sample.csv'),
            'sets-file': shipped('models.example.json'),
            set: [],
            mode: quick ? 'stream' : 'both',
            ...(tenth ? { shard: `1/${QUICK_SHARDS}` } : {}),
            concurrency: a.concurrency,
            repeat: 1,
            retries: 0,
            'retry-429': false,
            grace: '10s',
            ...(a.out ? { out: a.out } : {}),
            // The demo's own options, as they took effect, go to the run's manifest.
            ...{ [INVOCATION]: invocationOf(a) },
          },
          io,
        ),
      );
    },
  });
}

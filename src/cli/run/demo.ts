/**
 * @module cli/run/demo
 * `chatbench demo`'s run: eval's, on the shipped dataset and sets against the embedded simulated
 * service. Its flags are cli/commands/demo.ts.
 */
import { fileURLToPath } from 'node:url';
import { INVOCATION, invocationOf } from '../options/invocation.js';
import { speedupOf } from '../options/speedup.js';
import type { CommandRun } from '../commands/define.js';
import { QUICK_SHARDS, type DemoArgs } from '../commands/demo.js';
import { evalHandler } from './eval.js';

const shipped = (name: string) => fileURLToPath(new URL(`../../../datasets/${name}`, import.meta.url));

export const run: CommandRun<DemoArgs> = async (a, io) => {
  const { quick, ...flags } = a;
  // Under the test speed-up (cli/options/speedup) the whole demo asks the --quick tenth of the
  // questions, still in both modes: its 480 judged requests were ~4.5 CPU s of each example run.
  const tenth = quick || speedupOf(io.env) !== null;
  return evalHandler(
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
  );
};

/**
 * @module cli/commands/demo
 * `chatbench demo` (`npm run demo`): the main job on the embedded simulated service: the sample
 * dataset against the three example override sets, in both modes where the service allows.
 */
import { fileURLToPath } from 'node:url';
import type { Argv } from 'yargs';
import type { Io } from '../io.js';
import { evalHandler } from './eval.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

const shipped = (name: string) => fileURLToPath(new URL(`../../../datasets/${name}`, import.meta.url));

export function demoCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<{ concurrency: number; out?: string }>({
    command: 'demo',
    describe: 'Compare three model override sets on the embedded simulated service (about 40 s)',
    builder: (y: Argv) =>
      y
        .option('concurrency', { type: 'number', default: 24, describe: 'Requests in flight at once' })
        .option('out', { type: 'string', describe: 'Run directory (default reports/<date-time>-eval)' })
        .example('$0 demo', 'datasets/sample.csv × datasets/models.example.json, streamed and full')
        .epilogue('The same run by hand: chatbench eval --sim --dataset datasets/sample.csv --models datasets/models.example.json --mode both --concurrency 24'),
    handler: async (a) => {
      setExitCode(
        await evalHandler(
          {
            sim: true, seed: 1, dataset: shipped('sample.csv'), models: shipped('models.example.json'), set: [], mode: 'both',
            concurrency: a.concurrency, repeat: 1, retries: 0, 'retry-429': false, grace: '10s', ...(a.out ? { out: a.out } : {}),
          },
          io,
        ),
      );
    },
  });
}

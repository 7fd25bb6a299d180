/**
 * @module cli/commands/view
 * `chatbench view RUN... [--baseline RUN]`: serves the results viewer on 127.0.0.1 until
 * interrupted: the runs' figures side by side, every question's answers, the comparison with a
 * baseline, and reviews saved to each run's reviews.jsonl.
 * Its flags and help; what it runs is cli/run/view.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { defineFlags } from './define.js';

export interface ViewArgs {
  runs: string[];
  baseline: string | undefined;
  map: string[] | undefined;
  port: number;
  open: boolean;
  reviewer: string | undefined;
  seed: number;
  resamples: number;
}

export const flags = defineFlags<ViewArgs>({
  command: 'view <runs..>',
  describe: 'Explore, compare and review the answers of runs in the browser (a local web app on 127.0.0.1)',
  builder: (y: Argv) =>
    y
      .positional('runs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'run directories (or results.jsonl files)',
      })
      .option('baseline', {
        alias: 'b',
        type: 'string',
        describe: 'a run or saved baseline to compare each run with: broken and fixed questions, deltas',
      })
      .option('map', {
        type: 'string',
        array: true,
        describe: 'a renamed set for the baseline comparison, repeatable: OLD=NEW',
      })
      .option('port', { type: 'number', default: 0, describe: 'port on 127.0.0.1 (0: any free port)' })
      .option('open', {
        type: 'boolean',
        default: false,
        describe: 'open the viewer in a browser ($BROWSER, else the system opener)',
      })
      .option('reviewer', { type: 'string', describe: 'name saved with your reviews (default: the OS user)' })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: "seed of the baseline comparison's bootstrap (as compare)",
      })
      .option('resamples', {
        type: 'number',
        default: 2000,
        describe:
          'bootstrap resamples per interval of the baseline comparison (as compare; fewer start a large run sooner)',
      })
      .check((a) => {
        if (!Number.isInteger(a.seed)) throw new Error('--seed must be an integer');
        if (!Number.isInteger(a.resamples) || a.resamples < 100 || a.resamples > 100_000)
          throw new Error('--resamples must be an integer from 100 to 100000');
        return true;
      })
      .example('$0 view reports/2026-11-20T10-00-00-eval', 'the sets of one run side by side; review answers')
      .example(
        '$0 view reports/new --baseline datasets/baselines/main --open',
        'what broke and what was fixed, in a browser',
      )
      .example(
        '$0 view runs/a runs/b --reviewer alice',
        'two runs side by side, reviews saved as alice (any free port; --port to choose)',
      )
      .epilogue(
        "Reviews go to reviews.jsonl in each run directory; compare, report and gates read them as the figure human_pass_rate. In a run drafted by draft-expectations, a question's candidate expected documents are accepted or rejected (expectations.jsonl) and the completed CSV exported. Every run also writes viewer.html: the same app, read-only, in one file. Stop with Ctrl+C.",
      ),
});

/**
 * @module cli/commands/history
 * `chatbench history`: the runs the history store holds (docs/history.md), `history import DIR...`
 * to register run directories (and rebuild a store), `history trend FIGURE` for one figure across runs.
 * Its flags and help; what it runs is cli/run/history.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';

import { defineFlags } from './define.js';

export interface HistoryArgs {
  action: string | undefined;
  args: string[] | undefined;
  command: string | undefined;
  set: string | undefined;
  branch: string | undefined;
  verdict: string | undefined;
  since: string | undefined;
  until: string | undefined;
  figures: boolean | undefined;
  html: string | undefined;
}

export const flags = defineFlags<HistoryArgs>({
  command: 'history [action] [args..]',
  describe: 'The run history: list runs (default), `import DIR...` run directories, `trend FIGURE` across runs',
  builder: (y: Argv) =>
    y
      .positional('action', {
        type: 'string',
        choices: ['list', 'import', 'trend'],
        describe: 'list (default), import DIR..., trend FIGURE',
      })
      .positional('args', {
        type: 'string',
        array: true,
        describe: 'import: run directories; trend: the figure (ttft_ms.p95, citation_recall, pass_rate, …)',
      })
      .option('command', {
        type: 'string',
        choices: ['eval', 'load', 'capacity', 'merge', 'compare'],
        describe: 'only runs of this command',
      })
      .option('set', { type: 'string', describe: 'only runs with this set (trend: only its values)' })
      .option('branch', { type: 'string', describe: 'only runs made on this git branch' })
      .option('verdict', {
        type: 'string',
        choices: ['passed', 'failed', 'no-gate', 'run-failed', 'interrupted'],
        describe: 'only runs with this verdict',
      })
      .option('since', { type: 'string', describe: 'only runs that ended at or after this ISO date' })
      .option('until', { type: 'string', describe: 'only runs that ended at or before this ISO date' })
      .option('html', {
        type: 'string',
        describe: 'trend: where to write the HTML chart (default trend-FIGURE[-SET].html beside the store)',
      })
      .option('figures', { type: 'boolean', describe: 'list: each run with its figures (always with --json)' })
      .example('$0 history --command eval --branch main', 'the evals made on main')
      .example('$0 history trend citation_recall --set fast', 'one figure across runs, oldest first')
      .example('$0 history import reports/*', 'register existing run directories (rebuilds a lost store)'),
});

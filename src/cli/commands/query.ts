/**
 * @module cli/commands/query
 * `chatbench query "SQL" [RUN_DIR]`: SQL over the history store (tables runs, figures) and, with a
 * run directory, over its results.jsonl as the view `results` (DuckDB reads JSON lines itself).
 * Its flags and help; what it runs is cli/run/query.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';

import { defineFlags } from './define.js';

export interface QueryArgs {
  sql: string;
  run: string | undefined;
  csv: boolean | undefined;
}

export const flags = defineFlags<QueryArgs>({
  command: 'query <sql> [run]',
  describe: "SQL over the run history (tables runs, figures) and a run's results.jsonl (view results)",
  builder: (y: Argv) =>
    y
      .positional('sql', { type: 'string', demandOption: true, describe: 'the query (DuckDB SQL)' })
      .positional('run', {
        type: 'string',
        describe: 'a run directory: its results.jsonl becomes the view `results`',
      })
      .option('csv', { type: 'boolean', describe: 'print the rows as CSV' })
      .example(
        '$0 query "select set, mode, quantile_cont(ttft_ms, 0.95) as ttft_p95 from results where outcome = \'ok\' group by all" reports/2026-11-20T10-00-00-eval',
        "TTFT p95 per set and mode of one run (summary.json's figure)",
      )
      .example(
        '$0 query "select id, value from runs join figures using (run_dir) where figure = \'pass_rate\'"',
        'a figure across every run',
      ),
});

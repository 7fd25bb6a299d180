/**
 * @module cli/commands/query
 * `chatbench query "SQL" [RUN_DIR]`: SQL over the history store (tables runs, figures) and, with a
 * run directory, over its results.jsonl as the view `results` (DuckDB reads JSON lines itself).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../../errors.js';
import { storeToRead } from '../../history/location.js';

import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

interface QueryArgs {
  sql: string;
  run: string | undefined;
  csv: boolean | undefined;
}

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

export function queryCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<QueryArgs>({
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
    handler: async (a) => {
      const file = storeFile(a, io.cwd);
      // The database loads when the command runs, not when --help of every command is built.
      const [{ query }, { withStore }] = await Promise.all([
        import('../../history/queries.js'),
        import('../../history/store.js'),
      ]);
      let results: string | undefined;
      if (a.run !== undefined) {
        results = join(resolve(io.cwd, a.run), 'results.jsonl');
        if (!existsSync(results)) throw new InputError([`${a.run}: no results.jsonl in this run directory`]);
      }
      const found = await withStore(
        file,
        async (db) => {
          // Each record's answer figures at the top level (ttft_ms, total_ms …) as well as nested, so a query names them plainly.
          if (results !== undefined)
            await db.run(
              `create temp view results as select * from read_json_auto(${sqlString(results)}, format = 'newline_delimited', union_by_name = true)`,
            );
          // The SQL is the user's input: DuckDB's refusal (a syntax error, an unknown column, a write) is exit 2.
          return query(db, a.sql).catch((error: unknown) => {
            throw new InputError(
              [`query: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`],
              { cause: error },
            );
          });
        },
        { readOnly: true },
      );
      const output = outputOf(io);
      if (a.csv === true)
        io.stdout.write(
          stringify([
            found.columns,
            ...found.rows.map((r) =>
              found.columns.map((c) => (typeof r[c] === 'object' && r[c] !== null ? JSON.stringify(r[c]) : r[c])),
            ),
          ]),
        );
      else if (output.mode !== 'json')
        io.stdout.write(
          `${found.columns.join('\t')}\n${found.rows.map((r) => found.columns.map((c) => JSON.stringify(r[c])).join('\t')).join('\n')}\n`,
        );
      output.result({ command: 'query', exit_code: 0, columns: found.columns, rows: found.rows });
      setExitCode(0);
    },
  });
}

/** The store the global `--history` names (history/register storeToRead). */
const storeFile = (a: object, cwd: string): string => storeToRead((a as { history?: string | boolean }).history, cwd);

/**
 * @module cli/run/query
 * `chatbench query "SQL" [RUN_DIR]`: SQL over the history store (tables runs, figures) and, with a
 * run directory, over its results.jsonl as the view `results` (DuckDB reads JSON lines itself).
 * The run; its flags and help are cli/commands/query.ts.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../../errors.js';
import { storeToRead } from '../../history/location.js';

import { outputOf } from '../output/output.js';
import type { CommandRun } from '../commands/define.js';
import type { QueryArgs } from '../commands/query.js';

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** `chatbench query`'s run, with the arguments its flags (commands/query.ts) parsed. */
export const run: CommandRun<QueryArgs> = async (a, io) => {
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
        throw new InputError([`query: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`], {
          cause: error,
        });
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
  return 0;
};

/** The store the global `--history` names (history/register storeToRead). */
const storeFile = (a: object, cwd: string): string => storeToRead((a as { history?: string | boolean }).history, cwd);

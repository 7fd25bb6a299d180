/**
 * @module cli/commands/report
 * `chatbench report DIR`: rebuilds every report of a run from its results.jsonl alone.
 */
import type { Argv } from 'yargs';
import { renderReports } from '../../app/render-reports.js';
import { ExitCode } from '../../errors.js';
import { renderTerminalTable } from '../../reports/terminal-table.js';
import type { Io } from '../io.js';
import { VERSION } from '../version.js';
import { resolve } from 'node:path';
import { defineCommand, type AnyCommand, type SetExitCode } from './index.js';

export function reportCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<{ dir: string }>({
    command: 'report <dir>',
    describe: 'Rebuild every report of a run directory from its results.jsonl',
    builder: (y: Argv) =>
      y
        .positional('dir', { type: 'string', demandOption: true, describe: 'Run directory (holding results.jsonl)' })
        .example('$0 report reports/2026-11-20T10-00-00-eval', 'Writes summary.json, results.csv, report.md, junit.xml and report.html again'),
    handler: async (a) => {
      const { summary, files } = await renderReports(resolve(io.cwd, a.dir), { version: VERSION });
      io.stdout.write(`${renderTerminalTable(summary)}\nreports:\n${files.map((f) => `  ${f}`).join('\n')}\n`);
      setExitCode(ExitCode.Ok);
    },
  });
}

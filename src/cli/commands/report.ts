/**
 * @module cli/commands/report
 * `chatbench report DIR`: rebuilds every report of a run from its results.jsonl alone.
 * Its flags and help; what it runs is cli/run/report.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { defineFlags } from './define.js';

export interface ReportArgs {
  dir: string;
  labels?: string;
}

export const flags = defineFlags<ReportArgs>({
  command: 'report <dir>',
  describe: 'Rebuild every report of a run directory from its results.jsonl',
  builder: (y: Argv) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'Run directory (holding results.jsonl)' })
      .option('labels', {
        type: 'string',
        describe:
          "Human verdicts (CSV: question_id, verdict[, set][, figure]) kept as the run's labels.jsonl: the report gives the judge's agreement with them",
      })
      .example(
        '$0 report reports/2026-11-20T10-00-00-eval --labels examples/labels.csv',
        'Add human verdicts to a judged run and rebuild its reports with the agreement table',
      )
      .example(
        '$0 report reports/2026-11-20T10-00-00-eval',
        'Writes summary.json, results.csv, report.md, junit.xml and report.html again',
      )
      .example(
        '$0 report reports/2026-11-20T10-00-00-load',
        'A load run: summary.json, timeline.csv, report.md and report.html, with its SLOs and gates',
      ),
});

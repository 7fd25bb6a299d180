/**
 * @module cli/commands/history
 * `chatbench history`: the runs the history store holds (docs/history.md), `history import DIR...`
 * to register run directories (and rebuild a store), `history trend FIGURE` for one figure across runs.
 */
import { stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { UsageError } from '../../errors.js';
import type { RunFilter, TrendPoint } from '../../history/queries.js';
import { readRunEntry } from '../../history/read-run.js';
import type { RunEntry } from '../../history/schema.js';
import { storeToRead } from '../../history/location.js';

import { sparkline } from '../../history/sparkline.js';
import { renderTrendHtml } from '../../history/trend-html.js';
import type { Io } from '../io.js';
import { outputOf } from '../output/output.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

interface HistoryArgs {
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

const num = (v: number | null): string => (v === null ? 'n/a' : Number(v.toPrecision(4)).toString());

export function renderTrend(figure: string, points: readonly TrendPoint[]): string {
  if (points.length === 0) return `no run has ${figure}\n`;
  const lines = [`${figure}  ${sparkline(points.map((p) => p.value))}  (${points.length} values, oldest first)`];
  for (const p of points) {
    const ci = p.ci_low === null || p.ci_high === null ? '' : ` [${num(p.ci_low)}, ${num(p.ci_high)}]`;
    lines.push(
      `  ${p.ended_at.slice(0, 19)}  ${p.id}  ${p.set_name || '-'} ${p.mode || ''}  ${num(p.value)}${ci}${p.n === null ? '' : ` n=${p.n}`}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function historyCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<HistoryArgs>({
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
    handler: async (a) => {
      const file = storeFile(a, io.cwd);
      // The database loads when the command runs, not when --help of every command is built.
      const [{ listRuns, trend }, { putRun, withStore }] = await Promise.all([
        import('../../history/queries.js'),
        import('../../history/store.js'),
      ]);
      const output = outputOf(io);
      const filter: RunFilter = {
        command: a.command,
        set: a.set,
        branch: a.branch,
        verdict: a.verdict,
        since: a.since,
        until: a.until,
      };
      const action = a.action ?? 'list';
      const args = a.args ?? [];
      if (action === 'import') {
        if (args.length === 0) throw new UsageError('history import: name at least one run directory');
        const imported: string[] = [];
        const skipped: string[] = [];
        const why = (error: unknown) => (error instanceof Error ? error.message : String(error));
        const entries: { dir: string; entry: RunEntry }[] = [];
        for (const dir of args) {
          // `reports/*` names the store and trend charts too: files are not run directories.
          if ((await stat(resolve(io.cwd, dir)).catch(() => undefined))?.isFile()) continue;
          try {
            entries.push({ dir, entry: await readRunEntry(resolve(io.cwd, dir)) });
          } catch (error) {
            skipped.push(`${dir}: ${why(error)}`);
          }
        }
        // The store opened once for them all: closing it (a checkpoint) cost ~0.2 s a run. A store that
        // cannot be opened (locked for 15 s, newer, not a store) fails the command: exit 2, its runs not in it.
        await withStore(file, async (db) => {
          for (const { dir, entry } of entries) {
            try {
              await putRun(db, entry);
              imported.push(entry.run.run_dir);
            } catch (error) {
              skipped.push(`${dir}: ${why(error)}`);
            }
          }
        });
        for (const s of skipped) io.stderr.write(`chatbench history import: skipped ${s}\n`);
        io.stdout.write(`imported ${imported.length} run${imported.length === 1 ? '' : 's'} into ${file}\n`);
        output.result({ command: 'history', exit_code: 0, history: file, imported, skipped });
        return;
      }
      if (action === 'trend') {
        const figure = args[0];
        if (figure === undefined)
          throw new UsageError('history trend: name a figure, e.g. ttft_ms.p95 or citation_recall');
        const points = await withStore(file, (db) => trend(db, figure, filter));
        io.stdout.write(renderTrend(figure, points));
        // The chart beside the store unless --html names a file; each run links to its report.html.
        const html = resolve(
          io.cwd,
          a.html ??
            join(
              dirname(file),
              `trend-${figure.replace(/[^\w.-]+/g, '_')}${a.set === undefined ? '' : `-${a.set.replace(/[^\w.-]+/g, '_')}`}.html`,
            ),
        );
        if (points.length > 0) {
          await writeFile(
            html,
            renderTrendHtml(figure, points, (runDir) => relative(dirname(html), join(runDir, 'report.html'))),
          );
          io.stdout.write(`chart: ${relative(io.cwd, html)}\n`);
        }
        output.result({
          command: 'history',
          exit_code: 0,
          history: file,
          figure,
          points,
          html: points.length > 0 ? html : null,
        });
        return;
      }
      const runs = await withStore(file, (db) => listRuns(db, filter, a.figures === true || output.mode === 'json'));
      for (const r of runs)
        io.stdout.write(
          `${String(r.ended_at).slice(0, 19)}  ${String(r.command).padEnd(8)} ${String(r.verdict ?? '-').padEnd(11)} ${r.git_branch ?? '-'}  ${r.run_dir}\n`,
        );
      if (runs.length === 0) io.stdout.write(`no run in ${file} matches\n`);
      output.result({ command: 'history', exit_code: 0, history: file, runs });
      setExitCode(0);
    },
  });
}

/** The store the global `--history` names (history/register storeToRead). */
const storeFile = (a: object, cwd: string): string => storeToRead((a as { history?: string | boolean }).history, cwd);

/**
 * @module cli/run/history
 * `chatbench history`: the runs the history store holds (docs/history.md), `history import DIR...`
 * to register run directories (and rebuild a store), `history trend FIGURE` for one figure across runs.
 * The run; its flags and help are cli/commands/history.ts.
 */
import { stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import type { RunFilter, TrendPoint } from '../../history/queries.js';
import { readRunEntry } from '../../history/read-run.js';
import type { RunEntry } from '../../history/schema.js';
import { storeToRead } from '../../history/location.js';

import { sparkline } from '../../history/sparkline.js';
import { renderTrendHtml } from '../../history/trend-html.js';
import { outputOf } from '../output/output.js';
import type { CommandRun } from '../commands/define.js';
import type { HistoryArgs } from '../commands/history.js';

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

/** `chatbench history`'s run, with the arguments its flags (commands/history.ts) parsed. */
export const run: CommandRun<HistoryArgs> = async (a, io) => {
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
    return 0;
  }
  if (action === 'trend') {
    const figure = args[0];
    if (figure === undefined) throw new UsageError('history trend: name a figure, e.g. ttft_ms.p95 or citation_recall');
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
    return 0;
  }
  const runs = await withStore(file, (db) => listRuns(db, filter, a.figures === true || output.mode === 'json'));
  for (const r of runs)
    io.stdout.write(
      `${String(r.ended_at).slice(0, 19)}  ${String(r.command).padEnd(8)} ${String(r.verdict ?? '-').padEnd(11)} ${r.git_branch ?? '-'}  ${r.run_dir}\n`,
    );
  if (runs.length === 0) io.stdout.write(`no run in ${file} matches\n`);
  output.result({ command: 'history', exit_code: 0, history: file, runs });
  return 0;
};

/** The store the global `--history` names (history/register storeToRead). */
const storeFile = (a: object, cwd: string): string => storeToRead((a as { history?: string | boolean }).history, cwd);

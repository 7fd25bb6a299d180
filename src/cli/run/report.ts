/**
 * @module cli/run/report
 * `chatbench report DIR`: rebuilds every report of a run from its results.jsonl alone.
 * The run; its flags and help are cli/commands/report.ts.
 */
import { readManifestPart } from '../../app/store/manifest.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { renderLoadReports } from '../../app/load/render-load-reports.js';
import { parseLoadGateFlag } from '../../gates/load.js';
import { parseSlo } from '../../metrics/load-slo.js';
import { junitQuestionsOf, renderReports, saveRunLabels } from '../../app/eval/render-reports.js';
import { ExitCode, UsageError } from '../../errors.js';
import { renderTerminalTable } from '../../reports/terminal-table.js';
import { claimDir } from '../claim.js';
import { VERSION } from '../version.js';
import { reportsList } from '../commands/reports-list.js';
import { outputOf } from '../output/output.js';
import { renderLoadSummary } from '../../reports/load/terminal-summary.js';
import { loadRunVerdict, comparisonOpenings, verdictLine } from '../../verdict/index.js';
import { outputWidth, wrapLines } from '../../reports/fit-width.js';
import { decideEval, type EvalVerdict } from '../../app/eval/eval-verdict.js';
import type { CommandRun } from '../commands/define.js';
import type { ReportArgs } from '../commands/report.js';

/** `chatbench report`'s run, with the arguments its flags (commands/report.ts) parsed. */
export const run: CommandRun<ReportArgs> = async (a, io) => {
  const dir = resolve(io.cwd, a.dir);
  // Not while a run (or another report) writes the directory: its reports would mix two states.
  const claim = await claimDir(io, a.dir, { label: a.dir, command: 'report', create: false });
  try {
    const output = outputOf(io);
    const load = await loadOptionsOf(dir);
    if (a.labels !== undefined) {
      if (load) throw new UsageError('--labels: a load run has no judged answers; labels belong to an eval run');
      await saveRunLabels(dir, { path: a.labels, cwd: io.cwd });
    }
    if (load) {
      const { files, summary, gates } = await renderLoadReports(dir, {
        version: VERSION,
        slos: load.slos.map((t) => parseSlo(t)),
        gates: load.gates.map((t) => parseLoadGateFlag(t)),
        signal: io.signal,
      });
      io.stdout.write(
        `${renderLoadSummary(summary, gates, output.paint)}\nreports:\n${files.map((f) => `  ${f}`).join('\n')}\n`,
      );
      const verdict = loadRunVerdict(summary, gates);
      output.verdict(verdictLine(verdict, output.paint));
      output.result({
        command: 'report',
        exit_code: ExitCode.Ok,
        verdict: verdict.headline,
        decision: verdict,
        run_dir: dir,
        files,
        gates,
        load_summary: summary,
      });
    } else {
      // The run's verdict again, as eval decided it (its gates that need no baseline, its pairs of
      // sets), before the reports are written once, opening with it.
      const { gates, reference } = await evalOptionsOf(dir);
      const junitQuestions = await junitQuestionsOf(dir);
      let decided: EvalVerdict | undefined;
      const { summary, files, skipped } = await renderReports(dir, {
        version: VERSION,
        signal: io.signal,
        ...(io.env.CHATBENCH_VIEWER_DIR ? { viewerBundleDir: io.env.CHATBENCH_VIEWER_DIR } : {}),
        decide: async ({ summary: read, input, run: current }) => {
          const ok = read.run.outcomes.ok ?? 0;
          decided = await decideEval({
            dir,
            cwd: io.cwd,
            input,
            current,
            gates,
            reference,
            interrupted: false,
            junitQuestions,
            detail: `${read.run.requests} requests, ${ok} ok`,
          });
          return decided;
        },
      });
      const { verdict } = decided!;
      for (const warning of verdict.models?.warnings ?? []) io.stderr.write(`chatbench report: warning: ${warning}\n`);
      if (verdict.models?.note) io.stderr.write(`chatbench report: model: ${verdict.models.note}\n`);
      // Fitted to the terminal (or $COLUMNS), as eval's end is: headline figures, one line per comparison.
      const width = outputWidth(io.stdout, io.env);
      const comparisons =
        width !== undefined && verdict.comparisons.some((l) => [...l].length > width)
          ? comparisonOpenings(verdict)
          : verdict.comparisons;
      const table = renderTerminalTable(summary, verdict.best, {
        width,
        fullReport: files.find((f) => f.endsWith('report.md')),
      });
      io.stdout.write(
        `${table}\n${comparisons.map((l) => `${width === undefined ? l : wrapLines(l, width)}\n`).join('')}${reportsList(files, skipped, a.dir)}`,
      );
      output.verdict(verdictLine(verdict, output.paint));
      output.result({
        command: 'report',
        exit_code: ExitCode.Ok,
        verdict: verdict.headline,
        decision: verdict,
        run_dir: dir,
        files,
        skipped,
        summary,
      });
    }
  } finally {
    await claim.release();
  }
  return ExitCode.Ok;
};

/** The SLOs and gates of a load run (its manifest says `command: load`); undefined for an eval run. */
async function loadOptionsOf(dir: string): Promise<{ slos: string[]; gates: string[] } | undefined> {
  const manifest = await readManifestPart(dir, LoadManifestSchema);
  return manifest?.command === 'load' ? { slos: manifest.options.slos, gates: manifest.options.gates } : undefined;
}

const LoadManifestSchema = z.looseObject({
  command: z.string(),
  options: z
    .looseObject({
      slos: z.array(z.string()).default([]),
      gates: z.array(z.string()).default([]),
      /** An eval run's `--reference` set; null or absent (older runs): the first set. */
      reference: z.string().nullable().default(null),
    })
    .prefault({}),
});

/** What an eval run kept in its manifest: the gates that need no baseline, and `--reference`; none for older runs. */
async function evalOptionsOf(dir: string): Promise<{ gates: string[]; reference: string | undefined }> {
  const manifest = await readManifestPart(dir, LoadManifestSchema);
  if (manifest?.command !== 'eval') return { gates: [], reference: undefined };
  return { gates: manifest.options.gates, reference: manifest.options.reference ?? undefined };
}

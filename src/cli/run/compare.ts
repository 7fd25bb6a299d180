/**
 * @module cli/run/compare
 * `chatbench compare BASELINE CURRENT`: compares two runs (or a saved baseline and a run), writes
 * compare.md/json/html, prints the delta tables and the failed gates, and exits 0 (every gate
 * passed), 1 (a gate failed) or 2 (bad input).
 * The run; its flags and help are cli/commands/compare.ts.
 */
import { compareAndGate } from '../../app/eval/compare-runs.js';
import { renderGroupTable, significanceLine, type Comparison } from '../../compare/index.js';
import { InputError, exitCodeOf, formatError, type ExitCode } from '../../errors.js';
import { outputOf } from '../output/output.js';
import { verdictLine } from '../../verdict/index.js';
import type { GateVerdict } from '../../gates/index.js';
import { claimDir } from '../claim.js';
import type { Io } from '../io.js';
import type { CommandRun } from '../commands/define.js';
import { resolveBaselineRef } from '../baseline-ref.js';
import type { CompareArgs } from '../commands/compare.js';

/** `reports/2026-01-31T12-00-00-compare`: local time, sortable, safe in every file system. */
export function defaultCompareDir(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}-${pad(now.getMinutes())}-${pad(now.getSeconds())}`;
  return `reports/${stamp}-compare`;
}

/** What the terminal shows: per group its table and broken questions, then the failed gates. */
export function renderCompareOutput(
  comparison: Comparison,
  gates: readonly GateVerdict[],
  files: readonly string[],
): string {
  // A changed model first: every difference below may be that change.
  const lines: string[] = comparison.model_changes.length === 0 ? [] : [...comparison.model_changes, ''];
  for (const g of comparison.groups) {
    lines.push(`${g.label}: ${g.questions.paired} questions paired`, ...renderGroupTable(comparison, g));
    if (g.broken.length > 0)
      lines.push(`broken: ${g.broken.map((b) => `${b.question_id} (${b.changes.join(', ')})`).join('; ')}`);
    if (g.questions.baseline_only.length + g.questions.current_only.length > 0) {
      lines.push(
        `one side only: baseline ${g.questions.baseline_only.join(', ') || '–'}; current ${g.questions.current_only.join(', ') || '–'}`,
      );
    }
    lines.push('');
  }
  for (const u of comparison.unmatched.baseline) lines.push(`not compared: ${u.label} is in the baseline only`);
  for (const u of comparison.unmatched.current) lines.push(`not compared: ${u.label} is in the current run only`);
  // The gates decide: their lines come before the count of significant changes.
  lines.push(...renderGateLines(gates));
  lines.push(significanceLine(comparison));
  if (files.length > 0) lines.push(`Wrote ${files.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** The gates' verdict: every failed gate with its figures and reason; a count of the passed ones. */
export function renderGateLines(gates: readonly GateVerdict[]): string[] {
  if (gates.length === 0) return [];
  const failed = gates.filter((r) => !r.passed);
  if (failed.length === 0) return [`Gates: all ${gates.length} passed.`];
  return [`Gates: ${failed.length} of ${gates.length} failed:`, ...failed.map((r) => `  FAIL ${r.reason}`)];
}

/** Maps a handler's failure to its exit code here: main() does not always see a handler's rejection. */
export function reportFailure(io: Io, error: unknown, command = 'compare'): ExitCode {
  const output = outputOf(io);
  output.alert(formatError(error));
  output.result({
    command,
    exit_code: exitCodeOf(error),
    errors: error instanceof InputError ? error.problems : [error instanceof Error ? error.message : String(error)],
  });
  return exitCodeOf(error);
}

/** `chatbench compare`'s run, with the arguments its flags (commands/compare.ts) parsed. */
export const run: CommandRun<CompareArgs> = async (a, io) => {
  try {
    const baseline = (await resolveBaselineRef(a.baseline, 'baseline', io, a, a.current))!;
    const outDir = a.out ?? defaultCompareDir(new Date());
    const claim = await claimDir(io, outDir, { label: `--out ${outDir}`, command: 'compare' });
    let result;
    try {
      result = await compareAndGate({
        baselineDir: baseline,
        currentDir: a.current,
        gates: a.gate ?? [],
        gatesFile: a['gates-file'],
        map: a.map ?? [],
        outDir,
        seed: a.seed,
        resamples: a.resamples,
        cwd: io.cwd,
        stepSummaryPath: io.env.GITHUB_STEP_SUMMARY,
        writeVerdict: true,
      });
    } finally {
      await claim.release();
    }
    if (result.comparison !== null)
      io.stdout.write(renderCompareOutput(result.comparison, result.gateResults, result.files));
    const output = outputOf(io);
    output.verdict(verdictLine(result.verdict, output.paint));
    output.result({
      command: 'compare',
      exit_code: result.exitCode,
      verdict: result.verdict.headline,
      decision: result.verdict,
      files: result.files,
      gates: result.gateResults,
      comparison: result.comparison,
      baseline_run: baseline,
    });
    return result.exitCode;
  } catch (error) {
    return reportFailure(io, error);
  }
};

/**
 * @module cli/commands/compare
 * `chatbench compare BASELINE CURRENT`: compares two runs (or a saved baseline and a run), writes
 * compare.md/json/html, prints the delta tables and the failed gates, and exits 0 (every gate
 * passed), 1 (a gate failed) or 2 (bad input).
 */
import type { Argv } from 'yargs';
import { compareAndGate } from '../../app/eval/compare-runs.js';
import { renderGroupTable, significanceLine, type Comparison } from '../../compare/index.js';
import { InputError, exitCodeOf, formatError } from '../../errors.js';
import { outputOf } from '../output/output.js';
import { verdictLine } from '../../verdict/index.js';
import type { GateVerdict } from '../../gates/index.js';
import { claimDir } from '../claim.js';
import type { Io } from '../io.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';
import { resolveBaselineRef } from '../baseline-ref.js';

interface CompareArgs {
  baseline: string;
  current: string;
  out: string | undefined;
  map: string[] | undefined;
  gate: string[] | undefined;
  'gates-file': string | undefined;
  seed: number;
  resamples: number;
}

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
export function reportFailure(io: Io, setExitCode: SetExitCode, error: unknown, command = 'compare'): void {
  const output = outputOf(io);
  output.alert(formatError(error));
  setExitCode(exitCodeOf(error));
  output.result({
    command,
    exit_code: exitCodeOf(error),
    errors: error instanceof InputError ? error.problems : [error instanceof Error ? error.message : String(error)],
  });
}

export function compareCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<CompareArgs>({
    command: 'compare <baseline> <current>',
    describe: 'Compare a run with a baseline: deltas with 95% intervals, broken questions, gates',
    builder: (y: Argv) =>
      y
        .positional('baseline', {
          type: 'string',
          demandOption: true,
          describe:
            'baseline run directory, saved baseline, or results.jsonl; last-passing[:BRANCH]: the latest passing eval in the run history',
        })
        .positional('current', {
          type: 'string',
          demandOption: true,
          describe: 'current run directory or results.jsonl',
        })
        .option('out', {
          alias: 'o',
          type: 'string',
          describe: 'directory for compare.md/json/html (default reports/<date-time>-compare)',
        })
        .option('map', {
          type: 'string',
          array: true,
          describe: 'a renamed set, repeatable: OLD=NEW (baseline name = current name)',
        })
        .option('gate', {
          alias: 'g',
          type: 'string',
          array: true,
          describe: 'a gate, repeatable: [set:NAME] [mode:M] FIGURE[.STAT] [delta|ratio] OP NUMBER [significant]',
        })
        .option('gates-file', {
          type: 'string',
          describe: 'JSON file of gates: {"gates": ["...", ...]} (formerly --gates)',
        })
        .option('seed', { type: 'number', default: 1, describe: 'seed of the bootstrap resampling' })
        .option('resamples', { type: 'number', default: 2000, describe: 'bootstrap resamples per interval' })
        .check((a) => {
          if (!Number.isInteger(a.seed)) throw new Error('--seed must be an integer');
          if (!Number.isInteger(a.resamples) || a.resamples < 100 || a.resamples > 100_000)
            throw new Error('--resamples must be an integer from 100 to 100000');
          return true;
        })
        .example(
          '$0 compare datasets/baselines/main reports/2026-11-20T10-00-00-eval',
          'compare a run with the saved baseline',
        )
        .example(
          '$0 compare old/ new/ --gate "citation_recall delta >= -0.02 significant" --gate "ttft_ms.p95 ratio <= 1.2"',
          'fail (exit 1) on a significant recall drop or 20% slower p95 TTFT',
        )
        .example(
          '$0 compare old/ new/ --map fast=fast-v2 --gate "set:fast-v2 pass_rate >= 0.9"',
          'a renamed set, a scoped absolute gate',
        )
        .example(
          '$0 compare old/ new/ --gates-file examples/gates.json --out reports/pr-42',
          'gates from a file, reports into a chosen directory',
        )
        .epilogue(
          'Exit codes: 0 every gate passed (or none was set), 1 a gate failed, 2 bad input (missing run, bad gate or --map), 4 internal error. The verdict line leads with the gates; the significant changes after it are counted by the same test the table stars and a "significant" gate uses. Gate grammar and statistics: docs/ci.md.',
        ),
    handler: async (args) => {
      try {
        const baseline = (await resolveBaselineRef(args.baseline, 'baseline', io, args, args.current))!;
        const outDir = args.out ?? defaultCompareDir(new Date());
        const claim = await claimDir(io, outDir, { label: `--out ${outDir}`, command: 'compare' });
        let result;
        try {
          result = await compareAndGate({
            baselineDir: baseline,
            currentDir: args.current,
            gates: args.gate ?? [],
            gatesFile: args['gates-file'],
            map: args.map ?? [],
            outDir,
            seed: args.seed,
            resamples: args.resamples,
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
        setExitCode(result.exitCode);
      } catch (error) {
        reportFailure(io, setExitCode, error);
      }
    },
  });
}

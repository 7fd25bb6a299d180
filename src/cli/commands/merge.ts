/**
 * @module cli/commands/merge
 * `chatbench merge DIR... --out DIR`: joins the run directories of the shards of one plan into one
 * run directory and recomputes every report from the raw records; gates are checked on the whole.
 */
import type { Argv } from 'yargs';
import { mergeRuns } from '../../app/merge/merge-runs.js';
import type { LoadSummary } from '../../records/load-summary.js';
import { renderTerminalTable } from '../../reports/terminal-table.js';
import { outputWidth } from '../../reports/fit-width.js';
import { claimDir } from '../claim.js';
import type { Io } from '../io.js';
import { VERSION } from '../version.js';
import { outputOf } from '../output/output.js';
import { verdictLine } from '../../verdict/index.js';
import { renderGateLines } from './compare.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './define.js';

interface MergeArgs {
  dirs: string[];
  out: string;
  gate: string[] | undefined;
  'gates-file': string | undefined;
  slo: string[] | undefined;
}

const fixed = (value: number | null | undefined, digits: number): string =>
  value === null || value === undefined ? 'n/a' : value.toFixed(digits);

/** One paragraph for a merged load run: its warning first, then the measured window's rates and latency. */
export function renderLoadLines(summary: LoadSummary): string[] {
  const w = summary.windows.measured;
  return [
    ...(summary.warning === null ? [] : [summary.warning]),
    `measured window ${fixed(w.duration_s, 1)} s: offered ${fixed(w.rates.offered, 2)}/s, sent ${fixed(w.rates.sent, 2)}/s, ok ${fixed(w.rates.ok, 2)}/s, 429 ${fixed(w.rates.rate_limited, 2)}/s, errors ${fixed(w.rates.errors, 2)}/s, goodput ${fixed(w.rates.goodput, 2)}/s`,
    `TTFP p50 ${fixed(w.latency.ttfp_ms?.p50, 0)} ms, p95 ${fixed(w.latency.ttfp_ms?.p95, 0)} ms; response p95 ${fixed(w.latency.response_ms?.p95, 0)} ms; dropped ${w.dropped}`,
    ...summary.slos.map((slo) => `SLO ${slo.passed ? 'ok  ' : 'FAIL'} ${slo.reason}`),
  ];
}

export function mergeCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<MergeArgs>({
    command: 'merge <dirs..>',
    describe:
      'Merge the run directories of the shards of one plan into one run; every report recomputed from the records',
    builder: (y: Argv) =>
      y
        .positional('dirs', {
          type: 'string',
          array: true,
          demandOption: true,
          describe: "the shards' run directories (every shard 1/N … N/N once)",
        })
        .option('out', {
          alias: 'o',
          type: 'string',
          demandOption: true,
          describe: 'the merged run directory (must not hold a run)',
        })
        .option('gate', {
          alias: 'g',
          type: 'string',
          array: true,
          describe: 'a gate checked on the merged run, repeatable: [set:NAME] [mode:M] FIGURE[.STAT] OP NUMBER',
        })
        .option('gates-file', {
          type: 'string',
          describe: 'JSON file of gates: {"gates": ["...", ...]} (eval runs; formerly --gates)',
        })
        .option('slo', {
          type: 'string',
          array: true,
          describe: 'load runs: an SLO on the merged whole, repeatable, e.g. "ttfp_ms <= 2000" (defines goodput)',
        })
        .example(
          '$0 merge runs/shard-1 runs/shard-2 runs/shard-3 runs/shard-4 --out runs/merged',
          'four shards into one run',
        )
        .example(
          '$0 merge runs/$RUN_ID/shard-* --out runs/$RUN_ID/merged --gate "pass_rate >= 0.9"',
          'every shard of one job (a Kubernetes Indexed Job writes them under /runs/$RUN_ID); exit 1 when the gate fails',
        )
        .example(
          '$0 merge load-1 load-2 load-3 --out load --slo "ttfp_ms <= 2000" --gate "error_rate <= 0.01"',
          'three load shards: rates add up, percentiles from every record',
        )
        .epilogue(
          'Refused with exit 2: runs of another command, dataset, sets file, plan, shard count or chatbench major version; a missing shard; a shard given twice; a request key in two shards. Exit 1: a gate failed or an SLO was broken. docs/scale-out.md has the Kubernetes and GitHub Actions recipes.',
        ),
    handler: async (a) => {
      const claim = await claimDir(io, a.out, { label: `--out ${a.out}`, command: 'merge' });
      let result;
      try {
        result = await mergeRuns({
          dirs: a.dirs,
          outDir: a.out,
          cwd: io.cwd,
          version: VERSION,
          gates: a.gate ?? [],
          gatesFile: a['gates-file'],
          slos: a.slo ?? [],
        });
      } finally {
        await claim.release();
      }
      for (const warning of result.warnings) io.stderr.write(`chatbench merge: warning: ${warning}\n`);
      const shards = result.mergedFrom
        .map((m) => `${m.shard.index}/${m.shard.count} ${m.dir} (${m.records})`)
        .join(', ');
      const lines = [`merged ${result.records} records of ${result.mergedFrom.length} shards: ${shards}`];
      if (result.summary !== null)
        lines.push('', renderTerminalTable(result.summary, [], { width: outputWidth(io.stdout, io.env) }).trimEnd());
      if (result.loadSummary !== null) lines.push(...renderLoadLines(result.loadSummary));
      lines.push(...renderGateLines(result.gateResults), 'reports:', ...result.files.map((f) => `  ${f}`));
      io.stdout.write(`${lines.join('\n')}\n`);
      const output = outputOf(io);
      output.verdict(verdictLine(result.verdict, output.paint));
      output.result({
        command: 'merge',
        exit_code: result.exitCode,
        verdict: result.verdict.headline,
        decision: result.verdict,
        records: result.records,
        merged_from: result.mergedFrom,
        warnings: result.warnings,
        files: result.files,
        gates: result.gateResults,
        summary: result.summary,
        load_summary: result.loadSummary,
      });
      setExitCode(result.exitCode);
    },
  });
}

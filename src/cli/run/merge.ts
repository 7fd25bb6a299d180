/**
 * @module cli/run/merge
 * `chatbench merge DIR... --out DIR`: joins the run directories of the shards of one plan into one
 * run directory and recomputes every report from the raw records; gates are checked on the whole.
 * The run; its flags and help are cli/commands/merge.ts.
 */
import { mergeRuns } from '../../app/merge/merge-runs.js';
import type { LoadSummary } from '../../records/load-summary.js';
import { renderTerminalTable } from '../../reports/terminal-table.js';
import { outputWidth } from '../../reports/fit-width.js';
import { claimDir } from '../claim.js';
import { VERSION } from '../version.js';
import { outputOf } from '../output/output.js';
import { verdictLine } from '../../verdict/index.js';
import { renderGateLines } from './compare.js';
import type { CommandRun } from '../commands/define.js';
import type { MergeArgs } from '../commands/merge.js';

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

/** `chatbench merge`'s run, with the arguments its flags (commands/merge.ts) parsed. */
export const run: CommandRun<MergeArgs> = async (a, io) => {
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
  const shards = result.mergedFrom.map((m) => `${m.shard.index}/${m.shard.count} ${m.dir} (${m.records})`).join(', ');
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
  return result.exitCode;
};

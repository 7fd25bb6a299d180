/**
 * @module cli/commands/compare
 * `chatbench compare BASELINE CURRENT`: compares two runs (or a saved baseline and a run), writes
 * compare.md/json/html, prints the delta tables and the failed gates, and exits 0 (every gate
 * passed), 1 (a gate failed) or 2 (bad input).
 * Its flags and help; what it runs is cli/run/compare.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { defineFlags } from './define.js';

export interface CompareArgs {
  baseline: string;
  current: string;
  out: string | undefined;
  map: string[] | undefined;
  gate: string[] | undefined;
  'gates-file': string | undefined;
  seed: number;
  resamples: number;
}

export const flags = defineFlags<CompareArgs>({
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
});

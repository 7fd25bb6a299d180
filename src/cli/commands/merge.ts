/**
 * @module cli/commands/merge
 * `chatbench merge DIR... --out DIR`: joins the run directories of the shards of one plan into one
 * run directory and recomputes every report from the raw records; gates are checked on the whole.
 */
import type { Argv } from 'yargs';
import { mergeRuns } from '../../app/merge-runs.js';
import { renderTerminalTable } from '../../reports/terminal-table.js';
import type { Io } from '../io.js';
import { VERSION } from '../version.js';
import { renderGateLines } from './compare.js';
import { defineCommand, type AnyCommand, type SetExitCode } from './index.js';

interface MergeArgs {
  dirs: string[];
  out: string;
  gate: string[] | undefined;
  gates: string | undefined;
}

export function mergeCommand(io: Io, setExitCode: SetExitCode): AnyCommand {
  return defineCommand<MergeArgs>({
    command: 'merge <dirs..>',
    describe: 'Merge the run directories of the shards of one plan into one run; every report recomputed from the records',
    builder: (y: Argv) =>
      y
        .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'the shards\' run directories (every shard 1/N … N/N once)' })
        .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'the merged run directory (must not hold a run)' })
        .option('gate', { alias: 'g', type: 'string', array: true, describe: 'a gate checked on the merged run, repeatable: [set:NAME] [mode:M] FIGURE[.STAT] OP NUMBER' })
        .option('gates', { type: 'string', describe: 'JSON file of gates: {"gates": ["...", ...]}' })
        .example('$0 merge runs/shard-1 runs/shard-2 runs/shard-3 runs/shard-4 --out runs/merged', 'four shards into one run')
        .example('$0 merge /runs/$RUN_ID/shard-* --out /runs/$RUN_ID/merged --gate "pass_rate >= 0.9"', 'after a Kubernetes Indexed Job; exit 1 when the gate fails')
        .epilogue(
          'Refused with exit 2: runs of another command, dataset, models file, plan, shard count or chatbench major version; a missing shard; a shard given twice; a request key in two shards. Exit 1: a gate failed. docs/scale-out.md has the Kubernetes and GitHub Actions recipes.',
        ),
    handler: async (a) => {
      const result = await mergeRuns({ dirs: a.dirs, outDir: a.out, cwd: io.cwd, version: VERSION, gates: a.gate ?? [], gatesFile: a.gates });
      for (const warning of result.warnings) io.stderr.write(`chatbench merge: warning: ${warning}\n`);
      const shards = result.mergedFrom.map((m) => `${m.shard.index}/${m.shard.count} ${m.dir} (${m.records})`).join(', ');
      const lines = [`merged ${result.records} records of ${result.mergedFrom.length} shards: ${shards}`];
      if (result.summary !== null) lines.push('', renderTerminalTable(result.summary).trimEnd());
      lines.push(...renderGateLines(result.gateResults), 'reports:', ...result.files.map((f) => `  ${f}`));
      io.stdout.write(`${lines.join('\n')}\n`);
      setExitCode(result.exitCode);
    },
  });
}

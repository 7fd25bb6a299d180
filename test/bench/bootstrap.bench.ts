/**
 * `npx tsx test/bench/bootstrap.bench.ts [BASELINE_CHECKOUT]`: ms of CPU for the bootstrap of one
 * compared figure at the default 2,000 resamples (src/compare/bootstrap): `latencyIntervals` (every
 * statistic of a latency figure, each side resampled on its own) at 10 to 10,000 samples a side, and
 * `pairedMeanInterval` (a score, resampling questions) at 40 and 400. A comparison runs the first
 * once per latency figure (14) and the second once per score and rate (65), for every pair of groups.
 * With a baseline checkout (e.g. `git worktree add /tmp/base HEAD~1`), its bootstrap runs in the same
 * process in alternating rounds, the intervals of both are checked equal for the same seed, and the
 * table gives both medians and their ratio. Prints the load average (a timing on a shared machine);
 * writes reports/bench/bootstrap.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as current from '../../src/compare/bootstrap.js';
import * as currentPrng from '../../src/compare/prng.js';
import { baselineCheckout, pairedRounds, type PairedCase } from './lib/paired-rounds.js';

const RESAMPLES = 2_000;
const ROUNDS = 5;

/** One tree's bootstrap, its generator built as that tree builds it. */
interface Tree {
  name: string;
  latency(base: Float64Array, cur: Float64Array, seed: string): unknown;
  paired(diffs: number[], seed: string): unknown;
}

type Prng = { createRandom(seed: string): unknown; Sfc32?: new (seed: string) => unknown };
function treeOf(name: string, bootstrap: typeof current, prng: Prng): Tree {
  // Before the generator was a class, the bootstrap took createRandom's function.
  const random = (seed: string) => (prng.Sfc32 === undefined ? prng.createRandom(seed) : new prng.Sfc32(seed));
  return {
    name,
    latency: (base, cur, seed) => bootstrap.latencyIntervals(base, cur, RESAMPLES, random(seed) as never),
    paired: (diffs, seed) => bootstrap.pairedMeanInterval(diffs, RESAMPLES, random(seed) as never),
  };
}

const trees: Tree[] = [treeOf('this tree', current, currentPrng)];
const dir = baselineCheckout();
if (dir !== undefined) {
  trees.push(
    treeOf(
      'baseline',
      (await import(join(dir, 'src/compare/bootstrap.ts'))) as typeof current,
      (await import(join(dir, 'src/compare/prng.ts'))) as Prng,
    ),
  );
}

/** A skewed latency sample of n values (ms), ascending, deterministic. */
const sample = (n: number, scale: number) =>
  Float64Array.from({ length: n }, (_, i) => scale * (300 + (2_000 * ((i * 7_919) % n) ** 3) / n ** 3)).sort();
const diffsOf = (m: number) => Array.from({ length: m }, (_, i) => ((i * 37) % 11) / 10 - 0.45);

type Case = PairedCase<Tree>;
// Equal intervals for the same seed (one checked call a case): a faster tree that computed something else would be no gain.
const cases: Case[] = [
  ...[10, 100, 1_000, 10_000].map((n): Case => {
    // The samples are made once, outside the timed calls.
    const [base, cur] = [sample(n, 1), sample(Math.round(n * 0.9), 1.1)];
    return {
      name: `latencyIntervals, ${n.toLocaleString('en-US')} a side`,
      calls: Math.max(1, Math.round(2_000 / n)),
      checked: 1,
      run: (tree, { seed }) => tree.latency(base, cur, seed),
    };
  }),
  ...[40, 400].map((m): Case => {
    const diffs = diffsOf(m);
    return {
      name: `pairedMeanInterval, ${m} questions`,
      calls: Math.round(800 / m),
      checked: 1,
      run: (tree, { seed }) => tree.paired(diffs, seed),
    };
  }),
];

const rows = pairedRounds(trees, cases, ROUNDS).map(({ us, rounds, ...row }) => ({
  ...row,
  ms: us.map((u) => u / 1_000),
  rounds: rounds.map((r) => r.map((u) => u / 1_000)),
}));

const load = loadavg().map((l) => l.toFixed(2));
const header = `| bootstrap of one figure (${RESAMPLES} resamples), ms of CPU a call | ${trees.map((t) => t.name).join(' | ')} |${trees.length > 1 ? ' ratio | same intervals |' : ''}`;
const lines = [
  header,
  `|---|${trees.map(() => '---:').join('|')}|${trees.length > 1 ? '---:|:---:|' : ''}`,
  ...rows.map(
    (r) =>
      `| ${r.case} | ${r.ms.map((m) => m.toFixed(3)).join(' | ')} |${trees.length > 1 ? ` ${(r.ms[0]! / r.ms[1]!).toFixed(2)}× | ${r.equal ? 'yes' : 'NO'} |` : ''}`,
  ),
  '',
  `Medians of ${ROUNDS} alternating rounds; load average ${load.join(' ')}.`,
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync('reports/bench', { recursive: true });
writeFileSync(
  join('reports/bench', 'bootstrap.json'),
  `${JSON.stringify({ resamples: RESAMPLES, trees: trees.map((t) => t.name), load_average: load, rows }, null, 2)}\n`,
);
if (rows.some((r) => !r.equal)) {
  process.stderr.write('bootstrap.bench: the trees gave different intervals for the same seed\n');
  process.exitCode = 1;
}

/**
 * @module bench/lib/paired-rounds
 * The round loop of the in-process benches that set this tree against another checkout's modules
 * in one process (bootstrap.bench.ts, eval-records.bench.ts): each case's results checked equal
 * across the trees, a warm-up, then rounds in alternating order (neither tree always runs just
 * after the other warmed the machine), and the median CPU a call of each tree.
 */
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/** The baseline checkout the bench was given (its first argument), resolved; undefined: this tree alone. */
export const baselineCheckout = (): string | undefined =>
  process.argv[2] === undefined ? undefined : resolve(process.argv[2]);

/** One call of a case: its index within the round, and a seed that differs between calls and rounds. */
export interface Call {
  readonly i: number;
  readonly seed: string;
}

export interface PairedCase<Tree> {
  readonly name: string;
  /** Calls a round. */
  readonly calls: number;
  /** Calls whose results must be the same for every tree (each with seed `check|i`). */
  readonly checked: number;
  run(tree: Tree, call: Call): unknown;
}

export interface PairedRow {
  readonly case: string;
  /** Whether every tree gave the same results for the checked calls. */
  readonly equal: boolean;
  /** µs of CPU a call, the median of the rounds, per tree. */
  readonly us: number[];
  /** Each tree's rounds, µs a call. */
  readonly rounds: number[][];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function pairedRounds<Tree>(
  trees: readonly Tree[],
  cases: readonly PairedCase<Tree>[],
  rounds: number,
): PairedRow[] {
  return cases.map((c) => {
    const results = trees.map((tree) =>
      Array.from({ length: c.checked }, (_, i) => c.run(tree, { i, seed: `check|${i}` })),
    );
    const equal = results.every((r) => isDeepStrictEqual(r, results[0]));
    for (const tree of trees) for (let i = 0; i < c.calls; i++) c.run(tree, { i, seed: `warm|${i}` });
    const us = trees.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? trees.map((_, t) => t) : trees.map((_, t) => trees.length - 1 - t);
      for (const t of order) {
        const from = process.cpuUsage();
        for (let i = 0; i < c.calls; i++) c.run(trees[t]!, { i, seed: `${round}|${i}` });
        const used = process.cpuUsage(from);
        us[t]!.push((used.user + used.system) / c.calls);
      }
    }
    return { case: c.name, equal, us: us.map(median), rounds: us };
  });
}

/**
 * Every --help example of the commands that read runs (compare, merge, report, view, history,
 * query, baseline, draft-expectations: all but test/helpers/help-examples `MAKERS`, whose examples
 * run in help-examples-make.test.ts) runs as printed, against the simulator, in-process
 * (test/helpers/run-example), in the examples' world (test/helpers/examples-world: a working
 * directory holding the runs the examples name). The manual's examples run in manual-examples.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ALL_SETUP_RUNS, useExamplesWorld } from '../helpers/examples-world.js';
import { MAKERS, helpExamples } from '../helpers/help-examples.js';

// Its examples read every setup run (compare old/ new/, merge load-*, history import reports/*, ...).
const examplesWorld = useExamplesWorld(ALL_SETUP_RUNS);

describe('every --help example of the commands that read runs runs as printed', () => {
  it('against the simulator, in a directory holding what the examples name', async () => {
    const { world, expectRuns } = examplesWorld();
    const cwd = world();
    const lines = (await helpExamples()).filter(([command]) => !MAKERS.has(command));
    expect(lines.length).toBeGreaterThan(20);
    // `history import` first, so that the history the other examples list, trend and query holds runs;
    // those that write a directory others read come last (baseline save rewrites the baseline).
    const order = (line: string) =>
      /history import/.test(line) ? -1 : /baseline save|--out (runs\/merged|load)\b/.test(line) ? 1 : 0;
    for (const [, line] of [...lines].sort((a, b) => order(a[1]) - order(b[1]))) await expectRuns(line, cwd);
  }, 240_000);
});

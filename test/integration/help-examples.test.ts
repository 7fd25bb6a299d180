/**
 * Every example of every command's --help runs as printed, against the simulator, in-process
 * (test/helpers/run-example), in the examples' world (test/helpers/examples-world: a working
 * directory holding the files the examples name, the variables the README exports pointing at the
 * test's simulator, CHATBENCH_TEST_SPEEDUP). The manual's examples run in manual-examples.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { recording } from '../../src/cli/options/yargs-layers.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { ALL_SETUP_RUNS, useExamplesWorld } from '../helpers/examples-world.js';

// Its examples read every setup run (compare old/ new/, merge load-*, history import reports/*, ...).
const examplesWorld = useExamplesWorld(ALL_SETUP_RUNS);

/** Every example of every command's --help, as [command, example]. */
async function helpExamples(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const entry of COMMANDS) {
    const examples: [string, string][] = [];
    const command = (await entry.load())(createFakeIo().io, () => undefined);
    recording(command.builder, new Map(), { eager: true, examples })(yargs([]));
    for (const [example] of examples) out.push([entry.name, example.replaceAll('$0', 'chatbench')]);
  }
  return out;
}

describe('every --help example runs as printed', () => {
  it('against the simulator, in a directory holding what the examples name', async () => {
    const { world, expectRuns, base } = examplesWorld();
    const cwd = world();
    const lines = await helpExamples();
    expect(lines.length).toBeGreaterThan(25);
    // Those that write a directory others read come last (baseline save rewrites the baseline).
    const order = (line: string) => (/baseline save|--out (runs\/merged|load|reports\/nightly)\b/.test(line) ? 1 : 0);
    // `init` writes a config that every later example in its directory would read: it runs in an empty one, as a user's.
    for (const [command, line] of [...lines].sort((a, b) => order(a[1]) - order(b[1])))
      await expectRuns(line, command === 'init' ? mkdtempSync(join(base, 'init-')) : cwd);
  }, 240_000);
});

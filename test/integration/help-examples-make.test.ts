/**
 * Every --help example of the commands that make a run or serve (eval, load, capacity, demo, init,
 * validate, serve, mock-llm: test/helpers/help-examples `MAKERS`) runs as printed, against the
 * simulator, in-process (test/helpers/run-example), in the examples' world
 * (test/helpers/examples-world). They read only the shipped files: no setup run, and none of them
 * reads the run history, so the world has it off (`CHATBENCH_HISTORY=false`, docs/history.md);
 * registering is tested by the history's own tests and by help-examples-read.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useExamplesWorld } from '../helpers/examples-world.js';
import { MAKERS, helpExamples } from '../helpers/help-examples.js';

const examplesWorld = useExamplesWorld([], { CHATBENCH_HISTORY: 'false' });

describe('every --help example of the commands that make a run runs as printed', () => {
  it('against the simulator, in a directory holding what the examples name', async () => {
    const { world, expectRuns, base } = examplesWorld();
    const cwd = world();
    const lines = (await helpExamples()).filter(([command]) => MAKERS.has(command));
    expect(lines.length).toBeGreaterThan(25);
    // `init` writes a config that every later example in its directory would read: it runs in an empty one, as a user's.
    for (const [command, line] of lines)
      await expectRuns(line, command === 'init' ? mkdtempSync(join(base, 'init-')) : cwd);
  }, 240_000);
});

/**
 * Issue 27 §8: every file a command's --help example reads is shipped (examples/, datasets/), so
 * an example pasted from a clone or an installed package runs as printed. A word of an example's
 * command is a file it reads when it names a file by its extension (`examples/questions.csv`, also
 * as a variable's value: `CHATBENCH_CONFIG=examples/prod.json`) or lies under examples/ or
 * datasets/. Run directories the examples read are written by earlier examples (reports/…, runs/…):
 * test/integration/help-examples-make.test.ts and help-examples-read.test.ts run them all.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { shellWords } from '../../src/cli/help-examples.js';
import { recording } from '../../src/cli/options/yargs-layers.js';
import { createFakeIo } from '../helpers/fake-io.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The files a command line reads, by the rule above. */
function filesNamed(command: string): string[] {
  return shellWords(command)
    .map((word) => word.replace(/^[A-Z_]+=/, '').replace(/^["']|["']$/g, ''))
    .filter(
      (word) => /^(examples|datasets)\//.test(word) || /^[\w./-]+\.(csv|json|jsonl|txt|mjs|js|yaml|yml)$/.test(word),
    );
}

async function helpExamples(): Promise<string[]> {
  const out: string[] = [];
  for (const entry of COMMANDS) {
    const examples: [string, string][] = [];
    const command = (await entry.load())(createFakeIo().io, () => undefined);
    recording(command.builder, new Map(), { eager: true, examples })(yargs([]));
    out.push(...examples.map(([line]) => line));
  }
  return out;
}

describe('the files help examples name', () => {
  it.each([
    [
      '$0 eval --dataset examples/questions.csv --checks examples/checks.mjs --gate "x >= 1"',
      ['examples/questions.csv', 'examples/checks.mjs'],
    ],
    ['CHATBENCH_CONFIG=examples/prod.json $0 eval --out reports/nightly', ['examples/prod.json']],
    ['$0 compare datasets/baselines/main reports/2026-11-20T10-00-00-eval', ['datasets/baselines/main']],
    ['$0 view runs/a runs/b', []],
  ])('%s reads %j', (line, files) => {
    expect(filesNamed(line)).toEqual(files);
  });

  it('exist in the repository (and so in the package: package.json ships examples/ and datasets/)', async () => {
    const named = [...new Set((await helpExamples()).flatMap(filesNamed))];
    expect(named).toEqual(
      expect.arrayContaining([
        'examples/questions.csv',
        'examples/tokens.txt',
        'examples/labels.csv',
        'examples/checks.mjs',
      ]),
    );
    expect(named.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });
});

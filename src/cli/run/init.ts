/**
 * @module cli/run/init
 * `chatbench init [--force]`: writes a starting point into the working directory (a commented
 * config, a dataset template, its columns explained, a sets file: init/templates) and prints the
 * next three commands. An existing file is never overwritten without --force: nothing is written
 * when one of them exists.
 * The run; its flags and help are cli/commands/init.ts.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ExitCode, UsageError } from '../../errors.js';
import {
  INIT_FILES,
  columnsTemplate,
  configTemplate,
  datasetTemplate,
  setsTemplate,
  type SchemaRefs,
} from '../../init/templates.js';
import { packageRoot } from '../../viewer/assets.js';
import { SCHEMA_FILES } from '../schemas/files.js';
import { outputOf } from '../output/output.js';
import type { CommandRun } from '../commands/define.js';
import type { InitArgs } from '../commands/init.js';

/**
 * The shipped schemas as the written files should name them: relative to the working directory when
 * the package is installed under it (`npm i -D chatbench`: node_modules/chatbench/...), so the files
 * work on every clone of the user's repository; else the absolute path of this installation.
 */
export function schemaRefs(cwd: string, root: string): SchemaRefs {
  const ref = (file: string) => {
    const path = join(root, 'dist', 'schemas', file);
    const rel = relative(cwd, path);
    return rel.startsWith('..') || isAbsolute(rel) ? path : `./${rel.split(sep).join('/')}`;
  };
  return { config: ref(SCHEMA_FILES.config), sets: ref(SCHEMA_FILES.sets) };
}

/** The next commands, as printed (and in --json's result). */
export const NEXT_COMMANDS = [
  [
    'chatbench validate --sim',
    "check the dataset and the sets, and the document ids against the simulator's corpus; nothing is sent",
  ],
  ['chatbench eval --sim', 'a run against the embedded simulated service: the reports in reports/<date-time>-eval/'],
  ['chatbench eval', 'against your deployment, once base-url and token-file are set in chatbench.config.yaml'],
] as const;

/** `chatbench init`'s run, with the arguments its flags (commands/init.ts) parsed. */
export const run: CommandRun<InitArgs> = async (a, io) => {
  const refs = schemaRefs(io.cwd, packageRoot());
  const files: [string, string][] = [
    [INIT_FILES.config, configTemplate(refs)],
    [INIT_FILES.dataset, datasetTemplate()],
    [INIT_FILES.columns, columnsTemplate()],
    [INIT_FILES.sets, setsTemplate(refs)],
  ];
  const existing = files.map(([name]) => name).filter((name) => existsSync(resolve(io.cwd, name)));
  if (existing.length > 0 && !a.force) {
    throw new UsageError(
      `${existing.join(', ')}: already ${existing.length === 1 ? 'exists' : 'exist'} in ${io.cwd}; nothing was written (--force overwrites)`,
    );
  }
  for (const [name, text] of files) await writeFile(resolve(io.cwd, name), text);
  const output = outputOf(io);
  const width = Math.max(...NEXT_COMMANDS.map(([command]) => command.length));
  io.stdout.write(
    `wrote ${files.map(([name]) => name).join(', ')}\n\nnext:\n${NEXT_COMMANDS.map(([command, what]) => `  ${command.padEnd(width)}  # ${what}\n`).join('')}`,
  );
  output.result({
    written: files.map(([name]) => name),
    overwritten: existing,
    next: NEXT_COMMANDS.map(([command]) => command),
  });
  return ExitCode.Ok;
};

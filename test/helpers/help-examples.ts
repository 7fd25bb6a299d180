/**
 * @module test/helpers/help-examples
 * Every example of every command's --help, split in the two groups that share nothing
 * (test/integration/help-examples-make.test.ts and help-examples-read.test.ts, so that vitest's two
 * workers share them): the commands that make a run or serve (`MAKERS`: their examples read only
 * the shipped files), and the rest, which read runs (compare, merge, report, view, history, ...).
 */
import yargs from 'yargs';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { recording } from '../../src/cli/options/yargs-layers.js';
import { createFakeIo } from './fake-io.js';

/** The commands whose examples read no run: they make one (or serve), from examples/ and datasets/. */
export const MAKERS: ReadonlySet<string> = new Set([
  'eval',
  'load',
  'capacity',
  'init',
  'demo',
  'validate',
  'serve',
  'mock-llm',
]);

/** Every example of every command's --help, as [command, example], in the commands' order. */
export async function helpExamples(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const entry of COMMANDS) {
    const examples: [string, string][] = [];
    const command = (await entry.load())(createFakeIo().io, () => undefined);
    recording(command.builder, new Map(), { eager: true, examples })(yargs([]));
    for (const [example] of examples) out.push([entry.name, example.replaceAll('$0', 'chatbench')]);
  }
  return out;
}

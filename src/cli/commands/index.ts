/**
 * @module cli/commands
 * The registry of commands, each in two modules loaded only when used: its flags and help (this
 * folder) when the command is named, its run (cli/run) when yargs calls its handler. `chatbench
 * --version` loads none, `eval --help` and a command line the parser refuses only eval's flags, and
 * the root help, completion and a mistyped command every command's flags, none of their runs.
 */
import type { Io } from '../io.js';
import type { AnyCommand, CommandRun, CommandFlags, SetExitCode } from './define.js';

export type { AnyCommand, SetExitCode } from './define.js';

export type CommandFactory = (io: Io, setExitCode: SetExitCode) => AnyCommand;

/**
 * A command in two modules: its flags and help (cli/commands), and its run (cli/run), imported only
 * when yargs calls the handler, so `eval --help` or a refused flag never loads the run's graph.
 */
const split =
  <A>(flags: () => Promise<{ flags: CommandFlags }>, run: () => Promise<{ run: CommandRun<A> }>) =>
  async (): Promise<CommandFactory> => {
    const loaded = (await flags()).flags;
    return (io, setExitCode) => ({
      ...loaded,
      // yargs hands the handler the arguments the flags' builder declared: A (commands/define.ts).
      handler: async (args) => setExitCode(await (await run()).run(args as A, io)),
    });
  };

export interface CommandEntry {
  /** The command's name on the command line (its file's `command` starts with it). */
  readonly name: string;
  readonly load: () => Promise<CommandFactory>;
  /** Environment variables that differ from CHATBENCH_<FLAG> for this command's options. */
  readonly env?: Readonly<Record<string, string>>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'eval',
    load: split(
      () => import('./eval.js'),
      () => import('../run/eval.js'),
    ),
  },
  {
    name: 'load',
    load: split(
      () => import('./load.js'),
      () => import('../run/load.js'),
    ),
  },
  {
    name: 'capacity',
    load: split(
      () => import('./capacity.js'),
      () => import('../run/capacity.js'),
    ),
  },
  {
    name: 'init',
    load: split(
      () => import('./init.js'),
      () => import('../run/init.js'),
    ),
  },
  {
    name: 'demo',
    load: split(
      () => import('./demo.js'),
      () => import('../run/demo.js'),
    ),
  },
  {
    name: 'report',
    load: split(
      () => import('./report.js'),
      () => import('../run/report.js'),
    ),
  },
  {
    name: 'draft-expectations',
    load: split(
      () => import('./draft-expectations.js'),
      () => import('../run/draft-expectations.js'),
    ),
  },
  {
    name: 'validate',
    load: split(
      () => import('./validate.js'),
      () => import('../run/validate.js'),
    ),
  },
  // The simulator's demo token is CHATBENCH_SIM_TOKEN: CHATBENCH_TOKEN, the real service's, must never become it.
  {
    name: 'serve',
    load: split(
      () => import('./serve.js'),
      () => import('../run/serve.js'),
    ),
    env: { token: 'CHATBENCH_SIM_TOKEN' },
  },
  {
    name: 'mock-llm',
    load: split(
      () => import('./mock-llm.js'),
      () => import('../run/mock-llm.js'),
    ),
  },
  {
    name: 'compare',
    load: split(
      () => import('./compare.js'),
      () => import('../run/compare.js'),
    ),
  },
  { name: 'baseline', load: async () => (await import('./baseline.js')).baselineCommand },
  {
    name: 'merge',
    load: split(
      () => import('./merge.js'),
      () => import('../run/merge.js'),
    ),
  },
  {
    name: 'view',
    load: split(
      () => import('./view.js'),
      () => import('../run/view.js'),
    ),
  },
  {
    name: 'history',
    load: split(
      () => import('./history.js'),
      () => import('../run/history.js'),
    ),
  },
  {
    name: 'query',
    load: split(
      () => import('./query.js'),
      () => import('../run/query.js'),
    ),
  },
];

/**
 * The command a command line names: its first word that is a command's name (global options may come
 * before it; a completion request has `chatbench` before it). undefined when none is.
 */
export function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (arg === '--config') i++;
    else if (!arg.startsWith('-')) {
      const entry = COMMANDS.find((c) => c.name === arg);
      if (entry) return entry;
    }
  }
  return undefined;
}

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
  <A>(flags: () => Promise<CommandFlags>, run: () => Promise<CommandRun<A>>) =>
  async (): Promise<CommandFactory> => {
    const loaded = await flags();
    return (io, setExitCode) => ({
      ...loaded,
      // yargs hands the handler the arguments the flags' builder declared: A (commands/define.ts).
      handler: async (args) => setExitCode(await (await run())(args as A, io)),
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
      async () => (await import('./eval.js')).evalFlags,
      async () => (await import('../run/eval.js')).run,
    ),
  },
  {
    name: 'load',
    load: split(
      async () => (await import('./load.js')).loadFlags,
      async () => (await import('../run/load.js')).run,
    ),
  },
  {
    name: 'capacity',
    load: split(
      async () => (await import('./capacity.js')).capacityFlags,
      async () => (await import('../run/capacity.js')).run,
    ),
  },
  {
    name: 'init',
    load: split(
      async () => (await import('./init.js')).initFlags,
      async () => (await import('../run/init.js')).run,
    ),
  },
  {
    name: 'demo',
    load: split(
      async () => (await import('./demo.js')).demoFlags,
      async () => (await import('../run/demo.js')).run,
    ),
  },
  {
    name: 'report',
    load: split(
      async () => (await import('./report.js')).reportFlags,
      async () => (await import('../run/report.js')).run,
    ),
  },
  {
    name: 'draft-expectations',
    load: split(
      async () => (await import('./draft-expectations.js')).draftExpectationsFlags,
      async () => (await import('../run/draft-expectations.js')).run,
    ),
  },
  {
    name: 'validate',
    load: split(
      async () => (await import('./validate.js')).validateFlags,
      async () => (await import('../run/validate.js')).run,
    ),
  },
  // The simulator's demo token is CHATBENCH_SIM_TOKEN: CHATBENCH_TOKEN, the real service's, must never become it.
  {
    name: 'serve',
    load: split(
      async () => (await import('./serve.js')).serveFlags,
      async () => (await import('../run/serve.js')).run,
    ),
    env: { token: 'CHATBENCH_SIM_TOKEN' },
  },
  {
    name: 'mock-llm',
    load: split(
      async () => (await import('./mock-llm.js')).mockLlmFlags,
      async () => (await import('../run/mock-llm.js')).run,
    ),
  },
  {
    name: 'compare',
    load: split(
      async () => (await import('./compare.js')).compareFlags,
      async () => (await import('../run/compare.js')).run,
    ),
  },
  { name: 'baseline', load: async () => (await import('./baseline.js')).baselineCommand },
  {
    name: 'merge',
    load: split(
      async () => (await import('./merge.js')).mergeFlags,
      async () => (await import('../run/merge.js')).run,
    ),
  },
  {
    name: 'view',
    load: split(
      async () => (await import('./view.js')).viewFlags,
      async () => (await import('../run/view.js')).run,
    ),
  },
  {
    name: 'history',
    load: split(
      async () => (await import('./history.js')).historyFlags,
      async () => (await import('../run/history.js')).run,
    ),
  },
  {
    name: 'query',
    load: split(
      async () => (await import('./query.js')).queryFlags,
      async () => (await import('../run/query.js')).run,
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

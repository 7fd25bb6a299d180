/**
 * @module cli/main
 * The yargs root. Every error becomes an exit code here, in one place. Commands are loaded only when
 * named (cli/commands); their options are merged from defaults, a config file, the environment and
 * the command line by cli/options; the output mode is settled there too (cli/output).
 */
import yargs, { type Argv } from 'yargs';
import { ExitCode, InputError, UsageError, exitCodeOf, formatError } from '../errors.js';
import type { Io } from './io.js';
import { COMMANDS, commandNamed, type CommandEntry } from './commands/index.js';
import { DURATION_HELP, EXIT_CODES_HELP } from './help-text.js';
import { CONFIG_FILE_NAME } from './options/config-file.js';
import { layering, recording, relabel, type LayeringContext, type SpecTable } from './options/yargs-layers.js';
import { createOutput } from './output/output.js';
import { joinDashValues } from './argv.js';
import { renameFlags } from './options/renamed.js';
import { withFlagSuggestions } from './unknown-flags.js';
import { applyCaFile } from './ca-file.js';
import { parseBytes } from './bytes.js';
import { formatBytes, LIMITS, setRunFileLineBytes } from '../util/limits.js';
import { registerInHistory } from './history-hook.js';

export async function main(rawArgv: readonly string[], rawIo: Io): Promise<ExitCode> {
  // `--timeout -1s` reaches the flag's own check (cli/argv) instead of yargs' "unknown arguments".
  // A retired flag name (`--models`) becomes its one name now (`--sets-file`), saying so: cli/options/renamed.
  const renamed = renameFlags(joinDashValues(rawArgv), commandNamed(rawArgv)?.name);
  const argv = renamed.argv;
  // Everything printed goes through one filter (text from inputs or the service never drives the
  // terminal) and the output mode: cli/output.
  const output = createOutput(rawIo);
  // Until the options are merged, the mode the command line asks for (a config file error with --json is JSON too).
  output.configure({ json: argv.includes('--json'), quiet: argv.includes('--quiet') });
  const io: Io = { ...rawIo, stdout: output.stdout, stderr: output.stderr, output };
  for (const line of renamed.notes) io.stderr.write(`${line}\n`);
  let exitCode: ExitCode = ExitCode.Ok;
  const setExitCode = (code: ExitCode) => {
    exitCode = code;
  };
  const named = commandNamed(argv);
  let layers: LayeringContext | undefined;
  const width = Math.min(110, (rawIo.stdout as { columns?: number }).columns ?? 100);
  try {
    const rootSpecs: SpecTable = new Map();
    const commandSpecs = new Map<string, SpecTable>();
    layers = { io, output, rootSpecs, commandSpecs, allOptionKeys: () => allOptionKeys(io) };
    let parser = yargs([...argv])
      .scriptName('chatbench')
      .usage('$0 <command> [options]\n\nEvaluate and load-test a retrieval-augmented chat service.')
      .epilogue(
        `${EXIT_CODES_HELP}\n\n${DURATION_HELP}\n\nEvery option can also come from a config file (--config FILE, or ${CONFIG_FILE_NAME} in the working directory) or from the environment (CHATBENCH_<OPTION>, e.g. CHATBENCH_BASE_URL); the command line wins. See docs/configuration.md.`,
      )
      .demandCommand(1, 'Name a command: chatbench <command> --help shows its options.')
      .strict()
      .recommendCommands()
      .exitProcess(false)
      .wrap(width)
      .help()
      .alias('h', 'help')
      .version()
      .completion('completion', 'Print a bash/zsh completion script: chatbench completion >> ~/.bashrc');
    parser = recording((y: typeof parser) => withGlobalOptions(y), rootSpecs)(parser) as typeof parser;
    parser = parser
      // yargs passes its instance as a second argument, which @types/yargs does not declare.
      .middleware(refuseRepeatedFlags as unknown as (argv: object) => void, true)
      .middleware(layering(layers) as unknown as (argv: object) => void, true)
      // After the layers: the CA file may come from the config file or CHATBENCH_CA_FILE too.
      .middleware(
        ((argv: Record<string, unknown>) => applyCaFile(argv['ca-file'] as string | undefined, io)) as (
          argv: object,
        ) => Promise<void>,
        true,
      )
      .middleware(applyRunLineCap, true)
      // yargs calls fail() for usage mistakes (message only) and for a failing handler (error).
      .fail((message, error) => {
        throw (
          error ??
          new UsageError(
            withFlagSuggestions(message, knownFlags(rootSpecs, named ? commandSpecs.get(named.name) : undefined), argv),
          )
        );
      });
    for (const entry of await commandsToLoad(argv, named)) {
      const command = (await entry.load())(io, setExitCode);
      const specs: SpecTable = new Map();
      commandSpecs.set(entry.name, specs);
      parser = parser.command({ ...command, builder: recording(command.builder, specs, { help: { width } }) as never });
    }
    skipHelpCache(parser);
    // Await parseAsync itself: a handler's rejection must reach the catch below. The callback only
    // captures what yargs would print (help, version, completion) so it goes to stdout, not the process.
    let text = '';
    const parsed = await parser.parseAsync([...argv], {}, (_error, _argv, printed) => {
      text = printed;
    });
    await registerInHistory(named?.name, output.lastResult, parsed.history as string | boolean | undefined, io);
    if (text) output.out.write(`${text}\n`);
    else if (output.mode === 'json' && !output.resultGiven)
      output.result({ command: named?.name ?? null, exit_code: exitCode });
    return exitCode;
  } catch (error) {
    output.err.write(relabel(formatError(error), layers?.sources));
    const code = exitCodeOf(error);
    if (output.mode === 'json' && !output.resultGiven) {
      output.result({
        command: named?.name ?? null,
        exit_code: code,
        errors: (error instanceof InputError
          ? error.problems
          : [error instanceof Error ? error.message : String(error)]
        ).map((line) => relabel(line, layers?.sources)),
      });
    }
    return code;
  }
}

/**
 * yargs renders the command's whole help text each time it runs a command's handler (cacheHelpMessage),
 * kept for a later showHelp() that chatbench never calls (its fail() throws; --help renders afresh):
 * wrapping every option's description cost each in-process main() ~0.1 s cold.
 */
function skipHelpCache(parser: unknown): void {
  const internal = (
    parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } }
  )
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (internal && typeof internal.cacheHelpMessage === 'function') internal.cacheHelpMessage = () => undefined;
}

/** The options every command takes: where options come from, and how the output looks. */
export function withGlobalOptions<T>(y: Argv<T>) {
  return y
    .option('config', {
      type: 'string',
      global: true,
      describe: `A config file (JSON, or YAML by its .yaml/.yml name) of options by their names, at the top level or under a command's name; default ${CONFIG_FILE_NAME} in the working directory, if there is one`,
      group: 'Output and configuration:',
    })
    .option('json', {
      type: 'boolean',
      global: true,
      describe: 'Print the result as one JSON document on stdout and nothing else there (progress stays on stderr)',
      group: 'Output and configuration:',
    })
    .option('quiet', {
      alias: 'q',
      type: 'boolean',
      global: true,
      describe: 'Print only the verdict and errors',
      group: 'Output and configuration:',
    })
    .option('verbose', {
      type: 'boolean',
      global: true,
      describe: 'Also print a line per request as it finishes (stderr)',
      group: 'Output and configuration:',
    })
    .option('history', {
      type: 'string',
      global: true,
      describe:
        'The run history store (default reports/history.duckdb; env CHATBENCH_HISTORY); eval, load, capacity, merge and compare register in it when they end; --no-history: not this run',
      group: 'Output and configuration:',
    })
    .option('ca-file', {
      type: 'string',
      global: true,
      describe:
        "PEM file of the certificate authority of a deployment with a self-signed or private certificate, trusted besides the system's for HTTPS (NODE_EXTRA_CA_CERTS works too)",
      group: 'Output and configuration:',
    })
    .option('color', {
      type: 'boolean',
      global: true,
      describe:
        'Colour verdicts and bad figures; default on a terminal unless NO_COLOR is set (FORCE_COLOR forces it); --no-color turns it off',
      group: 'Output and configuration:',
    })
    .option('max-run-line-bytes', {
      type: 'string',
      global: true,
      group: 'Output and configuration:',
      describe: `Most bytes of one line of a run file read back (results.jsonl, reviews.jsonl, labels.jsonl), and of a run's manifest.json or summary.json; a longer one is refused "file:line: line longer than N bytes" (exit 2). Default 64MiB (${formatBytes(LIMITS.runFileLineBytes)})`,
    });
}

/**
 * Sets the run-file line cap for the whole process (util/limits) once the layers are merged and
 * before the command runs; every main() sets it, so a default follows a lowered cap in one process.
 */
function applyRunLineCap(argv: Record<string, unknown>): void {
  const text = argv['max-run-line-bytes'];
  setRunFileLineBytes(
    typeof text === 'string' || typeof text === 'number'
      ? parseBytes(String(text), 'max-run-line-bytes')
      : LIMITS.runFileLineBytes,
  );
}

/** The option names a mistyped flag may have meant: the global ones and the named command's. */
function knownFlags(root: SpecTable, command: SpecTable | undefined): string[] {
  return [...root.keys(), ...(command?.keys() ?? [])];
}

/** The command named, or none for `--version`, or every command (root help, completion, a mistyped command). */
async function commandsToLoad(
  argv: readonly string[],
  named: CommandEntry | undefined,
): Promise<readonly CommandEntry[]> {
  if (named) return [named];
  if (argv.includes('--version') && !argv.includes('--help') && !argv.includes('-h')) return [];
  return COMMANDS;
}

/** Every command's option names (their builders run on a scratch parser; nothing is parsed). */
async function allOptionKeys(io: Io): Promise<ReadonlyMap<string, ReadonlySet<string>>> {
  const all = new Map<string, Set<string>>();
  for (const entry of COMMANDS) {
    const specs: SpecTable = new Map();
    const command = (await entry.load())(io, () => undefined);
    recording(command.builder, specs, { eager: true })(yargs([]));
    all.set(entry.name, new Set(specs.keys()));
  }
  return all;
}

/**
 * yargs turns a single-valued flag given twice (`--dataset a.csv --dataset b.csv`) into an array,
 * which the commands would take for a string (a TypeError, i.e. a stack trace). Refused here, once
 * for every command, before validation; flags declared repeatable (`array: true`) are not touched.
 */
function refuseRepeatedFlags(argv: Record<string, unknown>, y: { getOptions(): { array: string[] } }): void {
  const repeatable = new Set(y.getOptions().array);
  for (const [key, value] of Object.entries(argv)) {
    if (key === '_' || key.length === 1 || /[A-Z]/.test(key) || repeatable.has(key) || !Array.isArray(value)) continue;
    throw new UsageError(
      `--${key} was given ${value.length} times (${value.map((v) => JSON.stringify(String(v))).join(', ')}); give it once`,
    );
  }
}

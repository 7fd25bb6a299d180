/**
 * @module cli/main
 * The yargs root. Every error becomes an exit code here, in one place.
 */
import yargs from 'yargs';
import { ExitCode, UsageError, exitCodeOf, formatError } from '../errors.js';
import type { Io } from './io.js';
import { commands } from './commands/index.js';
import { joinDashValues } from './argv.js';
import { TerminalSafeStream } from './terminal-safe.js';

export async function main(argv: readonly string[], rawIo: Io): Promise<ExitCode> {
  // Everything printed goes through one filter: text from inputs or the service never drives the terminal.
  const io: Io = { ...rawIo, stdout: new TerminalSafeStream(rawIo.stdout), stderr: new TerminalSafeStream(rawIo.stderr) };
  const args = joinDashValues(argv);
  let exitCode: ExitCode = ExitCode.Ok;
  const setExitCode = (code: ExitCode) => {
    exitCode = code;
  };
  try {
    let parser = yargs(args)
      .scriptName('chatbench')
      .usage('$0 <command> [options]\n\nEvaluate and load-test a retrieval-augmented chat service.')
      .epilogue('Exit codes: 0 ok, 1 a gate failed, 2 bad input or usage (nothing sent), 3 the run could not be carried out, 4 internal error, 130 interrupted.')
      .demandCommand(1, 'Name a command: chatbench <command> --help shows its options.')
      .strict()
      .recommendCommands()
      .exitProcess(false)
      .wrap(Math.min(110, (io.stdout as { columns?: number }).columns ?? 100))
      .help()
      .alias('h', 'help')
      .version()
      // yargs passes its instance as a second argument, which @types/yargs does not declare.
      .middleware(refuseRepeatedFlags as unknown as (argv: object) => void, true)
      // yargs calls fail() for usage mistakes (message only) and for a failing handler (error).
      .fail((message, error) => {
        throw error ?? new UsageError(message);
      });
    for (const command of commands(io, setExitCode)) parser = parser.command(command);
    // Await parseAsync itself: a handler's rejection must reach the catch below. The callback only
    // captures what yargs would print (help, version) so it goes to io.stdout, not the process.
    let output = '';
    await parser.parseAsync(args, {}, (_error, _argv, text) => {
      output = text;
    });
    if (output) io.stdout.write(`${output}\n`);
    return exitCode;
  } catch (error) {
    io.stderr.write(formatError(error));
    return exitCodeOf(error);
  }
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
    throw new UsageError(`--${key} was given ${value.length} times (${value.map((v) => JSON.stringify(String(v))).join(', ')}); give it once`);
  }
}

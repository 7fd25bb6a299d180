/**
 * @module cli/unknown-flags
 * yargs' strict mode says "Unknown argument: concurency" and its recommendCommands suggests command
 * names only; flags get the suggester the config files use (cli/options/layers `closest`), so a
 * mistyped flag reads "did you mean --concurrency?".
 */
import { closest } from './options/layers.js';

const UNKNOWN = /^Unknown arguments?: (.+)$/;

/**
 * yargs' message with a suggestion per unknown flag that is near a known option name; any other
 * message unchanged. Positional words (no dashes in the command line) are left as yargs names them.
 */
export function withFlagSuggestions(message: string, known: readonly string[], argv: readonly string[]): string {
  const match = UNKNOWN.exec(message);
  if (!match) return message;
  const names = match[1]!.split(', ');
  const hints: string[] = [];
  for (const name of names) {
    if (!givenAsFlag(name, argv)) continue;
    const hit = closest(name, known);
    if (hit !== null && hit !== name) hints.push(`--${name}: did you mean --${hit}?`);
  }
  return hints.length === 0 ? message : `${message} (${hints.join('; ')})`;
}

/** yargs names `--foo-bar` as "foo-bar" and `-x` as "x"; both came from a dashed word. */
function givenAsFlag(name: string, argv: readonly string[]): boolean {
  return argv.some(
    (word) => word === `--${name}` || word.startsWith(`--${name}=`) || word === `--no-${name}` || word === `-${name}`,
  );
}

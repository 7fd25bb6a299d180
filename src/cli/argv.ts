/**
 * @module cli/argv
 * The command line before yargs reads it.
 */

/**
 * `--timeout -1s`: yargs reads `-1s` as the short flags -1 and -s ("Unknown arguments: 1, s").
 * A value that starts with a dash and a digit is joined to the long flag before it (`--timeout=-1s`),
 * so that the flag's own check says what is wrong with it. Nothing after a bare `--` is touched.
 */
export function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (/^--[^=]+$/.test(arg) && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

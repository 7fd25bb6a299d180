/**
 * @module cli/resume-command
 * The command line that continues an interrupted eval, printed after the interrupt so that it can be
 * pasted as it is. `--resume DIR` takes the run's options from its manifest (cli/options/resume-layer),
 * so the line is short; what the manifest does not record is added: inputs a caller set itself (the
 * demo gives its dataset and sets in code, not as options) and, as a note, a token given as a flag
 * (the manifest never holds a secret).
 */
import type { Invocation } from '../app/store/manifest.js';

/** The run-defining arguments of the interrupted eval, as its handler received them. */
export interface ResumeInputs {
  readonly dataset: string;
  readonly 'sets-file'?: string | undefined;
  readonly set: readonly string[];
  readonly sim: boolean;
  readonly mode: string;
  readonly repeat: number;
}

/** Quotes `word` for a POSIX shell when it holds anything but plainly safe characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * `chatbench eval --resume DIR`, plus every run-defining input the invocation does not record, and
 * a note when the token came from the command line. `dir` as the user should type it (relative to
 * where they stand).
 */
export function resumeCommand(
  dir: string,
  args: ResumeInputs,
  invocation: Invocation | undefined,
): { command: string; note: string | null } {
  const recorded = invocation?.options ?? {};
  const words = ['chatbench', 'eval', '--resume', dir];
  const missing = (key: string) => recorded[key] === undefined;
  if (args.sim && missing('sim')) words.push('--sim');
  if (missing('dataset')) words.push('--dataset', args.dataset);
  if (args['sets-file'] !== undefined && missing('sets-file') && missing('models'))
    words.push('--sets-file', args['sets-file']);
  if (missing('set')) for (const set of args.set) words.push('--set', set);
  if (args.mode !== 'stream' && missing('mode')) words.push('--mode', args.mode);
  if (args.repeat !== 1 && missing('repeat')) words.push('--repeat', String(args.repeat));
  const note =
    invocation?.sources.token === 'flag'
      ? 'give the token again (--token or CHATBENCH_TOKEN): the manifest never records it'
      : null;
  return { command: words.map(shellWord).join(' '), note };
}

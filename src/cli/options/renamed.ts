/**
 * @module cli/options/renamed
 * Options renamed so that one concept has one name (docs/glossary.md). The retired name still works
 * for the commands that had it — on the command line, as CHATBENCH_<OPTION> and as a config file's
 * key — and each use prints one line saying where it went. Pure: the caller prints the notes.
 */

export interface Renamed {
  /** The retired option name. */
  readonly old: string;
  /** The option's one name now. */
  readonly now: string;
  /** The commands that had the old name (another command may use the same word for something else). */
  readonly commands: readonly string[];
  /** Whether CHATBENCH_<OLD> is still read as the new option (false: the variable means something else now). */
  readonly env: boolean;
}

export const RENAMED: readonly Renamed[] = [
  // "model" is the LLM everywhere else; the file holds sets (of overrides), as --set and --set-name say.
  { old: 'models', now: 'sets-file', commands: ['eval', 'load', 'capacity', 'validate'], env: true },
  // Every other flag that names a file ends in -file; --gate (one gate's text) stays.
  { old: 'gates', now: 'gates-file', commands: ['eval', 'compare', 'merge'], env: true },
  // open|closed is the load model, not an LLM (mock-llm's --model still names LLMs).
  { old: 'model', now: 'load-model', commands: ['load'], env: true },
  // The global --config is chatbench's own config file; the simulator's file has its own name.
  // CHATBENCH_CONFIG names chatbench's config file for every command, serve included.
  { old: 'config', now: 'sim-config', commands: ['serve'], env: false },
];

const upper = (key: string) => `CHATBENCH_${key.toUpperCase().replace(/-/g, '_')}`;

/** The renames that apply to `command`. */
export function renamedFor(command: string | undefined): Renamed[] {
  return command === undefined ? [] : RENAMED.filter((r) => r.commands.includes(command));
}

/** Whether `key` is a retired name of one of `command`'s options (a config file's key still accepted). */
export function isRetired(command: string, key: string): boolean {
  return renamedFor(command).some((r) => r.old === key);
}

const note = (old: string, now: string) => `chatbench: ${old} is now ${now} (the old name still works)`;

/**
 * The command line with `command`'s retired flags (`--models F`, `--models=F`) under their new
 * names, and a note for each. Nothing after a bare `--` is touched.
 */
export function renameFlags(argv: readonly string[], command: string | undefined): { argv: string[]; notes: string[] } {
  const renames = renamedFor(command);
  const notes: string[] = [];
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return { argv: [...out, ...argv.slice(i)], notes };
    const match = /^--([^=]+)(=.*)?$/s.exec(arg);
    const rename = match === null ? undefined : renames.find((r) => r.old === match[1]);
    if (rename === undefined) {
      out.push(arg);
      continue;
    }
    out.push(`--${rename.now}${match![2] ?? ''}`);
    const text = note(`--${rename.old}`, `--${rename.now}`);
    if (!notes.includes(text)) notes.push(text);
  }
  return { argv: out, notes };
}

/** The environment with `command`'s retired CHATBENCH_<OLD> read as CHATBENCH_<NEW> (unless that is set too). */
export function renameEnv(
  env: Readonly<Record<string, string | undefined>>,
  command: string | undefined,
): { env: Record<string, string | undefined>; notes: string[] } {
  const out: Record<string, string | undefined> = { ...env };
  const notes: string[] = [];
  for (const r of renamedFor(command).filter((x) => x.env)) {
    const value = env[upper(r.old)];
    if (value === undefined || value === '') continue;
    if (env[upper(r.now)] === undefined || env[upper(r.now)] === '') out[upper(r.now)] = value;
    delete out[upper(r.old)];
    notes.push(note(upper(r.old), upper(r.now)));
  }
  return { env: out, notes };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A config file's document with `command`'s retired keys renamed, at the top level and in the
 * command's section (`load: {"model": "closed"}`); a key under both names keeps the new one's value.
 */
export function renameFileKeys(
  document: unknown,
  command: string | undefined,
  file: string,
): { document: unknown; notes: string[] } {
  const renames = renamedFor(command);
  if (!isObject(document) || renames.length === 0) return { document, notes: [] };
  const notes: string[] = [];
  const rename = (object: Record<string, unknown>, path: string): Record<string, unknown> => {
    const out = { ...object };
    for (const r of renames) {
      if (!(r.old in out)) continue;
      if (!(r.now in out)) out[r.now] = out[r.old];
      delete out[r.old];
      notes.push(note(`${file}: ${path}${r.old}`, `${path}${r.now}`));
    }
    return out;
  };
  const top = rename(document, '');
  const section = command === undefined ? undefined : top[command];
  if (isObject(section)) top[command!] = rename(section, `${command}.`);
  return { document: top, notes };
}

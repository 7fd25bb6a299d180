/**
 * @module cli/options/yargs-layers
 * The layering of cli/options/layers applied to yargs, for every command and every option it
 * declares, with no code per option:
 *
 * - `recording(builder)` runs a command's builder with `option`/`options`/`command` watched: each
 *   option's declaration is kept (type, choices, default) and handed to yargs without its default
 *   (shown in --help all the same), so what yargs parses is what the command line gave;
 * - `layering(ctx)` is a middleware that runs before yargs validates: it reads the config file and
 *   the environment, merges them under the command line, applies the defaults, writes the result
 *   back into the arguments the command receives, settles the output mode and attaches the record of
 *   every option's source for the manifest. Every problem of the file and the environment is
 *   reported at once (exit 2).
 */
import yargs, { type Argv, type Options } from 'yargs';
import { InputError } from '../../errors.js';
import { formatExamples } from '../help-examples.js';
import { DURATION_HELP, EXIT_CODES_HELP, describeOption } from '../help-text.js';
import { COMMANDS, type CommandEntry } from '../commands/index.js';
import type { Io } from '../io.js';
import type { Output } from '../output/output.js';
import { locateConfig, readConfigFile } from './config-file.js';
import { INVOCATION, invocationRecord } from './invocation.js';
import { RENAMED, isRetired, renameEnv, renameFileKeys } from './renamed.js';
import { SPEEDUP_ENV, speedUp, speedupOf } from './speedup.js';
import {
  envLayer,
  fileLayer,
  flagLayer,
  mergeLayers,
  unknownOption,
  type Layer,
  type OptionSpec,
  type Source,
} from './layers.js';

/**
 * A refusal's lines with an option's name replaced by where its value came from, when that was not
 * the command line: `--token: the token holds a control character` becomes `CHATBENCH_TOKEN: ...`,
 * `--rate must be above 0` becomes `chatbench.config.json: load.rate must be above 0`.
 */
export function relabel(text: string, sources: Readonly<Record<string, Source>> | undefined): string {
  if (sources === undefined) return text;
  return text.replace(/^(chatbench: |)--([a-z0-9][a-z0-9-]*)\b/gm, (whole, prefix: string, key: string) => {
    const source = sources[key];
    if (source?.kind === 'env') return `${prefix}${source.name}`;
    if (source?.kind === 'file' || source?.kind === 'run') return `${prefix}${source.file}: ${source.key}`;
    return whole;
  });
}

export type SpecTable = Map<string, OptionSpec>;

/**
 * Options that exclude one another, wherever they appear: one given on the command line drops the
 * others' values from the environment or a file (CHATBENCH_TOKEN, then `--token-file` given), instead
 * of the command refusing a conflict the user did not type.
 */
export const ALTERNATIVES: readonly (readonly string[])[] = [
  ['token', 'token-file'],
  ['base-url', 'sim'],
  ['rate', 'concurrency', 'stages'],
  ['duration', 'stages'],
  ['shard', 'shards'],
  ['out', 'resume'],
];

/** The declaration of one option, as the layers need it. */
export function specOf(key: string, option: Options): OptionSpec {
  const choices =
    option.choices === undefined
      ? null
      : ([] as (string | number)[]).concat(option.choices as string | number | (string | number)[]);
  const type =
    option.type === 'number' || option.type === 'count'
      ? 'number'
      : option.type === 'boolean'
        ? 'boolean'
        : option.type === undefined && choices !== null && typeof choices[0] === 'number'
          ? 'number'
          : 'string';
  return { key, type, array: option.array === true || option.type === 'array', choices, default: option.default };
}

/** How --help shows a default: `60s`, `4`, `false`; an empty list shows none. */
function defaultShown(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(' ');
  return String(value);
}

type Builder = (y: Argv) => unknown;
type CommandLike = { builder?: unknown } & Record<string, unknown>;

/**
 * `builder`, run with its option declarations recorded into `specs` and their defaults kept from
 * yargs. Subcommands declared inside (`baseline save`) are recorded too; with `eager`, their builders
 * run at once on a scratch instance (to list every option without parsing anything).
 */
export function recording(builder: unknown, specs: SpecTable, options: RecordingOptions = {}): Builder {
  return (y: Argv) => {
    const instance = y as unknown as Record<string, unknown>;
    const option = y.option.bind(y) as (key: string, opt: Options) => Argv;
    const command = y.command.bind(y) as (...args: unknown[]) => Argv;
    const examples: [string, string][] = [];
    let durations = false;
    const record = (key: string | Record<string, Options>, opt: Options = {}): Argv => {
      if (typeof key === 'object') {
        for (const [k, o] of Object.entries(key)) record(k, o);
        return y;
      }
      specs.set(key, specOf(key, opt));
      const describe = describeOption(key, opt.describe);
      const declared: Options = describe === undefined ? opt : { ...opt, describe };
      options.declared?.set(key, declared);
      if (/\bduration\b/.test(describe ?? '')) durations = true;
      if (opt.default === undefined) return option(key, declared);
      const { default: _default, ...rest } = declared;
      const shown = defaultShown(opt.default);
      return option(
        key,
        shown === undefined || rest.defaultDescription !== undefined ? rest : { ...rest, defaultDescription: shown },
      );
    };
    instance.option = record;
    instance.options = record;
    instance.example = (cmd: string | [string, string?][], description?: string) => {
      for (const [c, d] of Array.isArray(cmd) ? cmd : [[cmd, description] as const]) examples.push([c ?? '', d ?? '']);
      return y;
    };
    instance.command = (...args: unknown[]) => {
      const nested = args[0];
      if (args.length !== 1 || typeof nested !== 'object' || nested === null) return command(...args);
      const module = nested as CommandLike;
      if (options.eager) recording(module.builder, specs, options)(yargs([]));
      return command({ ...module, builder: recording(module.builder, specs, options) });
    };
    try {
      if (typeof builder === 'function') (builder as Builder)(y);
      else if (typeof builder === 'object' && builder !== null) record(builder as Record<string, Options>);
    } finally {
      delete instance.option;
      delete instance.options;
      delete instance.command;
      delete instance.example;
    }
    options.examples?.push(...examples);
    if (options.help !== undefined) {
      // Every command's help ends alike: examples that paste as they are, the exit codes, the durations.
      if (examples.length > 0) y.epilogue(`\n${formatExamples(examples, options.help.width)}`);
      y.epilogue(`\n${EXIT_CODES_HELP}`);
      if (durations) y.epilogue(`\n${DURATION_HELP}`);
    }
    return y;
  };
}

export interface RecordingOptions {
  /** Run subcommands' builders at once (to list every option without parsing). */
  readonly eager?: boolean;
  /** Append the examples, exit codes and duration syntax to the command's help, at this width. */
  readonly help?: { readonly width: number };
  /** Collects every option's declaration (tests of the help). */
  readonly declared?: Map<string, Options>;
  /** Collects every example as [command, description] (tests run them). */
  readonly examples?: [string, string][];
}

export interface LayeringContext {
  readonly io: Io;
  readonly output: Output;
  /** The global options (--config, --json, ...), recorded from the root parser. */
  readonly rootSpecs: SpecTable;
  /** The loaded commands' options, by command name. */
  readonly commandSpecs: ReadonlyMap<string, SpecTable>;
  /** Every command's option names, by command (loads every command: only asked when a file names an option this command lacks). */
  readonly allOptionKeys: () => Promise<ReadonlyMap<string, ReadonlySet<string>>>;
  /** Set once the options are merged: where each came from (main names it in a refusal, see `relabel`). */
  sources?: Readonly<Record<string, Source>>;
}

const camel = (key: string) => key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The before-validation middleware that merges the layers into the command's arguments. */
export function layering(ctx: LayeringContext) {
  return async (argv: Record<string | symbol, unknown>, y: Argv): Promise<void> => {
    if (argv.help === true || argv.version === true) return;
    const name = String((argv._ as unknown[] | undefined)?.[0] ?? '');
    const entry: CommandEntry | undefined = COMMANDS.find((c) => c.name === name);
    const own = ctx.commandSpecs.get(name) ?? new Map<string, OptionSpec>();
    const specs = [...new Map([...ctx.rootSpecs, ...own]).values()];
    const flags = flagLayer(specs, argv);
    const renamedEnv = renameEnv(ctx.io.env, name);
    const env = envLayer(specs, renamedEnv.env, entry?.env);
    const named = (flags.values.config ?? env.layer.values.config) as string | undefined;
    const location = locateConfig(named, ctx.io.cwd);
    const problems = [...env.problems];
    const notes = [...renamedEnv.notes];
    let file: Layer = { values: {}, sources: {} };
    if (location !== null) {
      const renamed = renameFileKeys(readConfigFile(location), name, location.shown);
      notes.push(...renamed.notes);
      const checked = fileLayer(specs, {
        file: location.shown,
        document: renamed.document,
        command: name,
        commandNames: COMMANDS.map((c) => c.name),
        reserved: ['config'],
      });
      file = checked.layer;
      problems.push(...checked.problems);
      if (checked.layer.otherKeys.length > 0 || Object.keys(checked.layer.otherSections).length > 0) {
        problems.push(
          ...(await othersProblems(location.shown, checked.layer.otherKeys, checked.layer.otherSections, ctx)),
        );
      }
    }
    for (const line of notes) ctx.io.stderr.write(`${line}\n`);
    if (problems.length > 0) {
      throw new InputError(problems, {
        hint: "options are named as on the command line (base-url, rate), at the top level or under a command's name (load: {rate: 20}); CHATBENCH_<OPTION> in the environment",
      });
    }
    // `--resume DIR` alone: the run's own options, under every other layer (cli/options/resume-layer).
    const resume = own.has('resume')
      ? (flags.values.resume ?? env.layer.values.resume ?? file.values.resume)
      : undefined;
    // Its module (a run's manifest, read with zod) loads only for a resumed run, not for every command line.
    const replayed =
      typeof resume === 'string'
        ? await (await import('./resume-layer.js')).readManifestLayer(resume, ctx.io.cwd, specs)
        : { values: {}, sources: {} };
    let merged = mergeLayers(specs, [replayed, file, env.layer, flags], ALTERNATIVES);
    const factor = speedupOf(ctx.io.env);
    if (factor !== null) {
      const changed = await speedUp(merged.values, factor);
      merged = { values: { ...merged.values, ...changed }, sources: merged.sources };
      ctx.io.stderr.write(
        `chatbench: ${SPEEDUP_ENV}=${factor}: schedule lengths and request counts divided by ${factor}, the embedded simulator ${factor} times faster (a test of the documented examples)\n`,
      );
    }
    const aliases = (y as unknown as { getOptions(): { alias?: Record<string, string[]> } }).getOptions().alias ?? {};
    for (const spec of specs) {
      const value = merged.values[spec.key];
      for (const key of [spec.key, camel(spec.key), ...(aliases[spec.key] ?? [])]) {
        if (value === undefined) delete argv[key];
        else argv[key] = Array.isArray(value) ? [...value] : value;
      }
    }
    ctx.output.configure({
      json: merged.values.json as boolean | undefined,
      quiet: merged.values.quiet as boolean | undefined,
      verbose: merged.values.verbose as boolean | undefined,
      color: merged.values.color as boolean | undefined,
    });
    argv[INVOCATION] = invocationRecord(merged, location?.shown ?? null);
    ctx.sources = merged.sources;
  };
}

/** Problems of the file's keys that this command lacks: fine when another command has them, else unknown. */
async function othersProblems(
  file: string,
  keys: readonly string[],
  sections: Readonly<Record<string, Record<string, unknown>>>,
  ctx: LayeringContext,
): Promise<string[]> {
  const all = await ctx.allOptionKeys();
  const everyKey = [...new Set([...ctx.rootSpecs.keys(), ...[...all.values()].flatMap((s) => [...s])])];
  const problems = keys
    .filter((key) => ![...all.values()].some((s) => s.has(key)) && !RENAMED.some((r) => r.old === key))
    .map((key) => `${file}: ${key}: ${unknownOption(key, everyKey, 'any chatbench command')}`);
  for (const [command, section] of Object.entries(sections)) {
    const known = [...(all.get(command) ?? []), ...ctx.rootSpecs.keys()];
    for (const key of Object.keys(section)) {
      if (!known.includes(key) && !isRetired(command, key))
        problems.push(`${file}: ${command}.${key}: ${unknownOption(key, known, `chatbench ${command}`)}`);
    }
  }
  return problems;
}

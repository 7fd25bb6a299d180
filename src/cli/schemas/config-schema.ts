/**
 * @module cli/schemas/config-schema
 * The JSON Schema of a config file (`chatbench.config.yaml`/`.json`, `--config`), for editors'
 * completion and checks. A config file holds command-line options by their names (cli/options/layers),
 * so its schema is made from the options every command declares to yargs, as a zod schema that
 * zod 4's `z.toJSONSchema` converts: nothing is written twice, and an option added to a command is
 * in the schema at the next build (scripts/build-schemas.mjs writes dist/schemas/).
 */
import { z } from 'zod';
import yargs, { type Argv, type Options } from 'yargs';
import { COMMANDS } from '../commands/index.js';
import type { Io } from '../io.js';
import { recording, specOf } from '../options/yargs-layers.js';
import type { OptionSpec } from '../options/layers.js';

/** One option as a config file may give it: a value of its type (a list too, when repeatable). */
function optionSchema(spec: OptionSpec, describe: string | undefined): z.ZodType {
  const choices = spec.choices;
  let one: z.ZodType;
  if (choices !== null && choices.length > 0 && choices.every((c) => typeof c === 'string')) {
    one = z.enum(choices as [string, ...string[]]);
  } else if (choices !== null && choices.length > 0) {
    one = z.union(choices.map((c) => z.literal(c)) as [z.ZodLiteral, ...z.ZodLiteral[]]);
  } else if (spec.type === 'number') {
    one = z.number();
  } else if (spec.type === 'boolean') {
    one = z.boolean();
  } else {
    // A file may give a number for a string option (`timeout: 60`): cli/options/layers takes it.
    one = z.union([z.string(), z.number()]);
  }
  const value = spec.array ? z.union([one, z.array(one)]) : one;
  return (describe === undefined ? value : value.describe(describe)).optional();
}

/** A command's options, as recorded from its builder (nothing parsed). */
export interface CommandOptions {
  readonly name: string;
  readonly options: ReadonlyMap<string, Options>;
}

/** Every command's declared options, and the global ones (`--json`, `--quiet`, ...). */
export async function declaredOptions(
  io: Io,
  globalOptions: (y: Argv) => Argv,
): Promise<{ global: ReadonlyMap<string, Options>; commands: CommandOptions[] }> {
  const global = new Map<string, Options>();
  recording(globalOptions, new Map(), { declared: global })(yargs([]));
  const commands: CommandOptions[] = [];
  for (const entry of COMMANDS) {
    const options = new Map<string, Options>();
    const command = (await entry.load())(io, () => undefined);
    recording(command.builder, new Map(), { eager: true, declared: options })(yargs([]));
    commands.push({ name: entry.name, options });
  }
  return { global, commands };
}

/** The config file's zod schema: top-level options of any command, and a section per command. */
export function configSchema(global: ReadonlyMap<string, Options>, commands: readonly CommandOptions[]): z.ZodType {
  const field = (key: string, option: Options) =>
    optionSchema(specOf(key, option), typeof option.describe === 'string' ? option.describe : undefined);
  const section = (options: ReadonlyMap<string, Options>, ownsConfig: boolean) => {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, option] of [...global, ...options]) {
      // `config` names the file itself; only serve's own --config (the simulator's file) may be set in one.
      if (key === 'config' && !ownsConfig) continue;
      shape[key] = field(key, option);
    }
    return shape;
  };
  // A top-level key applies to every command that has the option; where commands declare it
  // differently (`mode`: stream|full|both for eval, stream|full for load), any of their forms.
  const topLevel = new Map<string, z.ZodType[]>();
  const seen = new Map<string, Set<string>>();
  for (const [key, option] of [
    ...global,
    ...commands.flatMap((c) => [...c.options].filter(([k]) => !(k === 'config' && c.name === 'serve'))),
  ]) {
    if (key === 'config') continue;
    const signature = JSON.stringify(specOf(key, option));
    const signatures = seen.get(key) ?? new Set<string>();
    if (signatures.has(signature)) continue;
    signatures.add(signature);
    seen.set(key, signatures);
    topLevel.set(key, [...(topLevel.get(key) ?? []), field(key, option)]);
  }
  const shape: Record<string, z.ZodType> = {
    $schema: z.string().describe("This file's JSON Schema (for editors; chatbench ignores it)").optional(),
  };
  for (const [key, forms] of [...topLevel].sort(([a], [b]) => a.localeCompare(b))) {
    shape[key] = forms.length === 1 ? forms[0]! : z.union(forms as [z.ZodType, ...z.ZodType[]]).optional();
  }
  for (const command of commands) {
    shape[command.name] = z
      .strictObject(section(command.options, command.name === 'serve'))
      .describe(`Options of chatbench ${command.name} only (over the top level's)`)
      .optional();
  }
  return z
    .strictObject(shape)
    .describe(
      "chatbench config file: options by their command-line names, at the top level (every command that has the option) or under a command's name. The environment (CHATBENCH_<OPTION>) and the command line override it.",
    );
}

/**
 * The JSON Schema document of what a file may hold (zod's input side: defaults make fields
 * optional), draft-07: what editors' YAML and JSON language servers read.
 */
export function toJsonSchemaDocument(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-07', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/**
 * @module cli/options/layers
 * Where each option of a command comes from, generic over the command's yargs options: defaults <
 * config file < environment (`CHATBENCH_<FLAG>`) < command line (k6's getConsolidatedConfig). Every
 * layer is partial; defaults are applied once, after merging, to what no layer set. Values from a
 * file or the environment are checked against the option's declared type and choices here (the
 * command line is yargs' to parse), and every problem is returned at once, naming the file and key
 * or the variable. Pure: the caller reads the file and the environment.
 */

export type OptionType = 'string' | 'number' | 'boolean';

/** One option as its command declared it to yargs. */
export interface OptionSpec {
  readonly key: string;
  readonly type: OptionType;
  /** Repeatable (`array: true`): a list of values. */
  readonly array: boolean;
  readonly choices: readonly (string | number)[] | null;
  /** undefined when the option has no default. */
  readonly default: unknown;
}

export type Source =
  | { readonly kind: 'default' }
  | { readonly kind: 'file'; readonly file: string; readonly key: string }
  /** A resumed run's manifest.json (cli/options/resume-layer): under the config file. */
  | { readonly kind: 'run'; readonly file: string; readonly key: string }
  | { readonly kind: 'env'; readonly name: string }
  | { readonly kind: 'flag' };

/** Values some layer set, with where each came from. */
export interface Layer {
  readonly values: Readonly<Record<string, unknown>>;
  readonly sources: Readonly<Record<string, Source>>;
}

export interface Checked<T> {
  readonly layer: T;
  readonly problems: readonly string[];
}

const RANK: Record<Source['kind'], number> = { default: 0, run: 0.5, file: 1, env: 2, flag: 3 };

/** `base-url` → `CHATBENCH_BASE_URL`, unless the command names the variable itself. */
export function envName(key: string, overrides: Readonly<Record<string, string>> = {}): string {
  return overrides[key] ?? `CHATBENCH_${key.toUpperCase().replaceAll('-', '_')}`;
}

/** How a source reads in messages and in the manifest: `flag`, `env CHATBENCH_RATE`, `file c.json (load.rate)`. */
export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'flag':
      return 'flag';
    case 'env':
      return `env ${source.name}`;
    case 'file':
      return `file ${source.file} (${source.key})`;
    case 'run':
      return `run ${source.file} (${source.key})`;
  }
}

const show = (value: unknown): string =>
  typeof value === 'string'
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? 'a list'
      : value === null
        ? 'null'
        : typeof value === 'object'
          ? 'an object'
          : String(value);

/** A config file's value for `spec`, or why it cannot be one. Numbers are accepted for strings (`timeout: 60`). */
export function fileValue(spec: OptionSpec, value: unknown): { value: unknown } | { problem: string } {
  if (spec.array) {
    const items = Array.isArray(value) ? value : [value];
    const out: unknown[] = [];
    for (const item of items) {
      const one = scalar(spec, item);
      if ('problem' in one) return { problem: Array.isArray(value) ? `an item: ${one.problem}` : one.problem };
      out.push(one.value);
    }
    return { value: out };
  }
  if (Array.isArray(value))
    return { problem: `expected one ${spec.type}, got a list (only repeatable options take lists)` };
  return scalar(spec, value);
}

function scalar(spec: OptionSpec, value: unknown): { value: unknown } | { problem: string } {
  let out: unknown;
  if (spec.type === 'boolean') {
    if (typeof value !== 'boolean') return { problem: `expected true or false, got ${show(value)}` };
    out = value;
  } else if (spec.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value))
      return { problem: `expected a number, got ${show(value)}` };
    out = value;
  } else {
    if (typeof value === 'number' && Number.isFinite(value)) out = String(value);
    else if (typeof value === 'string') out = value;
    else return { problem: `expected a string, got ${show(value)}` };
  }
  return inChoices(spec, out);
}

function inChoices(spec: OptionSpec, value: unknown): { value: unknown } | { problem: string } {
  if (spec.choices === null || spec.choices.includes(value as string | number)) return { value };
  return { problem: `expected one of ${spec.choices.join(', ')}, got ${show(value)}` };
}

/** An environment variable's text as a value for `spec`. A list is a JSON array (`["a", "b"]`) or one value. */
export function envValue(spec: OptionSpec, text: string): { value: unknown } | { problem: string } {
  if (spec.array && text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { problem: 'a list is written as a JSON array, e.g. ["a", "b"]; this one does not parse' };
    }
    if (!Array.isArray(parsed)) return { problem: 'a list is written as a JSON array, e.g. ["a", "b"]' };
    const out: unknown[] = [];
    for (const item of parsed) {
      const one = typeof item === 'string' ? envScalar(spec, item) : scalar(spec, item);
      if ('problem' in one) return one;
      out.push(one.value);
    }
    return { value: out };
  }
  const one = envScalar(spec, text);
  return 'problem' in one || !spec.array ? one : { value: [one.value] };
}

function envScalar(spec: OptionSpec, text: string): { value: unknown } | { problem: string } {
  if (spec.type === 'boolean') {
    const value = { true: true, '1': true, yes: true, false: false, '0': false, no: false }[text.trim().toLowerCase()];
    return value === undefined
      ? { problem: `expected true or false (or 1, 0), got ${JSON.stringify(text)}` }
      : { value };
  }
  if (spec.type === 'number') {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    return Number.isFinite(value)
      ? inChoices(spec, value)
      : { problem: `expected a number, got ${JSON.stringify(text)}` };
  }
  return inChoices(spec, text);
}

/** The environment's layer: `CHATBENCH_<FLAG>` for every option; an empty variable is unset. */
export function envLayer(
  specs: readonly OptionSpec[],
  env: Readonly<Record<string, string | undefined>>,
  overrides: Readonly<Record<string, string>> = {},
): Checked<Layer> {
  const values: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  const problems: string[] = [];
  for (const spec of specs) {
    const name = envName(spec.key, overrides);
    const text = env[name];
    if (text === undefined || text === '') continue;
    const result = envValue(spec, text);
    if ('problem' in result) problems.push(`${name}: ${result.problem}`);
    else {
      values[spec.key] = result.value;
      sources[spec.key] = { kind: 'env', name };
    }
  }
  return { layer: { values, sources }, problems };
}

/** A config file, parsed: its top level maps option names (or a command's name, to a section) to values. */
export interface FileLayerInput {
  readonly file: string;
  readonly document: unknown;
  /** The running command's name: its section (`load: {...}`) applies over the top level. */
  readonly command: string;
  readonly commandNames: readonly string[];
  /** Options the config file may not set (the file's own path). */
  readonly reserved: readonly string[];
}

export interface FileLayer extends Layer {
  /** Top-level keys that are no option of this command: the caller checks them against the other commands'. */
  readonly otherKeys: readonly string[];
  /** Other commands' sections, by command: the caller checks their keys against those commands' options. */
  readonly otherSections: Readonly<Record<string, Record<string, unknown>>>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The config file's layer for the running command; every problem at once, `file: key: message`. */
export function fileLayer(specs: readonly OptionSpec[], input: FileLayerInput): Checked<FileLayer> {
  const { file, document, command } = input;
  const values: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  const problems: string[] = [];
  const otherKeys: string[] = [];
  const otherSections: Record<string, Record<string, unknown>> = {};
  const byKey = new Map(specs.map((s) => [s.key, s]));
  if (!isObject(document)) {
    return {
      layer: { values, sources, otherKeys, otherSections },
      problems: [`${file}: the top level must be an object of options (e.g. {"concurrency": 8, "load": {"rate": 20}})`],
    };
  }
  const take = (key: string, value: unknown, path: string) => {
    const spec = byKey.get(key);
    if (spec === undefined) return false;
    if (input.reserved.includes(key)) {
      problems.push(`${file}: ${path}: cannot be set in a config file`);
      return true;
    }
    const result =
      value === null ? { problem: 'no value (leave the key out to leave the option unset)' } : fileValue(spec, value);
    if ('problem' in result) problems.push(`${file}: ${path}: ${result.problem}`);
    else {
      values[key] = result.value;
      sources[key] = { kind: 'file', file, key: path };
    }
    return true;
  };
  for (const [key, value] of Object.entries(document)) {
    // The file's JSON Schema, for editors (`chatbench init` writes it): no option.
    if (key === '$schema') continue;
    if (input.commandNames.includes(key)) {
      if (!isObject(value)) problems.push(`${file}: ${key}: a command's section must be an object of its options`);
      else if (key !== command) otherSections[key] = value;
      continue;
    }
    if (!take(key, value, key)) otherKeys.push(key);
  }
  const section = document[command];
  if (isObject(section)) {
    for (const [key, value] of Object.entries(section)) {
      if (!take(key, value, `${command}.${key}`))
        problems.push(
          `${file}: ${command}.${key}: ${unknownOption(
            key,
            specs.map((s) => s.key),
            `chatbench ${command}`,
          )}`,
        );
    }
  }
  return { layer: { values, sources, otherKeys, otherSections }, problems };
}

/** `not an option of chatbench load (did you mean "base-url"?)`. */
export function unknownOption(key: string, known: readonly string[], where: string): string {
  const suggestion = closest(key, known);
  return `not an option of ${where}${suggestion === null ? '' : ` (did you mean "${suggestion}"?)`}`;
}

/** The known name nearest `key` (case, `-` and `_` ignored; fewer than 3 edits), or null. */
export function closest(key: string, known: readonly string[]): string | null {
  const fold = (s: string) => s.toLowerCase().replaceAll(/[-_]/g, '');
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = fold(candidate) === fold(key) ? 0 : levenshtein(key, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/** The command line's layer: the options yargs parsed (it knows no defaults, so these were given). */
export function flagLayer(specs: readonly OptionSpec[], parsed: Readonly<Record<string, unknown>>): Layer {
  const values: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  for (const spec of specs) {
    if (parsed[spec.key] === undefined) continue;
    values[spec.key] = parsed[spec.key];
    sources[spec.key] = { kind: 'flag' };
  }
  return { values, sources };
}

/** A value that asks for something: a true boolean, a non-empty list, anything else defined. */
const isSet = (value: unknown) =>
  value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0);

/**
 * Merges the layers (lowest first), then applies defaults once. `alternatives` are groups of options
 * that exclude one another (`--token` or `--token-file`): when one is set by a higher layer, the
 * others' values from lower layers are dropped, so a flag given on the command line replaces the
 * file's alternative instead of conflicting with it. Two alternatives of one layer are both kept
 * (the command reports that conflict).
 */
export function mergeLayers(
  specs: readonly OptionSpec[],
  layers: readonly Layer[],
  alternatives: readonly (readonly string[])[] = [],
): Layer {
  const values: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.values)) {
      values[key] = value;
      sources[key] = layer.sources[key]!;
    }
  }
  for (const group of alternatives) {
    const set = group.filter((key) => isSet(values[key]) && sources[key] !== undefined);
    const top = Math.max(-1, ...set.map((key) => RANK[sources[key]!.kind]));
    for (const key of set) {
      if (RANK[sources[key]!.kind] < top) {
        delete values[key];
        delete sources[key];
      }
    }
  }
  for (const spec of specs) {
    if (values[spec.key] !== undefined || spec.default === undefined) continue;
    values[spec.key] = spec.default;
    sources[spec.key] = { kind: 'default' };
  }
  return { values, sources };
}

/**
 * @module cli/options/config-file
 * Finding and reading the config file: `--config FILE` (or CHATBENCH_CONFIG), else
 * `chatbench.config.json` or `chatbench.config.yaml` (`chatbench init` writes it) in the working
 * directory when there is one. JSON, or YAML when the name ends in .yaml/.yml (anchors and aliases
 * refused: util/yaml). A file that cannot be read or parsed is one problem naming the file (and the
 * line); what its keys hold is checked in cli/options/layers.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { findJsonError } from '../../sets/json-position.js';
import { isYamlName, parseYaml } from '../../util/yaml.js';

export const CONFIG_FILE_NAME = 'chatbench.config.json';

/** The names looked for in the working directory when no file is named. */
export const CONFIG_FILE_NAMES = [CONFIG_FILE_NAME, 'chatbench.config.yaml', 'chatbench.config.yml'] as const;

/** A config file is a page of options: anything larger is a mistake (a data file named by accident, /dev/zero). */
const MAX_BYTES = 1024 * 1024;

export interface ConfigLocation {
  /** As the user named it (for messages and the manifest). */
  readonly shown: string;
  readonly path: string;
}

/**
 * The config file to read: the named one, else the one of CONFIG_FILE_NAMES in `cwd` that exists,
 * else none. Two of them is a mistake (which would win is not obvious): refused, naming both.
 */
export function locateConfig(named: string | undefined, cwd: string): ConfigLocation | null {
  if (named !== undefined) return { shown: named, path: resolve(cwd, named) };
  const found = CONFIG_FILE_NAMES.filter((name) => existsSync(resolve(cwd, name)));
  if (found.length > 1)
    throw new InputError([
      `${found.join(' and ')}: two config files in the working directory; keep one (or name one with --config)`,
    ]);
  return found[0] === undefined ? null : { shown: found[0], path: resolve(cwd, found[0]) };
}

function readCapped(path: string, shown: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError([
      `${shown}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    ]);
  }
  try {
    const buffer = Buffer.alloc(MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_BYTES) throw new InputError([`${shown}: over 1 MiB: not a config file`]);
    }
    return buffer
      .subarray(0, length)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError([
      `${shown}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    ]);
  } finally {
    closeSync(fd);
  }
}

/** The parsed document (not yet checked: cli/options/layers does that). */
export function readConfigFile(location: ConfigLocation): unknown {
  const text = readCapped(location.path, location.shown);
  if (isYamlName(location.path)) {
    return parseYaml(text, location.shown, 'a config file') ?? {};
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const at = findJsonError(text);
    throw new InputError([
      `${location.shown}${at ? `:${at.line}:${at.column}` : ''}: not JSON (${at?.reason ?? 'cannot be parsed'})${/\.json$/i.test(location.path) ? '' : '; a YAML file must end in .yaml or .yml'}`,
    ]);
  }
}

/**
 * @module cli/options/config-file
 * Finding and reading the config file: `--config FILE` (or CHATBENCH_CONFIG), else
 * `chatbench.config.json` in the working directory when there is one. JSON, or YAML when the name
 * ends in .yaml/.yml. A file that cannot be read or parsed is one problem naming the file (and the
 * line); what its keys hold is checked in cli/options/layers. YAML anchors and aliases are refused:
 * a page of options never needs them, and aliases of aliases ("billion laughs") make a 260 KB file
 * a graph that every later walk of it (validation, the manifest's JSON) expands exponentially.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { findJsonError } from '../../sets/json-position.js';

export const CONFIG_FILE_NAME = 'chatbench.config.json';

/** A config file is a page of options: anything larger is a mistake (a data file named by accident, /dev/zero). */
const MAX_BYTES = 1024 * 1024;

export interface ConfigLocation {
  /** As the user named it (for messages and the manifest). */
  readonly shown: string;
  readonly path: string;
}

/** The config file to read: the named one, else chatbench.config.json in `cwd` if it exists, else none. */
export function locateConfig(named: string | undefined, cwd: string): ConfigLocation | null {
  if (named !== undefined) return { shown: named, path: resolve(cwd, named) };
  const path = resolve(cwd, CONFIG_FILE_NAME);
  return existsSync(path) ? { shown: CONFIG_FILE_NAME, path } : null;
}

function readCapped(path: string, shown: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError([`${shown}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
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
    return buffer.subarray(0, length).toString('utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError([`${shown}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  } finally {
    closeSync(fd);
  }
}

/** What js-yaml's listener sees of its parser state (the part read here). */
interface YamlState {
  readonly anchorMap: Record<string, unknown>;
  readonly line: number;
}

interface YamlModule {
  load(text: string, options: { filename: string; json: boolean; listener?: (event: 'open' | 'close', state: YamlState) => void }): unknown;
}

/** Thrown from the parser's listener at the first node after an anchor was defined. */
class YamlAnchorError extends Error {
  constructor(readonly line: number, readonly anchor: string) {
    super(`anchor &${anchor}`);
  }
}

/**
 * Stops the parse as soon as any anchor exists: js-yaml calls this on every node's open and close,
 * so the node after an anchored one (where an alias could first appear) throws. Past the last node
 * an anchor is harmless: nothing can refer to it.
 */
function refuseAnchors(_event: 'open' | 'close', state: YamlState): void {
  for (const anchor in state.anchorMap) throw new YamlAnchorError(state.line + 1, anchor);
}

interface YamlError {
  readonly reason?: string;
  readonly mark?: { readonly line: number; readonly column: number };
}

/** The parsed document (not yet checked: cli/options/layers does that). */
export function readConfigFile(location: ConfigLocation): unknown {
  const text = readCapped(location.path, location.shown);
  if (/\.ya?ml$/i.test(location.path)) {
    // Loaded only when a YAML file is read, so a start without one does not pay for the parser.
    const yaml = createRequire(import.meta.url)('js-yaml') as YamlModule;
    try {
      return yaml.load(text, { filename: location.shown, json: true, listener: refuseAnchors }) ?? {};
    } catch (error) {
      if (error instanceof YamlAnchorError) {
        throw new InputError([`${location.shown}:${error.line}: YAML anchors and aliases (&name, *name) are not allowed in a config file (found &${error.anchor}); write each value out`]);
      }
      const { reason, mark } = error as YamlError;
      const at = mark ? `:${mark.line + 1}:${mark.column + 1}` : '';
      throw new InputError([`${location.shown}${at}: not YAML (${reason ?? (error as Error).message})`]);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const at = findJsonError(text);
    throw new InputError([`${location.shown}${at ? `:${at.line}:${at.column}` : ''}: not JSON (${at?.reason ?? 'cannot be parsed'})${/\.json$/i.test(location.path) ? '' : '; a YAML file must end in .yaml or .yml'}`]);
  }
}

/**
 * @module util/yaml
 * Reading a YAML file a user wrote (a config file, a sets file): JSON-compatible values only, and
 * anchors and aliases refused: a page of options never needs them, and aliases of aliases
 * ("billion laughs") make a 260 KB file a graph that every later walk of it (validation, the
 * manifest's JSON) expands exponentially. Problems are one InputError line naming the file and line.
 */
import { createRequire } from 'node:module';
import { InputError } from '../errors.js';

/** A YAML file is named so: `.yaml` or `.yml`. */
export const isYamlName = (path: string): boolean => /\.ya?ml$/i.test(path);

/** What js-yaml's listener sees of its parser state (the part read here). */
interface YamlState {
  readonly anchorMap: Record<string, unknown>;
  readonly line: number;
}

interface YamlModule {
  load(
    text: string,
    options: { filename: string; json: boolean; listener?: (event: 'open' | 'close', state: YamlState) => void },
  ): unknown;
}

/** Thrown from the parser's listener at the first node after an anchor was defined. */
class YamlAnchorError extends Error {
  constructor(
    readonly line: number,
    readonly anchor: string,
  ) {
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

/** The document of `text` (`shown` names the file in messages, `what` says what it is: "a config file"). */
export function parseYaml(text: string, shown: string, what: string): unknown {
  // Loaded only when a YAML file is read, so a start without one does not pay for the parser.
  const yaml = createRequire(import.meta.url)('js-yaml') as YamlModule;
  try {
    return yaml.load(text, { filename: shown, json: true, listener: refuseAnchors });
  } catch (error) {
    if (error instanceof YamlAnchorError) {
      throw new InputError([
        `${shown}:${error.line}: YAML anchors and aliases (&name, *name) are not allowed in ${what} (found &${error.anchor}); write each value out`,
      ]);
    }
    const { reason, mark } = error as YamlError;
    const at = mark ? `:${mark.line + 1}:${mark.column + 1}` : '';
    throw new InputError([`${shown}${at}: not YAML (${reason ?? (error as Error).message})`]);
  }
}

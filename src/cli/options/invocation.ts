/**
 * @module cli/options/invocation
 * The merged options of a command, as the manifest records them (app/store/manifest `invocation`): the
 * layering middleware attaches them to the parsed arguments, a command hands them to its run.
 * Secrets never go in: a token's value is redacted, a URL's user:password dropped.
 */
import type { Invocation } from '../../app/store/manifest.js';
import { describeSource, type Layer } from './layers.js';

/** Where the merged options ride on the parsed arguments (a symbol: no flag can collide with it, spreads copy it). */
export const INVOCATION = Symbol('chatbench.invocation');

const SECRET = /(^|-)(token|tokens|password|secret|api-key|key)$/;
const REDACTED = '[redacted]';
/** Options that say how to print, not what to run: two runs that differ only in these are the same run. */
const PRESENTATION = new Set(['help', 'version', 'config', 'json', 'quiet', 'verbose', 'color']);

function redact(key: string, value: unknown): unknown {
  if (SECRET.test(key)) return Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
  if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value)) {
    // user:password@ in a URL: only what follows the last @ of the authority is kept.
    return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1');
  }
  return value;
}

/** The record of a merged layer; `configFile` as the user named it. */
export function invocationRecord(merged: Layer, configFile: string | null): Invocation {
  const keys = Object.keys(merged.values)
    .filter((k) => !PRESENTATION.has(k) && merged.values[k] !== undefined)
    .sort();
  return {
    config_file: configFile,
    options: Object.fromEntries(keys.map((k) => [k, redact(k, merged.values[k])])),
    sources: Object.fromEntries(keys.map((k) => [k, describeSource(merged.sources[k]!)])),
  };
}

/** The invocation the middleware attached to a command's arguments; undefined for a handler called directly. */
export function invocationOf(args: object): Invocation | undefined {
  return (args as { [INVOCATION]?: Invocation })[INVOCATION];
}

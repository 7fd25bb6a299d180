/**
 * @module cli/options/resume-layer
 * `chatbench eval --resume DIR` alone: the options the run was started with, read from DIR's
 * manifest.json (`invocation`, app/store/manifest), as a layer under the config file, the environment and
 * the command line. A flag given beside `--resume` still wins, and app/resume refuses it when it
 * changes what the run sends. What the manifest cannot give back is left to the other layers:
 * redacted secrets (the token: give it again), defaults (they are the defaults again), and
 * `out`/`resume` themselves.
 */
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { InvocationSchema, readManifestPart, type Invocation } from '../../app/store/manifest.js';
import type { Layer, OptionSpec, Source } from './layers.js';
import { renamedFor } from './renamed.js';

/** Options never taken from a run's manifest: where the run is (given now), and how the command prints. */
const NOT_REPLAYED = new Set(['out', 'resume', 'config']);
const REDACTED = '[redacted]';

const isRedacted = (value: unknown) => value === REDACTED || (Array.isArray(value) && value.includes(REDACTED));

/**
 * The layer of `invocation`'s options that `specs` declares, each sourced to `file` (DIR/manifest.json)
 * under its key. Options the run took from their default, and redacted values, are left out.
 */
export function manifestLayer(invocation: Invocation, specs: readonly OptionSpec[], file: string): Layer {
  const declared = new Set(specs.map((s) => s.key));
  const values: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  // A run recorded before a rename keeps the retired key (`models`): it is replayed under today's name.
  const today = new Map(renamedFor('eval').map((r) => [r.old, r.now]));
  for (const [recordedKey, value] of Object.entries(invocation.options)) {
    const key = today.get(recordedKey) ?? recordedKey;
    if (key !== recordedKey && invocation.options[key] !== undefined) continue;
    if (!declared.has(key) || NOT_REPLAYED.has(key) || isRedacted(value) || value === undefined) continue;
    if (invocation.sources[recordedKey] === 'default') continue;
    values[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
    sources[key] = { kind: 'run', file, key: `invocation.options.${recordedKey}` };
  }
  return { values, sources };
}

/**
 * The layer of DIR's manifest (DIR as the user named it, relative to `cwd`); empty when the run has
 * no manifest or it records no invocation (app/resume then says what is missing).
 */
export async function readManifestLayer(dir: string, cwd: string, specs: readonly OptionSpec[]): Promise<Layer> {
  const part = await readManifestPart(resolve(cwd, dir), z.object({ invocation: InvocationSchema }));
  if (part === undefined) return { values: {}, sources: {} };
  return manifestLayer(part.invocation, specs, join(dir, 'manifest.json'));
}
